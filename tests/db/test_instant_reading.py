"""SQLite's instants read in one step (``UTCDateTime.result_processor``) as the
decorator's own chain reads them: the same instant, aware, in UTC, whatever text is stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.dialects import sqlite

from fieldops.db.types import UTCDateTime

DIALECT = sqlite.dialect()
FAST = UTCDateTime().dialect_impl(DIALECT).result_processor(DIALECT, None)


def chain(value: str | None) -> datetime | None:
    """What the decorator's chain gives: the text parsed, then ``process_result_value``."""
    parsed = None if value is None else datetime.fromisoformat(value)
    return UTCDateTime().process_result_value(parsed, DIALECT)


def same(a: datetime | None, b: datetime | None) -> bool:
    return a == b and (a is None or (a.tzinfo is UTC and b is not None and b.tzinfo is UTC))


@given(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1)))
def test_the_stored_text_of_any_instant_reads_as_the_chain_reads_it(naive):
    stored = UTCDateTime().process_bind_param(naive.replace(tzinfo=UTC), DIALECT)
    written = sqlite.DATETIME().bind_processor(DIALECT)(stored)  # the text SQLite keeps
    assert same(FAST(written), chain(written))
    assert FAST(written) == naive.replace(tzinfo=UTC)


@pytest.mark.parametrize(
    "stored",
    [
        "2026-11-30 12:00:00.000000",
        "2026-11-30 12:00:00",  # SQLite's own datetime('now')
        "2026-11-30T12:00:00.123",
        "2026-11-30",  # a date alone: midnight UTC, as before
        "2026-11-30 06:00:00-06:00",  # text with its own offset
        "2026-11-30 12:00:00+00:00",
        None,
    ],
)
def test_any_text_stored_reads_as_the_chain_reads_it(stored):
    assert same(FAST(stored), chain(stored))


def test_text_that_is_no_instant_is_refused_as_before():
    with pytest.raises(ValueError):
        chain("not a time")
    with pytest.raises(ValueError):
        FAST("not a time")


def test_a_row_read_through_the_engine_is_aware_utc(sqlite_db):
    from fieldops.db.models import FeeScheduleEntry  # any UTCDateTime column will do

    column = FeeScheduleEntry.__table__.c.entered_at
    with sqlite_db.read() as s:
        got = s.execute(
            text("SELECT :v AS entered_at").columns(column), {"v": "2026-11-30 06:00:00-06:00"}
        ).scalar_one()
    assert got == datetime(2026, 11, 30, 12, tzinfo=UTC)
    assert got.tzinfo is UTC
    assert got.astimezone(timezone(timedelta(hours=-6))).hour == 6
