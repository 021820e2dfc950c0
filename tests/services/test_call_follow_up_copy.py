"""A call's copy of "follow-up still to do" (``follow_up_due_on``, migration 0027): kept
right by the services and by writes around them, reported by ``fieldops check`` when it
is not, and what Today's follow-ups are read from. SQLite and PostgreSQL (``db``)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from calls_support import closed_with_follow_up
from sqlalchemy import select, text, update

from fieldops.db.models import FieldCall
from fieldops.modules import due_items
from fieldops.services.calls.day import officer_day
from fieldops.services.calls.followups import (
    follow_up_pending_from_sources,
    record_follow_up,
    stale_follow_ups,
)
from fieldops.services.calls.records import open_recheck


def _today(profile) -> date:
    """The follow-up day these tests use: tomorrow, local."""
    return datetime.now(profile.timezone).date() + timedelta(days=1)


def _call(db, officer, follow_up_on: date | None):
    return closed_with_follow_up(db, officer, follow_up_on)


def _copies(db) -> dict[int, tuple[date | None, bool]]:
    """Each call's copy, and the answer from the rechecks and follow-ups themselves."""
    with db.read() as s:
        rows = s.execute(
            select(FieldCall.id, FieldCall.follow_up_due_on, follow_up_pending_from_sources())
        ).all()
    return {i: (due_on, bool(pending)) for i, due_on, pending in rows}


def _consistent(db) -> bool:
    copies = _copies(db)
    with db.engine.connect() as conn:
        stale = stale_follow_ups(conn)
    with db.read() as s:
        follow = dict(s.execute(select(FieldCall.id, FieldCall.follow_up_on)).all())
    return stale == [] and all(
        due_on == (follow[i] if pending else None) for i, (due_on, pending) in copies.items()
    )


def _follow_ups_today(db, day, profile) -> set[int]:
    return {i.record_id for i in due_items(db, day, profile) if i.category == "call.follow_up_due"}


def test_the_copy_follows_every_service_that_answers_it(db, officer, profile):
    today = _today(profile)
    done_call = _call(db, officer, today)
    rechecked = _call(db, officer, today)
    none = _call(db, officer, None)
    waiting = _call(db, officer, today)
    assert _consistent(db)
    assert _follow_ups_today(db, today, profile) == {done_call.id, rechecked.id, waiting.id}
    record_follow_up(
        db,
        officer,
        done_call.id,
        done_call.version,
        done_at=datetime.now(UTC) - timedelta(minutes=5),
        done_by=officer.username,
        note="Quiet now.",
    )
    recheck = open_recheck(db, officer, rechecked.id)
    assert _consistent(db)
    assert _follow_ups_today(db, today, profile) == {waiting.id}
    assert [c.record_id for c in officer_day(db, officer.username, today, profile).follow_ups] == [
        waiting.id
    ]
    copies = _copies(db)
    assert copies[none.id] == (None, False) and copies[recheck.id] == (None, False)
    assert copies[waiting.id] == (today, True)


def test_writes_around_the_services_keep_the_copy(db, officer, profile):
    """A later follow-up date on a call followed up (a new follow-up to do), a recheck
    moved to another call or deleted, a date cleared: each rewrites the copies."""
    today = _today(profile)
    a = _call(db, officer, today)
    b = _call(db, officer, today)
    record_follow_up(
        db,
        officer,
        a.id,
        a.version,
        done_at=datetime.now(UTC) - timedelta(minutes=5),
        done_by=officer.username,
        note="Done.",
    )
    r = open_recheck(db, officer, b.id)
    assert _follow_ups_today(db, today, profile) == set()
    later = today + timedelta(days=3)
    with db.write() as s:
        s.execute(update(FieldCall).where(FieldCall.id == a.id).values(follow_up_on=later))
    assert _consistent(db) and _copies(db)[a.id] == (later, True)
    assert _follow_ups_today(db, later, profile) == {a.id}
    with db.write() as s:
        s.execute(update(FieldCall).where(FieldCall.id == r.id).values(recheck_of_id=a.id))
    assert _consistent(db) and _follow_ups_today(db, later, profile) == {b.id}
    with db.write() as s:
        s.execute(text("DELETE FROM call_party WHERE call_id = :i"), {"i": r.id})
        s.execute(text("DELETE FROM field_call WHERE id = :i"), {"i": r.id})
    assert _consistent(db) and _follow_ups_today(db, later, profile) == {a.id, b.id}
    with db.write() as s:
        s.execute(update(FieldCall).where(FieldCall.id == b.id).values(follow_up_on=None))
    assert _consistent(db) and _follow_ups_today(db, later, profile) == {a.id}


def test_fieldops_check_names_a_call_whose_copy_is_wrong(db, officer, profile):
    today = _today(profile)
    a = _call(db, officer, today)
    b = _call(db, officer, None)
    with db.engine.connect() as conn:
        assert stale_follow_ups(conn) == []
    with db.write() as s:  # written around the triggers: the copy alone changed
        s.execute(update(FieldCall).where(FieldCall.id == a.id).values(follow_up_due_on=None))
        s.execute(update(FieldCall).where(FieldCall.id == b.id).values(follow_up_due_on=today))
    with db.engine.connect() as conn:
        (problem,) = stale_follow_ups(conn)
    assert problem.startswith("2 call(s)") and f"#{a.id}" in problem and f"#{b.id}" in problem


def _plan(db, day: date) -> str:
    seen: list[tuple[str, object]] = []

    def note(conn, cursor, statement, parameters, *rest):
        if "FROM field_call" in statement:
            seen.append((statement, parameters))

    from sqlalchemy import event

    from fieldops.rules import Profile

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        due_items(db, day, Profile.default())
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    with db.engine.connect() as conn:
        return "\n".join(
            r[-1]
            for sql, params in seen
            for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params)
        )


def test_todays_follow_ups_are_read_from_the_index_of_those_still_to_do(sqlite_db):
    """At 500,000 calls, 41,000 have a past follow-up date, nearly all followed up long
    ago; each was read and asked about its rechecks on every Today (issue 14)."""
    plan = _plan(sqlite_db, date(2026, 11, 30))
    assert "ix_field_call_follow_up_due_on (follow_up_due_on<?)" in plan, plan
    assert "ix_field_call_follow_up_on" not in plan and "LIST SUBQUERY" not in plan, plan
