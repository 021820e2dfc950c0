"""The calls list (issue 16): open first by priority and age, and its filters in SQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from calls_support import call_input

from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.flags import set_flag
from fieldops.services.calls.listing import CallFilter, calls_page, count_calls
from fieldops.services.calls.records import create_call


def _ids(db, **kw):
    at = datetime.now(UTC)
    f = CallFilter(**kw)
    rows = calls_page(db, f, 0, 50, at).rows
    assert count_calls(db, f, at) == len(rows)
    return [r.id for r in rows]


def test_open_calls_first_by_priority_then_age_and_the_filters(db, officer, supervisor, owner):
    old = datetime.now(UTC) - timedelta(days=10)
    routine = create_call(db, officer, call_input("1 Oak Ave", priority=3, received_at=old))
    urgent = create_call(db, officer, call_input("2 Oak Ave", priority=2))
    emergency = create_call(db, officer, call_input("3 Oak Ave", priority=1, kind="bite"))
    closed = create_call(db, officer, call_input("4 Oak Ave", priority=1))
    v = dispatch(db, officer, closed.id, closed.version, officer.username)
    d = v.dispatches[0]
    today = datetime.now(UTC).date()
    update_dispatch(
        db,
        officer,
        d.id,
        d.version,
        DispatchUpdate(d.sent_at, d.sent_at + timedelta(minutes=5), "warned", today),
    )
    mine = dispatch(db, officer, urgent.id, urgent.version, officer.username)
    assert _ids(db, show="all") == [emergency.id, mine.id, routine.id, closed.id]
    assert _ids(db, show="open") == [emergency.id, mine.id, routine.id]
    assert _ids(db, show="mine", officer=officer.username) == [mine.id]
    assert _ids(db, show="mine", officer=supervisor.username) == []
    assert _ids(db, show="not_dispatched") == [emergency.id, routine.id]
    assert _ids(db, show="follow_up") == [closed.id]
    assert _ids(db, show="all", kind="bite") == [emergency.id]
    assert _ids(db, show="all", period="7") == [emergency.id, mine.id, closed.id]
    assert _ids(db, show="all", text="2 oak") == [mine.id]
    assert _ids(db, show="all", text=str(routine.id)) == [routine.id]
    set_flag(db, supervisor, reason="Dog attacked", address="3 Oak Ave")
    flagged = {
        r.id: r.flagged
        for r in calls_page(db, CallFilter(show="all"), 0, 9, datetime.now(UTC)).rows
    }
    assert flagged[emergency.id] and not flagged[routine.id]


def test_awaiting_follow_up_agrees_with_today(db, officer, owner, profile):
    from calls_support import closed_with_follow_up

    from fieldops.services.calls.followups import record_follow_up
    from fieldops.services.calls.module import due_items
    from fieldops.services.calls.records import open_recheck

    today = datetime.now(profile.timezone).date()
    done = closed_with_follow_up(db, officer, today, owner_id=owner.id)
    rechecked = closed_with_follow_up(db, officer, today, owner_id=owner.id)
    waiting = closed_with_follow_up(db, officer, today, owner_id=owner.id)
    record_follow_up(
        db,
        officer,
        done.id,
        done.version,
        done_at=datetime.now(UTC),
        done_by=officer.username,
        note="Quiet now",
    )
    recheck = open_recheck(db, officer, rechecked.id)
    on_today = {i.record_id for i in due_items(db, today, profile) if "follow_up" in i.category}
    assert on_today == {waiting.id}
    assert _ids(db, show="follow_up") == [waiting.id]
    assert recheck.id not in _ids(db, show="follow_up")
