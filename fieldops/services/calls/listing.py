"""The calls list: open calls first, by priority and age; filtered and searched in SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, case, exists, false, func, or_, select

from fieldops.db.cancel import cancellable
from fieldops.db.engine import Database
from fieldops.db.models import CallParty, CautionFlag, FieldCall
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.views import CallRow
from fieldops.services.listing import Page, fts_ids

SHOW = {
    "open": "Open (not dispatched or no outcome)",
    "mine": "Assigned to me, open",
    "not_dispatched": "Not yet dispatched",
    "follow_up": "Awaiting follow-up",
    "all": "All calls",
    "closed": "Closed",
}
PERIODS = {"": "Any time", "1": "Last 24 hours", "7": "Last 7 days", "30": "Last 30 days"}


@dataclass(frozen=True)
class CallFilter:
    show: str = "open"
    kind: str = ""  # "" for every kind
    period: str = ""  # days back, "" for any time
    text: str = ""
    officer: str = ""  # the login "mine" means


def _where(db: Database, f: CallFilter, at: datetime) -> list[ColumnElement[Any]]:
    c: list[ColumnElement[Any]] = []
    st = FieldCall.status
    if f.show == "open":
        # The two open states by name, not "not closed": an index range for each, where
        # "!=" walked the whole status index (500,000 calls for a few hundred open).
        c.append(st.in_(("open", "dispatched")))
    elif f.show == "mine":
        c += [st == "dispatched", FieldCall.officer == f.officer]
    elif f.show == "not_dispatched":
        c.append(st == "open")
    elif f.show == "follow_up":
        rechecked = select(FieldCall.recheck_of_id).where(FieldCall.recheck_of_id.is_not(None))
        c += [
            FieldCall.follow_up_on.is_not(None),
            FieldCall.follow_up_on <= at.date() + timedelta(days=7),
            FieldCall.id.not_in(rechecked),
        ]
    elif f.show == "closed":
        c.append(st == "closed")
    if f.kind in rules.CALL_KINDS:
        c.append(FieldCall.kind == f.kind)
    if f.period in PERIODS and f.period:
        c.append(FieldCall.received_at >= at - timedelta(days=int(f.period)))
    text_ = v.searchable(f.text).strip()
    number = v.case_number(text_)
    if number is not None:
        c.append(FieldCall.id == number)
    elif text_:
        # Every word as the start of a word of the call's text, on its index (migration 0024).
        ids = fts_ids(db, "field_call", text_)
        c.append(FieldCall.id.in_(ids) if ids is not None else false())
    return c


# Filters whose calls are all on one side of "open first": the side needs no sorting
# key of its own, and without it the status index walks the calls in their order.
ONE_SIDE = ("open", "mine", "not_dispatched", "closed")


def _order(f: CallFilter) -> list[Any]:
    """Open calls first, then by priority and age (the call number breaking ties)."""
    order: list[Any] = [FieldCall.priority, FieldCall.received_at, FieldCall.id]
    if f.show not in ONE_SIDE:
        order.insert(0, case((FieldCall.status == "closed", 1), else_=0))
    return order


def count_calls(db: Database, f: CallFilter, at: datetime) -> int:
    with db.read() as s, cancellable(s):
        return s.scalar(select(func.count()).select_from(FieldCall).where(*_where(db, f, at))) or 0


def calls_page(db: Database, f: CallFilter, offset: int, limit: int, at: datetime) -> Page[CallRow]:
    flagged = exists().where(
        CautionFlag.cleared_at.is_(None),
        or_(
            CautionFlag.address_key == FieldCall.address_key,
            CautionFlag.person_id == FieldCall.owner_id,
            CautionFlag.person_id == FieldCall.caller_id,
            CautionFlag.person_id.in_(
                select(CallParty.person_id).where(
                    CallParty.call_id == FieldCall.id, CallParty.person_id.is_not(None)
                )
            ),
        ),
    )
    with db.read() as s, cancellable(s):
        rows = s.execute(
            select(
                FieldCall.id,
                FieldCall.received_at,
                FieldCall.kind,
                FieldCall.priority,
                FieldCall.address,
                FieldCall.status,
                FieldCall.officer,
                FieldCall.outcome,
                FieldCall.follow_up_on,
                flagged.label("flagged"),
            )
            .where(*_where(db, f, at))
            .order_by(*_order(f))
            .offset(offset)
            .limit(limit)
        ).all()
    return Page(
        offset,
        tuple(
            CallRow(
                r.id,
                r.received_at,
                rules.kind_label(r.kind),
                r.priority,
                rules.PRIORITIES[r.priority],
                r.address,
                r.status,
                r.officer,
                rules.OUTCOMES.get(r.outcome or "", ""),
                r.follow_up_on,
                bool(r.flagged),
            )
            for r in rows
        ),
    )
