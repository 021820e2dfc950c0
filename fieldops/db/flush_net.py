"""The last check before a flush: nothing the database would refuse, or mangle, is written.

The services validate their input field by field, with the form's words
(``fieldops/services/validate.py``). This is the net under them: one
``before_flush`` listener, on every ORM session, that looks at every column of
every new or changed row and refuses the flush with a ``ValidationError``
naming the attribute when a value

- is text holding a NUL (PostgreSQL refuses it; a PDF drops it) or a lone
  surrogate (it cannot be encoded as UTF-8 at all), or is longer than its
  ``String(n)`` column (PostgreSQL refuses it; SQLite would keep it silently);
- is a naive instant, or one outside ``EARLIEST``..``LATEST``;
- is a date that is not a ``date`` (text, or a ``datetime``);
- is money that is not a finite ``Decimal`` whose cents fit the column.

The limits are read from the model's column types, never copied. Rows written
with Core ``insert()`` (the audit chain) do not pass through a flush; what they
hold comes from values already checked here or by the services.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Date, String, event, inspect
from sqlalchemy.orm import Session, UOWTransaction

from fieldops.db.types import Money, UTCDateTime
from fieldops.errors import ValidationError

# The range of instants and dates a record may carry. Nothing the unit records
# happened before 1900 (no animal, licence or council resolution is that old),
# and nothing is planned past 2200; outside it a value is a typing slip (year 1,
# 9999) that would overflow the rules' local-time arithmetic near the ends of
# Python's calendar.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
EARLIEST_DAY = EARLIEST.date()
LATEST_DAY = LATEST.date()

# Money is stored as integer cents in a BIGINT column (fieldops.db.types).
BIGINT_MAX = 2**63 - 1


def bad_character(text: str, *, multiline: bool = False) -> str | None:
    """What is wrong with a character of ``text`` for storage and print, or None.

    NUL and every other control character (a line break and a tab too, unless
    ``multiline``) and any lone surrogate are refused.
    """
    for ch in text:
        code = ord(ch)
        if code == 0:
            return "contains a NUL character"
        if 0xD800 <= code <= 0xDFFF:
            return "contains a broken character (a lone surrogate)"
        if code < 0x20 or 0x7F <= code <= 0x9F:
            if multiline and ch in "\n\r\t":
                continue
            return "contains a control character"
    return None


def _storage_problem(value: Any, column: Any) -> str | None:
    """What the database would refuse or mangle about one column's value, or None."""
    if value is None:
        return None
    kind = column.type
    if isinstance(kind, UTCDateTime):
        if not isinstance(value, datetime):
            return "must be a date and time"
        if value.tzinfo is None or value.utcoffset() is None:
            return "is a naive date and time (it needs a time zone)"
        if not EARLIEST <= value < LATEST:
            return "must be between 1900 and 2200"
    elif isinstance(kind, Money):
        if not isinstance(value, Decimal) or not value.is_finite():
            return "must be an amount of money"
        if abs(value) * 100 > BIGINT_MAX:
            return "is too large an amount"
    elif isinstance(kind, Date):
        if not isinstance(value, date) or isinstance(value, datetime):
            return "must be a date"
        if not EARLIEST_DAY <= value < LATEST_DAY:
            return "must be between 1900 and 2200"
    elif isinstance(kind, String) and isinstance(value, str):
        # Only NUL and surrogates here: what a multi-line column legitimately
        # holds is the services' business, what no column can hold is ours.
        for ch in value:
            if ch == "\x00":
                return "contains a NUL character"
            if "\ud800" <= ch <= "\udfff":
                return "contains a broken character (a lone surrogate)"
        length = getattr(kind, "length", None)
        if length is not None and len(value) > length:
            return f"is too long (at most {length} characters)"
    return None


def check_row(obj: Any) -> dict[str, str]:
    """Every column of a pending row that cannot be stored, as {attribute: problem}."""
    state = inspect(obj)
    problems: dict[str, str] = {}
    for attr in state.mapper.column_attrs:
        if attr.key not in state.dict:
            continue  # never set: the column's default applies
        if state.persistent and not state.attrs[attr.key].history.has_changes():
            continue  # as stored: only what this unit of work changes is checked
        for column in attr.columns:
            problem = _storage_problem(state.dict[attr.key], column)
            if problem is not None:
                problems.setdefault(attr.key, f"{attr.key.replace('_', ' ')} {problem}.")
    return problems


def check_flush(session: Session, _flush: UOWTransaction, _instances: object) -> None:
    """Refuse the flush when any new or changed row holds a value the database cannot take."""
    problems: dict[str, str] = {}
    for obj in (*session.new, *session.dirty):
        for key, message in check_row(obj).items():
            problems.setdefault(key, message)
    if problems:
        raise ValidationError(problems)


def check_event_text(reason: str, data: str) -> None:
    """The audit chain is written with Core ``insert()``, past the flush: its free text (a
    reason) and its JSON data get the same check here (JSON escapes NUL; a lone surrogate
    it keeps, and no encoder takes it)."""
    problem = bad_character(reason, multiline=True) if isinstance(reason, str) else "is not text"
    if problem is not None:
        raise ValidationError({"reason": f"The reason {problem}."})
    try:
        data.encode("utf-8")
    except UnicodeEncodeError:
        message = "The record contains a broken character (a lone surrogate)."
        raise ValidationError({"data": message}) from None


def install() -> None:
    """Put the net under every ORM session of this process (idempotent)."""
    if not event.contains(Session, "before_flush", check_flush):
        event.listen(Session, "before_flush", check_flush)
