"""The field calls module on the seam: due items, checks, demo data, history words."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import Connection, Date, Select, bindparam, select, text
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallCitation, CallDispatch, FieldCall, Person
from fieldops.later import LaterMapping, later_call
from fieldops.modules import ActivitySection, Demo, DueItem, Incident, Module
from fieldops.rules import Profile, format_day_short
from fieldops.rules import calls as rules
from fieldops.services.calls.reports import REPORTS as CALL_REPORTS

KEY = "call"

CATEGORIES = {
    f"{KEY}.not_dispatched": "Call not yet dispatched",
    f"{KEY}.no_outcome": "Call dispatched, no outcome recorded",
    f"{KEY}.follow_up_due": "Call follow-up due",
    f"{KEY}.citation_unpaid": "Citation unpaid past its court date",
}


RANK = {code: n for n, code in enumerate(CATEGORIES)}
_make = DueItem.maker()


def _item(
    cat: str,
    kind: str,
    rid: int,
    due: date | datetime,
    text_: str,
    overdue: bool,
    *rank: object,
    officer: str = "",
) -> DueItem:
    code = f"{KEY}.{cat}"
    return _make(
        module=KEY,
        kind=kind,
        record_id=rid,
        due=due,
        category=code,
        category_label=CATEGORIES[code],
        text=text_,
        overdue=overdue,
        sort_key=(RANK[code], *rank, rid),
        officer=officer,
    )


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """Calls waiting for an officer or an outcome, follow-ups due, citations unpaid."""
    start = datetime.combine(day, time(0), profile.timezone).astimezone(UTC)
    items: list[DueItem] = []
    with db.read() as s:
        conn = s.connection()  # Core rows: the statements name columns only
        # Unpacked, not read by name (a row's attribute: a hundred times a column unpacked).
        calls = conn.execute(_calls_statement(), {"day": day})
        for cid, kind, address, status, priority, received_at, officer, follow_up_on in calls:
            what = f"#{cid} {rules.kind_label(kind)} at {address}"
            if status == "open":
                items.append(
                    _item(
                        "not_dispatched",
                        "call",
                        cid,
                        received_at,
                        f"{what} ({rules.PRIORITIES[priority].lower()}): no officer sent",
                        priority < 3 or received_at < start,
                        priority,
                    )
                )
            elif status == "dispatched":
                items.append(
                    _item(
                        "no_outcome",
                        "call",
                        cid,
                        received_at,
                        f"{what}: {officer} sent, no outcome recorded",
                        received_at < start,
                        priority,
                        officer=officer,
                    )
                )
            if follow_up_on is not None and follow_up_on <= day and status == "closed":
                items.append(
                    _item(
                        "follow_up_due",
                        "call",
                        cid,
                        follow_up_on,
                        f"{what}: follow-up due {format_day_short(follow_up_on, day)}",
                        follow_up_on < day,
                        follow_up_on,
                        officer=officer,
                    )
                )
        unpaid = conn.execute(_citations_statement(), {"day": day})
        for cit_id, section, forfeiture, court_on, issued_by, full_name in unpaid:
            court = court_on or day  # the query asked for a court date
            items.append(
                _item(
                    "citation_unpaid",
                    "citation",
                    cit_id,
                    court,
                    f"Citation #{cit_id}, {full_name}, {section}: "
                    f"${forfeiture} unpaid, court date {format_day_short(court, day)}",
                    True,
                    court,
                    officer=issued_by,
                )
            )
    return tuple(sorted(items, key=lambda i: i.sort_key))


@cache
def _calls_statement() -> Select[*tuple[Any, ...]]:
    """Calls waiting for an officer or an outcome, and calls whose follow-up is due by
    ``day`` (a parameter): the columns the items are worded from, not each call as an
    ORM object. Built once, as the citations' statement."""
    return (
        select(
            FieldCall.id,
            FieldCall.kind,
            FieldCall.address,
            FieldCall.status,
            FieldCall.priority,
            FieldCall.received_at,
            FieldCall.officer,
            FieldCall.follow_up_on,
        )
        .where(
            FieldCall.status.in_(("open", "dispatched"))
            # The follow-ups still to do (``followups.follow_up_pending``), on their
            # index: never the calls followed up long ago (migration 0027).
            | (FieldCall.follow_up_due_on <= bindparam("day", type_=Date()))
        )
        .order_by(FieldCall.priority, FieldCall.received_at, FieldCall.id)
    )


@cache
def _citations_statement() -> Select[*tuple[Any, ...]]:
    """Citations with a forfeiture unpaid past their court date (before ``day``), with
    the cited person's name."""
    return (
        select(
            CallCitation.id,
            CallCitation.section,
            CallCitation.forfeiture,
            CallCitation.court_on,
            CallCitation.issued_by,
            Person.full_name,
        )
        .join(Person, Person.id == CallCitation.person_id)
        .where(
            CallCitation.forfeiture.is_not(None),
            CallCitation.forfeiture > Decimal("0.00"),
            CallCitation.paid_on.is_(None),
            CallCitation.voided_at.is_(None),
            CallCitation.court_on < bindparam("day", type_=Date()),
        )
        .order_by(CallCitation.court_on, CallCitation.id)
    )


def checks(conn: Connection) -> list[str]:
    """Calls written past the services, and calls whose state is out of step."""
    from fieldops.services.calls.records import state_of

    out = []
    n = conn.execute(
        text(
            "SELECT count(*) FROM field_call t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'field_call' AND e.entity_id = t.id AND e.action = 'create_call')"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} call(s) have no audit trail of being received")
    stale = []
    with Session(bind=conn) as s:
        last: dict[int, CallDispatch] = {}  # each call's latest dispatch, in one pass
        for d in s.scalars(select(CallDispatch).order_by(CallDispatch.sent_at, CallDispatch.id)):
            last[d.call_id] = d
        for c in s.scalars(select(FieldCall)):
            want = state_of(last.get(c.id))
            if any(getattr(c, k) != val for k, val in want.items()):
                stale.append(c.id)
    if stale:
        out.append(
            f"{len(stale)} call(s) show a state their dispatches do not support: "
            + ", ".join(f"#{i}" for i in stale[:10])
        )
    from fieldops.services.calls.followups import stale_follow_ups  # the check, not Today

    out += stale_follow_ups(conn)
    return out


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    from fieldops.services.calls.places import places as call_places

    return call_places(session, person_ids, address)


def _activity(db: Database, start: date, end: date) -> Sequence[ActivitySection]:
    from fieldops.services.calls.activity import activity

    return activity(db, start, end)


def demo(d: Demo) -> str:
    from fieldops.services.calls.demo import fill

    n = fill(d)
    return f"{n} calls" if n else ""


MODULE = Module(
    KEY,
    "Field calls",
    due_items=due_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    append_only=("call_petition", "call_follow_up", "call_link"),
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    event_kinds=LaterMapping("fieldops.services.calls.history_words:EVENT_KINDS"),
    places=places,
    activity=_activity,  # the activity summary's calls sections (services/calls/activity.py)
    reports=CALL_REPORTS,  # the call log and the citations register (services/calls/reports.py)
    # officers' caution flags, for every module's records
    cautions=later_call("fieldops.services.calls.flags:cautions"),
)
