"""The officer's day (issue 16): my open calls, calls not yet dispatched, my follow-ups
due and the other modules' due items, in one printable list."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from calls_support import call_input
from pypdf import PdfReader

from fieldops.reports.calls_day import officer_day_pdf
from fieldops.services.calls.day import officer_day
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.records import create_call


def test_the_officers_day_lists_mine_waiting_follow_ups_and_the_rest(
    db, officer, supervisor, owner, rex, impound, profile
):
    today = datetime.now(profile.timezone).date()
    mine = create_call(db, officer, call_input("1 Oak Ave", owner.id))
    mine = dispatch(db, officer, mine.id, mine.version, officer.username)
    theirs = create_call(db, officer, call_input("2 Oak Ave", owner.id))
    dispatch(db, officer, theirs.id, theirs.version, supervisor.username)
    waiting = create_call(db, officer, call_input("3 Oak Ave", owner.id, kind="bite", priority=1))
    done = create_call(db, officer, call_input("4 Oak Ave", owner.id))
    done = dispatch(db, officer, done.id, done.version, officer.username)
    d = done.dispatches[0]
    update_dispatch(
        db,
        officer,
        d.id,
        d.version,
        DispatchUpdate(d.sent_at, d.sent_at + timedelta(minutes=5), "warned", today),
    )
    impound(rex.id, datetime.now(UTC) - timedelta(days=profile.hold_days + 3))  # hold over
    day = officer_day(db, officer.username, today, profile)
    assert [x.record_id for x in day.mine] == [mine.id]
    assert [x.record_id for x in day.not_dispatched] == [waiting.id]
    assert [x.record_id for x in day.follow_ups] == [done.id]
    # The pound's hold over names no officer: the counter's work, not on an officer's day.
    assert "impound" not in {x.module for x in day.others}
    pdf = officer_day_pdf(
        day,
        officer_name="Olly Officer",
        jurisdiction="City",
        tz=profile.timezone,
        printed_at=datetime.now(UTC),
    )
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Officer's day" in text and "1 Oak Ave" in text and "3 Oak Ave" in text
    assert "2 Oak Ave" not in text
