"""Properties (hypothesis) of the fancier's review window and the permit quotes (RULES.md 7-8)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fieldops.rules import Profile, fancier_renewal, is_excluded_day, permit_quote

CITY = Profile.default()
DODGEVILLE = Profile.named("dodgeville")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

reviews = st.dates(min_value=date(2000, 1, 1), max_value=date(2060, 12, 31))


@SETTINGS
@given(reviews, st.lists(st.integers(min_value=-800, max_value=60), max_size=8))
def test_fancier_window_is_after_12_months_back_up_to_the_review_day(review, offsets):
    incidents = [review + timedelta(days=o) for o in offsets]
    d = fancier_renewal(incidents, review, CITY)
    after = d.window_after
    assert 365 <= (review - after).days <= 366
    expected = sorted(i for i in incidents if after < i <= review)
    assert list(d.counted) == expected
    assert d.renew is (len(expected) < 3)


@SETTINGS
@given(reviews)
def test_fancier_window_boundaries(review):
    after = fancier_renewal([], review, CITY).window_after
    edge = [after, after + timedelta(days=1), review, review + timedelta(days=1)]
    d = fancier_renewal(edge, review, CITY)
    assert d.counted == (after + timedelta(days=1), review)  # first day out, last day in
    assert not fancier_renewal([after + timedelta(days=1)] * 2 + [review], review, CITY).renew
    assert fancier_renewal([after] * 5 + [review + timedelta(days=1)] * 5, review, CITY).renew


@SETTINGS
@given(reviews, st.dates(min_value=date(2000, 1, 1), max_value=date(2060, 12, 31)))
def test_the_appeal_day_is_30_days_or_later_and_secular(review, notice):
    d = fancier_renewal([review] * 3, review, CITY)
    last = d.appeal_by(notice)
    assert (last - notice).days >= 30
    assert not is_excluded_day(last, CITY)


@SETTINGS
@given(
    st.integers(min_value=2001, max_value=2060),
    st.integers(min_value=0, max_value=729),
    st.integers(min_value=1, max_value=200),
    st.booleans(),
)
def test_renewing_later_never_makes_a_late_permit_on_time(year, day_index, later, first):
    applied = date(year - 1, 1, 1) + timedelta(days=day_index)
    q = permit_quote("chicken", year, applied, DODGEVILLE, first=first)
    assert q.total >= q.annual_fee > 0
    if q.due_by is not None:
        assert not is_excluded_day(q.due_by, DODGEVILLE)
    then = applied + timedelta(days=later)
    if then.year <= year:
        q2 = permit_quote("chicken", year, then, DODGEVILLE, first=first)
        assert q2.late or not q.late
