"""The officer's day: open calls assigned to the officer, calls not yet dispatched,
follow-ups due, and what the other modules have due that is the officer's own work (exams,
notices, citations), in one list.

An item of another module is the officer's when its ``officer`` (the officer the record
names: a login on a call, a name on a bite report, a declaration or a citation) is the
officer's login or account name, letter case and spacing aside. An item naming no officer
(an impoundment's hold, a licence, a permit) is the counter's work: it is on the Today
page, not on an officer's day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import FieldCall, StaffUser
from fieldops.modules import due_items
from fieldops.rules import Profile
from fieldops.rules import calls as rules


@dataclass(frozen=True)
class DayLine:
    """One line of the officer's day; ``module``/``kind``/``record_id`` open its record."""

    module: str
    kind: str
    record_id: int
    when: date | datetime
    text: str
    overdue: bool = False


@dataclass(frozen=True)
class OfficerDay:
    officer: str
    day: date
    mine: tuple[DayLine, ...]  # dispatched to the officer, no outcome yet
    not_dispatched: tuple[DayLine, ...]
    follow_ups: tuple[DayLine, ...]  # the officer's calls whose follow-up is due
    others: tuple[DayLine, ...]  # the other modules' due items naming the officer (and citations)


def _line(c: FieldCall, when: date | datetime, text: str, overdue: bool = False) -> DayLine:
    return DayLine("call", "call", c.id, when, text, overdue)


def _what(c: FieldCall) -> str:
    return f"#{c.id} {rules.kind_label(c.kind)} at {c.address} ({rules.PRIORITIES[c.priority]})"


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def officer_day(db: Database, officer: str, day: date, profile: Profile) -> OfficerDay:
    """The day of the officer whose login is ``officer``."""
    with db.read() as s:
        open_calls = s.scalars(
            select(FieldCall)
            .where(FieldCall.status != "closed")
            .order_by(FieldCall.priority, FieldCall.received_at, FieldCall.id)
        ).all()
        follow = s.scalars(
            select(FieldCall)
            .where(
                FieldCall.officer == officer,
                FieldCall.status == "closed",
                # Still to do (``followups.follow_up_pending``), on its index (0027).
                FieldCall.follow_up_due_on <= day,
            )
            .order_by(FieldCall.follow_up_on, FieldCall.id)
        ).all()
        mine = tuple(
            _line(c, c.received_at, _what(c))
            for c in open_calls
            if c.status == "dispatched" and c.officer == officer
        )
        waiting = tuple(
            _line(c, c.received_at, _what(c), c.priority < 3)
            for c in open_calls
            if c.status == "open"
        )
        follow_ups = tuple(
            _line(c, c.follow_up_on or day, f"{_what(c)}: follow-up", (c.follow_up_on or day) < day)
            for c in follow
        )
        full_name = s.scalar(select(StaffUser.full_name).where(StaffUser.username == officer))
    names = {_name_key(n) for n in (officer, full_name or "")} - {""}
    skip = {"call.not_dispatched", "call.no_outcome", "call.follow_up_due"}
    others = tuple(
        DayLine(i.module, i.kind, i.record_id, i.due, f"{i.category_label}: {i.text}", i.overdue)
        for i in due_items(db, day, profile)
        if i.category not in skip and _name_key(i.officer) in names
    )
    return OfficerDay(officer, day, mine, waiting, follow_ups, others)
