"""Field checks shared by the services' input validation."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import KeyedColumnElement

from fieldops.db.flush_net import EARLIEST, EARLIEST_DAY, LATEST, LATEST_DAY, bad_character
from fieldops.errors import Collector

T = TypeVar("T")

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
POSTAL = re.compile(r"^\d{5}(-\d{4})?$")
MICROCHIP = re.compile(r"^[0-9A-Za-z]{9,15}$")


def clean(text: str | None) -> str:
    return " ".join((text or "").split())


# A form label that is not a noun ("Transferred to:") makes no sentence of
# "... is required": these say what to do, and what the field is, in words.
_SENTENCES = {
    "Transferred to": (
        "Say where the animal was transferred to.",
        "The place the animal was transferred to",
    ),
}


def _missing(label: str) -> str:
    return _SENTENCES.get(label, (f"{label} is required.", ""))[0]


def _noun(label: str) -> str:
    return _SENTENCES.get(label, ("", ""))[1] or label


# A field's limit: its model column (``Person.__table__.c.full_name``), whose
# ``String(n)`` length is the limit and which holds one line; or, for a ``Text``
# column (notes, injuries), the number of characters a form accepts, with line
# breaks and tabs allowed. A ``String`` column's length is never copied here.
Limit = int | KeyedColumnElement[Any]


def column_length(column: KeyedColumnElement[Any]) -> int:
    """The ``String(n)`` length of a model column (a Text column has none: a bug here)."""
    length = getattr(column.type, "length", None)
    if not isinstance(length, int):
        raise TypeError(f"column {column.key} has no length; give the form's limit instead")
    return length


def _limit(limit: Limit) -> tuple[int, bool]:
    """(most characters, whether line breaks are allowed)."""
    if isinstance(limit, int):
        return limit, True
    return column_length(limit), False


def storable(value: object, column: KeyedColumnElement[Any]) -> bool:
    """Whether a value could be in the column at all (for a lookup: none can match if not)."""
    return (
        isinstance(value, str)
        and bad_character(value) is None
        and len(value) <= column_length(column)
    )


def text(c: Collector, field: str, value: object, label: str, limit: Limit) -> bool:
    """Check a text field's type, characters and length; True when it may be stored."""
    if not isinstance(value, str):
        c.add(field, f"{_noun(label)} must be text.")
        return False
    most, multiline = _limit(limit)
    problem = bad_character(value, multiline=multiline)
    if problem is not None:
        c.add(field, f"{_noun(label)} {problem}; retype it without that character.")
        return False
    if len(value) > most:
        c.add(field, f"{_noun(label)} is too long (at most {most} characters).")
        return False
    return True


def one_line(field: str, value: object, label: str, column: KeyedColumnElement[Any]) -> str:
    """A one-line field on its own, cleaned; a ValidationError naming it if it cannot be stored."""
    c = Collector()
    cleaned = clean(value) if isinstance(value, str) else value
    text(c, field, cleaned, label, column)
    c.raise_if_any()
    assert isinstance(cleaned, str)  # text() refused anything else
    return cleaned


def required(c: Collector, field: str, value: str, label: str, max_len: Limit) -> None:
    if not value:
        c.add(field, _missing(label))
    else:
        text(c, field, value, label, max_len)


def optional_len(c: Collector, field: str, value: str, label: str, max_len: Limit) -> None:
    text(c, field, value, label, max_len)


# The largest amount of money any field takes. No fee, boarding bill or payment
# at a city pound comes near a million dollars; a larger figure is a slip (a
# pasted number, a held-down key), and refusing it here keeps every sum of
# amounts far inside the cents column (BIGINT: about $92 quadrillion).
MONEY_CAP = Decimal("1000000.00")
CENT = Decimal("0.01")


def money(c: Collector, field: str, value: object, label: str = "Amount") -> Decimal | None:
    """An amount of dollars and cents, 0 to ``MONEY_CAP``, from a Decimal, int or text.

    A float is refused (it is not exact); text may carry a leading "$" and
    thousands commas. Returns the amount to the cent, or None after adding the error.
    """
    amount: Decimal | None = None
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, int) and not isinstance(value, bool):
        amount = Decimal(value)
    elif isinstance(value, str) and bad_character(value) is None:
        try:
            amount = Decimal(value.strip().lstrip("$").replace(",", ""))
        except (InvalidOperation, ValueError):
            amount = None
    if amount is None or amount.is_nan():
        c.add(field, "Enter an amount in dollars and cents, e.g. 40.00.")
        return None
    if not amount.is_finite() or not 0 <= amount <= MONEY_CAP:
        c.add(field, f"Enter an amount from 0.00 to {MONEY_CAP:,}, e.g. 40.00.")
        return None
    if amount != amount.quantize(CENT):
        c.add(field, "Enter an amount to the cent (at most two decimal places), e.g. 40.00.")
        return None
    return amount.quantize(CENT)


def instant(c: Collector, field: str, value: object, label: str) -> bool:
    """A date and time that may be stored: aware, 1900 to 2200. True when it is."""
    if value is None:
        return True
    if not isinstance(value, datetime):
        c.add(field, f"{_noun(label)} must be a date and time.")
    elif value.tzinfo is None or value.utcoffset() is None:
        c.add(field, f"{_noun(label)} must say its time zone.")
    elif not EARLIEST <= value < LATEST:
        c.add(field, f"{_noun(label)} must be between 1900 and 2199.")
    elif _imaginary(value):
        c.add(
            field,
            f"{_noun(label)} is a time the clocks skipped (daylight saving began): "
            "give the time as the clock showed it.",
        )
    else:
        return True
    return False


def _imaginary(value: datetime) -> bool:
    """A wall time that does not exist in its zone (2:30 on the morning clocks go forward):
    stored, it would read back an hour later."""
    back = value.astimezone(UTC).astimezone(value.tzinfo)
    return back.replace(tzinfo=None, fold=0) != value.replace(tzinfo=None, fold=0)


def day(c: Collector, field: str, value: object, label: str) -> bool:
    """A calendar date (a ``date``, not text and not a ``datetime``), 1900 to 2199."""
    if value is None:
        return True
    if not isinstance(value, date) or isinstance(value, datetime):
        c.add(field, f"{_noun(label)} must be a date.")
    elif not EARLIEST_DAY <= value < LATEST_DAY:
        c.add(field, f"{_noun(label)} must be between 1900 and 2199.")
    else:
        return True
    return False


_LARGEST_ID = 2**31 - 1  # ids are INTEGER columns; a larger one is none, not an overflow


def searchable(text: str) -> str:
    """What was typed into a search box, without the characters no column holds (a NUL
    would make PostgreSQL refuse the whole query; it can match nothing anyway)."""
    return "".join(ch for ch in (text or "") if bad_character(ch) is None)


def case_number(text: str) -> int | None:
    """A search that is a record number alone ("1042"), or None (also for one no id reaches)."""
    if not (text.isascii() and text.isdecimal()):
        return None
    number = int(text)
    return number if 0 < number <= _LARGEST_ID else None


def row_id_fits(row_id: object) -> bool:
    """Whether an id is one an INTEGER id column can hold (a whole number 1 to 2**31-1)."""
    return isinstance(row_id, int) and not isinstance(row_id, bool) and 0 < row_id <= _LARGEST_ID


def row(s: Session, model: type[T], row_id: object) -> T | None:
    """The row with this id, or None: also for an id no INTEGER column holds (not an error)."""
    if not row_id_fits(row_id):
        return None
    return s.get(model, row_id)


def exists(
    c: Collector, s: Session, model: type[Any], row_id: object, field: str, label: str
) -> bool:
    """An id given for ``field`` names a row of ``model`` in this unit of work."""
    if row_id is None:
        return True
    if row(s, model, row_id) is None:
        c.add(field, f"{_noun(label)} is not on file (it may have been removed); choose again.")
        return False
    return True


def phone(c: Collector, field: str, value: str) -> None:
    if not value:
        return
    digits = sum(ch.isdigit() for ch in value)
    if re.search(r"[^\d\s().+\-x]", value) or not 7 <= digits <= 15:
        c.add(field, "Phone must be a number of 7 to 15 digits, e.g. 608-555-0142.")


def email(c: Collector, field: str, value: str) -> None:
    if value and not EMAIL.match(value):
        c.add(field, "E-mail must look like name@example.org.")


def postal_code(c: Collector, field: str, value: str) -> None:
    if value and not POSTAL.match(value):
        c.add(field, "ZIP code must be 5 digits, or ZIP+4 like 53703-1234.")


def not_future(c: Collector, field: str, value: date | None, label: str, today: date) -> None:
    if value is not None and value > today:
        c.add(field, f"{label} cannot be in the future.")
