"""Sending an officer to a call, and recording arrival, clearance and the outcome."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallDispatch, FieldCall, Impoundment, StaffUser
from fieldops.errors import Collector, NotFoundError, StaleRecordError
from fieldops.permissions import Permission, permitted, requires
from fieldops.rules import Profile, local_date
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.records import build_view, load, sync_state
from fieldops.services.calls.views import CallView
from fieldops.services.context import Actor, audit, changed_only, now, require_row_id, snapshot

ENTITY = "call_dispatch"
FIELDS = (
    "officer",
    "sent_at",
    "arrived_at",
    "cleared_at",
    "outcome",
    "follow_up_on",
    "impoundment_id",
    "notes",
)


def _minute(t: datetime) -> datetime:
    """The minute of an instant: forms give the minute, so a time in the same minute as an
    earlier step (sent, arrived) is not before it."""
    return t.replace(second=0, microsecond=0)


def field_officers(db: Database) -> tuple[tuple[str, str], ...]:
    """(username, name) of every active account that may be sent to a call."""
    with db.read() as s:
        rows = s.execute(
            select(StaffUser.username, StaffUser.full_name, StaffUser.role)
            .where(StaffUser.active.is_(True))
            .order_by(StaffUser.full_name, StaffUser.username)
        ).all()
    return tuple((u, n or u) for u, n, r in rows if permitted(r, Permission.CALLS))


def _check_officer(s: Session, c: Collector, officer: str) -> None:
    row = s.execute(
        select(StaffUser.role, StaffUser.active).where(StaffUser.username == officer)
    ).first()
    if row is None or not row[1] or not permitted(row[0], Permission.CALLS):
        c.add("officer", "Choose an officer from the staff (an active field account).")


@requires(Permission.CALLS)
def dispatch(
    db: Database,
    actor: Actor,
    call_id: int,
    version: int,
    officer: str,
    sent_at: datetime | None = None,
) -> CallView:
    """Send ``officer`` (a staff login) to the call."""
    at = now()
    sent = sent_at or at
    c = Collector()
    if v.instant(c, "sent_at", sent, "When the officer was sent") and sent > at + timedelta(
        minutes=5
    ):
        c.add("sent_at", "An officer cannot be sent in the future.")
    with db.write() as s:
        call = load(s, call_id, lock=True, version=version)
        _check_officer(s, c, (officer or "").strip())
        if v.instant(Collector(), "sent_at", sent, "") and sent < _minute(call.received_at):
            c.add("sent_at", "The officer cannot be sent before the call came in.")
        c.raise_if_any()
        d = CallDispatch(
            call_id=call.id, officer=officer.strip(), sent_at=sent, recorded_by=actor.username
        )
        s.add(d)
        s.flush()
        audit(s, actor, "dispatch", ENTITY, d.id, after={"call_id": call.id, **snapshot(d, FIELDS)})
        sync_state(s, call)
        s.flush()
        return build_view(s, call)


@dataclass(frozen=True)
class DispatchUpdate:
    arrived_at: datetime | None = None
    cleared_at: datetime | None = None
    outcome: str | None = None
    follow_up_on: date | None = None
    impoundment_id: int | None = None
    notes: str = ""


def _validate(
    c: Collector, d: CallDispatch, u: DispatchUpdate, at: datetime, profile: Profile
) -> None:
    late = at + timedelta(minutes=5)
    ok_arr = v.instant(c, "arrived_at", u.arrived_at, "Arrival")
    ok_clr = v.instant(c, "cleared_at", u.cleared_at, "Clearance")
    if ok_arr and u.arrived_at is not None:
        if u.arrived_at > late:
            c.add("arrived_at", "Arrival cannot be in the future.")
        elif u.arrived_at < _minute(d.sent_at):
            c.add("arrived_at", "Arrival cannot be before the officer was sent.")
    if ok_clr and u.cleared_at is not None:
        if u.cleared_at > late:
            c.add("cleared_at", "Clearance cannot be in the future.")
        elif u.cleared_at < _minute(u.arrived_at if ok_arr and u.arrived_at else d.sent_at):
            c.add("cleared_at", "Clearance cannot be before arrival.")
    if u.outcome is not None and u.outcome not in rules.OUTCOMES:
        c.add("outcome", "Choose an outcome from the list.")
    if u.outcome is not None and u.cleared_at is None:
        c.add("cleared_at", "Record when the officer cleared the call with its outcome.")
    follow_ok = v.day(c, "follow_up_on", u.follow_up_on, "The follow-up date")
    # Both are the jurisdiction's days: in the evening the dispatch's UTC date is tomorrow.
    if follow_ok and u.follow_up_on and u.follow_up_on < local_date(d.sent_at, profile):
        c.add("follow_up_on", "The follow-up cannot be before the dispatch.")
    if u.impoundment_id is not None and u.outcome != "impounded":
        c.add("impoundment_id", "Only an 'Impounded' outcome links an impoundment.")
    v.optional_len(c, "notes", (u.notes or "").strip(), "Notes", 4000)


@requires(Permission.CALLS)
def update_dispatch(
    db: Database,
    actor: Actor,
    dispatch_id: int,
    version: int,
    u: DispatchUpdate,
    profile: Profile | None = None,
) -> CallView:
    """Record arrival, clearance, the outcome and a follow-up date on a dispatch.

    ``profile``: the jurisdiction whose days the follow-up date is (the default's if None)."""
    with db.write() as s:
        require_row_id(CallDispatch, dispatch_id)
        d = s.get(CallDispatch, dispatch_id, with_for_update=True)
        if d is None:
            raise NotFoundError(f"There is no dispatch #{dispatch_id}.")
        if d.version != version:
            raise StaleRecordError(
                f"Dispatch #{dispatch_id} was changed by someone else since it was opened: "
                "reopen the call to see the change."
            )
        c = Collector()
        _validate(c, d, u, now(), profile or Profile.default())
        if u.impoundment_id is not None and (
            not v.row_id_fits(u.impoundment_id) or s.get(Impoundment, u.impoundment_id) is None
        ):
            c.add("impoundment_id", f"There is no impoundment #{u.impoundment_id}.")
        c.raise_if_any()
        before = snapshot(d, FIELDS)
        d.arrived_at = u.arrived_at
        d.cleared_at = u.cleared_at
        d.outcome = u.outcome
        d.follow_up_on = u.follow_up_on
        d.impoundment_id = u.impoundment_id
        d.notes = (u.notes or "").strip()
        was, became = changed_only(before, snapshot(d, FIELDS))
        call = s.get(FieldCall, d.call_id)
        assert call is not None  # a foreign key
        if became:
            s.flush()
            audit(
                s,
                actor,
                "update_dispatch",
                ENTITY,
                d.id,
                before=was,
                after={"call_id": call.id, **became},
            )
            sync_state(s, call)
            s.flush()
        return build_view(s, call)


@requires(Permission.CALLS)
def link_impoundment(
    db: Database,
    actor: Actor,
    dispatch_id: int,
    version: int,
    impoundment_id: int,
    profile: Profile | None = None,
) -> CallView:
    """The intake opened from an "Impounded" outcome, linked back to its dispatch."""
    with db.read() as s:
        d = s.get(CallDispatch, dispatch_id) if v.row_id_fits(dispatch_id) else None
        if d is None:
            raise NotFoundError(f"There is no dispatch #{dispatch_id}.")
        u = DispatchUpdate(
            d.arrived_at,
            d.cleared_at or max(now(), d.arrived_at or d.sent_at),
            "impounded",
            d.follow_up_on,
            impoundment_id,
            d.notes,
        )
    return update_dispatch(db, actor, dispatch_id, version, u, profile)
