"""A dispatch's follow-up done: when, by whom, a note and, if one, an outcome.

A follow-up date (``DispatchUpdate.follow_up_on``) puts the call on Today and on
the officer's day until the follow-up is done here, or a recheck is opened from
the call (both remain). A follow-up done is written once and never changed
(append-only); a later follow-up date on the call is a new follow-up to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, Connection, and_, exists, or_, select
from sqlalchemy.orm import Session, aliased

from fieldops.db.engine import Database
from fieldops.db.models import CallDispatch, CallFollowUp, FieldCall
from fieldops.errors import Collector, UserError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.dispatching import _check_officer, _minute
from fieldops.services.calls.records import build_view, load
from fieldops.services.calls.views import CallView
from fieldops.services.context import Actor, audit, now

ENTITY = "field_call"


@dataclass(frozen=True)
class FollowUpView:
    id: int
    dispatch_id: int
    due_on: date
    done_at: datetime
    done_by: str
    note: str
    outcome: str | None
    outcome_label: str
    recorded_by: str


def follow_up_pending() -> ColumnElement[bool]:
    """SQL on ``FieldCall``: its follow-up is still to do (no recheck opened from the call,
    the follow-up of its date not recorded as done). Today and the officer's day ask it.

    The call's own copy of that answer (``follow_up_due_on``, kept by the triggers of
    migration 0027): asking it of each call with a past follow-up date read 41,000 calls
    followed up long ago at a city's 500,000 calls. ``follow_up_due_on <= day`` walks
    its index to the few still to do."""
    return FieldCall.follow_up_due_on.is_not(None)


def follow_up_pending_from_sources() -> ColumnElement[bool]:
    """``follow_up_pending`` asked of the rechecks and the follow-ups done themselves,
    what the triggers of migration 0027 copy onto the call (``stale_follow_ups``)."""
    recheck = aliased(FieldCall)
    rechecked = exists().where(recheck.recheck_of_id == FieldCall.id)
    done = exists().where(
        CallFollowUp.call_id == FieldCall.id, CallFollowUp.due_on == FieldCall.follow_up_on
    )
    return FieldCall.follow_up_on.is_not(None) & ~rechecked & ~done


def stale_follow_ups(conn: Connection) -> list[str]:
    """Calls whose copy of "follow-up still to do" differs from its sources (for
    ``fieldops check``): a trigger lost, or a row changed around them, and Today would
    leave a follow-up off, or keep one done."""
    pending = follow_up_pending_from_sources()
    wrong = or_(
        and_(pending, FieldCall.follow_up_due_on.is_(None)),
        and_(~pending, FieldCall.follow_up_due_on.is_not(None)),
        FieldCall.follow_up_due_on != FieldCall.follow_up_on,
    )
    ids = conn.execute(select(FieldCall.id).where(wrong).order_by(FieldCall.id)).scalars().all()
    if not ids:
        return []
    return [
        f"{len(ids)} call(s) show a follow-up to do that their rechecks and follow-ups "
        "done do not support: " + ", ".join(f"#{i}" for i in ids[:10])
    ]


def _view(f: CallFollowUp) -> FollowUpView:
    return FollowUpView(
        f.id,
        f.dispatch_id,
        f.due_on,
        f.done_at,
        f.done_by,
        f.note,
        f.outcome,
        rules.OUTCOMES.get(f.outcome or "", ""),
        f.recorded_by,
    )


def follow_ups_of(s: Session, call_id: int) -> tuple[FollowUpView, ...]:
    return tuple(
        _view(f)
        for f in s.scalars(
            select(CallFollowUp)
            .where(CallFollowUp.call_id == call_id)
            .order_by(CallFollowUp.done_at, CallFollowUp.id)
        )
    )


def _last_dispatch(s: Session, call_id: int) -> CallDispatch | None:
    return s.scalar(
        select(CallDispatch)
        .where(CallDispatch.call_id == call_id)
        .order_by(CallDispatch.sent_at.desc(), CallDispatch.id.desc())
        .limit(1)
    )


@requires(Permission.CALLS)
def record_follow_up(
    db: Database,
    actor: Actor,
    call_id: int,
    version: int,
    *,
    done_at: datetime | None,
    done_by: str,
    note: str,
    outcome: str | None = None,
) -> CallView:
    """The call's follow-up done: it leaves Today and the officer's day."""
    at = now()
    c = Collector()
    if done_at is None:
        c.add("done_at", "When the follow-up was done is required.")
    elif v.instant(c, "done_at", done_at, "When the follow-up was done") and done_at > (
        at + timedelta(minutes=5)
    ):
        c.add("done_at", "A follow-up cannot be done in the future.")
    v.required(c, "note", (note or "").strip(), "A note of what was found", 4000)
    if outcome is not None and outcome not in rules.OUTCOMES:
        c.add("outcome", "Choose an outcome from the list, or none.")
    with db.write() as s:
        call = load(s, call_id, lock=True, version=version)
        d = _last_dispatch(s, call.id)
        if d is None or call.follow_up_on is None or d.follow_up_on != call.follow_up_on:
            raise ValidationError({"done_at": f"Call #{call.id} has no follow-up to record."})
        done = s.scalar(
            select(CallFollowUp).where(
                CallFollowUp.dispatch_id == d.id, CallFollowUp.due_on == call.follow_up_on
            )
        )
        if done is not None:
            raise UserError(
                f"The follow-up of call #{call.id} was already recorded as done by "
                f"{done.done_by}: reopen the call to see it."
            )
        _check_officer(s, c, (done_by or "").strip())
        if (
            done_at is not None
            and v.instant(Collector(), "done_at", done_at, "")
            and done_at < _minute(d.sent_at)
        ):
            c.add("done_at", "The follow-up cannot be done before the officer was sent.")
        c.raise_if_any()
        assert done_at is not None
        row = CallFollowUp(
            call_id=call.id,
            dispatch_id=d.id,
            due_on=call.follow_up_on,
            done_at=done_at,
            done_by=done_by.strip(),
            note=note.strip(),
            outcome=outcome,
            recorded_at=at,
            recorded_by=actor.username,
        )
        s.add(row)
        s.flush()
        audit(
            s,
            actor,
            "follow_up_done",
            ENTITY,
            call.id,
            after={
                "follow_up": row.id,
                "dispatch_id": d.id,
                "due_on": row.due_on.isoformat(),
                "done_at": row.done_at.isoformat(),
                "done_by": row.done_by,
                "note": row.note,
                "outcome": row.outcome,
            },
        )
        return build_view(s, call)
