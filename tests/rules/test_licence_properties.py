"""Properties (hypothesis) of the licence rules (RULES.md section 6; issue 15's examples)."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta
from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fieldops.rules import (
    Profile,
    is_excluded_day,
    licence_quote,
    licensable_on,
    rabies_ok_for_licence,
    rabies_window_start,
)

CITY = Profile.default()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

years = st.integers(min_value=2000, max_value=2060)
money = st.decimals(min_value=0, max_value=500, places=2, allow_nan=False, allow_infinity=False)


@st.composite
def cases(draw):
    """A licence year, a profile with drawn rates and clerk holidays, and a dog."""
    year = draw(years)
    jan1 = date(year, 1, 1)
    extra = draw(
        st.frozensets(st.dates(min_value=jan1, max_value=date(year + 1, 2, 28)), max_size=6)
    )
    profile = dataclasses.replace(
        CITY,
        licence_unaltered=draw(money),
        licence_altered=draw(money),
        licence_late_fee=draw(money),
        extra_holidays=extra,
    )
    # a birth date whose five-month day falls in the year or before it, or unknown
    birth = draw(st.none() | st.dates(min_value=date(year - 15, 1, 1), max_value=date(year, 7, 31)))
    optional_day = st.none() | st.dates(
        min_value=date(year - 5, 1, 1), max_value=date(year, 12, 31)
    )
    kw = {
        "birth_date": birth,
        "altered": draw(st.booleans()),
        "acquired_on": draw(optional_day),
        "resident_since": draw(optional_day),
    }
    applied = draw(st.dates(min_value=date(year - 1, 12, 1), max_value=date(year + 1, 6, 30)))
    return year, applied, profile, kw


@SETTINGS
@given(cases())
def test_a_quotes_total_is_never_below_half_the_lower_rate(case):
    year, applied, profile, kw = case
    q = licence_quote(year, applied, profile, **kw)
    lower = min(profile.licence_altered, profile.licence_unaltered)
    assert q.total >= lower / 2
    assert q.total == (q.rate_charged + q.late_fee)
    assert q.late_fee in (Decimal("0"), profile.licence_late_fee)


@SETTINGS
@given(cases())
def test_the_late_fee_day_is_never_a_sunday_or_holiday(case):
    year, applied, profile, kw = case
    q = licence_quote(year, applied, profile, **kw)
    assert not is_excluded_day(q.due_by, profile)
    assert q.due_by >= q.obligation_day
    assert q.due_by.weekday() != 6


@SETTINGS
@given(cases(), st.integers(min_value=1, max_value=400))
def test_applying_later_never_makes_a_late_licence_on_time(case, days):
    year, applied, profile, kw = case
    first = licence_quote(year, applied, profile, **kw)
    later = licence_quote(year, applied + timedelta(days=days), profile, **kw)
    assert later.due_by == first.due_by  # the application day does not move the deadline
    if first.late:
        assert later.late
        assert later.total >= first.total


@SETTINGS
@given(cases())
def test_late_exactly_when_applied_after_due_by(case):
    year, applied, profile, kw = case
    q = licence_quote(year, applied, profile, **kw)
    assert q.late is (applied > q.due_by)
    on_time = licence_quote(year, q.due_by, profile, **kw)
    assert not on_time.late
    assert licence_quote(year, q.due_by + timedelta(days=1), profile, **kw).late


@SETTINGS
@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)))
def test_licensable_on_is_five_months_on_and_monotonic(born):
    turns = licensable_on(born)
    assert 150 <= (turns - born).days <= 153
    assert (turns.year * 12 + turns.month) - (born.year * 12 + born.month) == 5
    assert turns.day <= born.day
    assert licensable_on(born + timedelta(days=1)) >= turns


@SETTINGS
@given(
    st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)),
    st.integers(min_value=-1500, max_value=30),
)
def test_rabies_window_is_three_years_up_to_the_application(applied, offset):
    vaccinated = applied + timedelta(days=offset)
    start = rabies_window_start(applied)
    assert 1094 <= (applied - start).days <= 1096
    assert rabies_ok_for_licence(applied, vaccinated) is (start <= vaccinated <= applied)
    assume(start <= vaccinated <= applied)
    assert rabies_ok_for_licence(applied, vaccinated, applied)
    assert not rabies_ok_for_licence(applied, vaccinated, applied - timedelta(days=1))
