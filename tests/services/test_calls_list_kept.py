"""The calls list's statements are built once per filter and kept (issue 14): the moment an
answer is asked at is a parameter, so a kept statement answers for each moment, on SQLite
and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert

from fieldops.db.models import FieldCall
from fieldops.services.calls import listing
from fieldops.services.calls.listing import CallFilter, calls_page, count_calls

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _call(i: int, received: datetime, follow_up=None) -> dict:
    return {
        "id": i,
        "received_at": received,
        "received_how": "phone",
        "address": f"{i} Oak Ave",
        "address_key": f"{i} oak ave",
        "kind": "noise",
        "priority": 2,
        "status": "closed",
        "officer": "",
        "search_text": f"{i} oak ave",
        "follow_up_on": follow_up,
        "recorded_by": "olly",
        "created_at": received,
        "updated_at": received,
        "version": 1,
    }


def test_a_kept_statement_answers_for_the_moment_each_answer_is_asked_at(db):
    with db.write() as s:
        s.execute(
            insert(FieldCall.__table__),
            [
                _call(1, AT - timedelta(hours=30), AT.date() + timedelta(days=9)),
                _call(2, AT - timedelta(hours=2), AT.date() + timedelta(days=3)),
            ],
        )
    day = CallFilter(show="all", period="1")
    follow = CallFilter(show="follow_up")
    listing._page_statement.cache_clear()
    listing._count_statement.cache_clear()
    for at, in_day, following in (
        (AT, [2], [2]),
        (AT - timedelta(hours=12), [1, 2], [2]),
        (AT + timedelta(days=3), [], [1, 2]),
    ):
        assert [r.id for r in calls_page(db, day, 0, 10, at).rows] == in_day, at
        assert count_calls(db, day, at) == len(in_day)
        assert sorted(r.id for r in calls_page(db, follow, 0, 10, at).rows) == following, at
        assert count_calls(db, follow, at) == len(following)
    # Each filter's page and count statements were built once, then reused for each moment.
    assert listing._page_statement.cache_info().misses == 2
    assert listing._count_statement.cache_info().misses == 2


def test_the_week_of_follow_ups_starts_on_the_citys_today_not_on_utcs(db):
    """At 8 p.m. in Chicago on 30 November it is already 1 December in UTC: the week of
    follow-ups runs to 7 December, not to the 8th."""
    from zoneinfo import ZoneInfo

    evening = datetime(2026, 11, 30, 20, 0, tzinfo=ZoneInfo("America/Chicago"))
    with db.write() as s:
        s.execute(
            insert(FieldCall.__table__),
            [
                _call(1, AT - timedelta(days=2), datetime(2026, 12, 7).date()),
                _call(2, AT - timedelta(days=2), datetime(2026, 12, 8).date()),
            ],
        )
    follow = CallFilter(show="follow_up")
    assert [r.id for r in calls_page(db, follow, 0, 10, evening).rows] == [1]
    assert count_calls(db, follow, evening) == 1
    # The same instant in UTC is a day later; the list refuses a moment with no zone.
    assert count_calls(db, follow, evening.astimezone(UTC)) == 2
    with pytest.raises(ValueError):
        count_calls(db, follow, evening.replace(tzinfo=None))
