"""Property tests (hypothesis) for the invariants in issue 3 and RULES.md sections 1-2."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from fieldops.rules import (
    FeeSchedule,
    Profile,
    adoption_fees,
    deadline_after_days,
    deadline_after_hours,
    impound_hold,
    is_excluded_day,
    nominal_last_day,
    quarantine_plan,
    redemption_fees,
    start_of_local_day,
    utc,
    vicious_notice_deadline,
)

PROFILE = Profile.default()
CHICAGO = ZoneInfo("America/Chicago")
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

days_ = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))
# Clerk-added holidays, clustered so that runs of excluded days occur.
extra_holidays = st.frozensets(
    st.dates(min_value=date(2025, 12, 1), max_value=date(2027, 2, 28)), max_size=40
)


@st.composite
def profiles(draw):
    return dataclasses.replace(PROFILE, extra_holidays=draw(extra_holidays))


@st.composite
def instants(draw, lo=datetime(2025, 12, 1), hi=datetime(2027, 2, 28)):
    """Aware instants, in the local zone or in UTC, including DST-change days."""
    zone = draw(st.sampled_from([CHICAGO, UTC]))
    return draw(
        st.datetimes(min_value=lo, max_value=hi, timezones=st.just(zone), allow_imaginary=False)
    )


def counted_hours(start: datetime, end: datetime, profile: Profile) -> timedelta:
    """Independent oracle: real time in [start, end) that falls on counted days."""
    total = timedelta()
    day = start.astimezone(profile.timezone).date()
    while True:
        day_start = start_of_local_day(day, profile).astimezone(UTC)
        day_end = start_of_local_day(day + timedelta(days=1), profile).astimezone(UTC)
        if day_start >= end:
            return total
        if not is_excluded_day(day, profile):
            lo, hi = max(day_start, start.astimezone(UTC)), min(day_end, end.astimezone(UTC))
            if hi > lo:
                total += hi - lo
        day += timedelta(days=1)


# ---------------------------------------------------------------- days


@SETTINGS
@given(event=days_, days=st.integers(0, 400), profile=profiles())
def test_period_to_act_never_ends_on_sunday_or_holiday(event, days, profile):
    last = deadline_after_days(event, days, profile)
    assert not is_excluded_day(last, profile)
    assert last.weekday() != 6
    nominal = event + timedelta(days=days)
    assert last >= nominal
    # ... and it is the FIRST secular day from the nominal last day on.
    day = nominal
    while day < last:
        assert is_excluded_day(day, profile)
        day += timedelta(days=1)


@SETTINGS
@given(event=days_, days=st.integers(0, 400), extra=st.integers(0, 30))
def test_deadline_after_days_is_monotone(event, days, extra):
    assert deadline_after_days(event, days, PROFILE) <= deadline_after_days(
        event, days + extra, PROFILE
    )
    later = event + timedelta(days=extra)
    assert deadline_after_days(event, days, PROFILE) <= deadline_after_days(later, days, PROFILE)


# ---------------------------------------------------------------- hours


@SETTINGS
@given(start=instants(), hours=st.integers(0, 400), profile=profiles())
def test_hours_deadline_is_at_least_t_plus_h_and_counts_exactly_h(start, hours, profile):
    end = deadline_after_hours(start, hours, profile)
    assert end.tzinfo is profile.timezone
    assert end.astimezone(UTC) >= start.astimezone(UTC) + timedelta(hours=hours)
    assert counted_hours(start, end, profile) == timedelta(hours=hours)


@SETTINGS
@given(start=instants(), hours=st.integers(1, 400), profile=profiles())
def test_hours_deadline_never_lands_inside_an_excluded_day(start, hours, profile):
    end = deadline_after_hours(start, hours, profile)
    local = end.astimezone(profile.timezone)
    at_midnight = utc(end) == utc(start_of_local_day(local.date(), profile))
    # Either the deadline is on a counted day, or it is the midnight that
    # closes a counted day (the boundary, not inside the excluded day).
    assert not is_excluded_day(local.date(), profile) or at_midnight
    just_before = (end - timedelta(microseconds=1)).astimezone(profile.timezone)
    assert not is_excluded_day(just_before.date(), profile)


@SETTINGS
@given(
    t1=instants(),
    gap=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=20)),
    hours=st.integers(0, 200),
    profile=profiles(),
)
def test_hours_deadline_non_decreasing_in_t(t1, gap, hours, profile):
    t2 = t1.astimezone(UTC) + gap  # real elapsed time, not wall-clock arithmetic
    assert utc(deadline_after_hours(t1, hours, profile)) <= utc(
        deadline_after_hours(t2, hours, profile)
    )


@SETTINGS
@given(start=instants(), h1=st.integers(0, 300), more=st.integers(0, 100), profile=profiles())
def test_hours_deadline_non_decreasing_in_h(start, h1, more, profile):
    assert utc(deadline_after_hours(start, h1, profile)) <= utc(
        deadline_after_hours(start, h1 + more, profile)
    )


@SETTINGS
@given(served=instants())
def test_vicious_notice_is_48_counted_hours(served):
    end = vicious_notice_deadline(served, PROFILE)
    assert utc(end) >= utc(served) + timedelta(hours=48)
    assert counted_hours(served, end, PROFILE) == timedelta(hours=48)


# ---------------------------------------------------------------- impound


@SETTINGS
@given(at=instants(), bit=st.booleans(), surrendered=st.booleans(), profile=profiles())
def test_hold_end_never_precedes_impoundment_plus_7_days(at, bit, surrendered, profile):
    assume(bit or not surrendered)  # a surrendered non-biter is unclaimed at once, by design
    hold = impound_hold(at, profile, bit_person=bit, surrendered=surrendered)
    custody = hold.custody_day
    assert hold.last_claim_day >= custody + timedelta(days=7)
    assert utc(hold.release_to_others_from) >= utc(
        start_of_local_day(custody + timedelta(days=8), profile)
    )
    # Days are calendar days (Wis. Stat. 990.001(4)), not 24-hour blocks: across the
    # spring clock change seven days are 167 real hours, so compare on the local clock.
    week_later = at.astimezone(profile.timezone) + timedelta(days=7)  # wall-clock arithmetic
    assert hold.release_to_others_from.astimezone(profile.timezone).replace(
        tzinfo=None
    ) >= week_later.replace(tzinfo=None)
    assert not is_excluded_day(hold.last_claim_day, profile)
    assert not hold.is_over(week_later)
    if bit:
        assert hold.last_claim_day >= custody + timedelta(days=10)


@SETTINGS
@given(at=instants(), profile=profiles())
def test_surrender_frees_the_animal_at_once(at, profile):
    hold = impound_hold(at, profile, surrendered=True)
    assert hold.is_over(at)
    assert utc(hold.release_to_others_from) == utc(at)
    assert not hold.is_over(utc(at) - timedelta(microseconds=1))


# ---------------------------------------------------------------- fees

money = st.decimals(min_value=0, max_value=10_000, places=2, allow_nan=False, allow_infinity=False)


@st.composite
def fee_profiles(draw):
    fees = {
        species: FeeSchedule(
            impound=draw(money), boarding_per_day=draw(money), adoption=draw(money)
        )
        for species in ("dog", "cat", "other")
    }
    return dataclasses.replace(PROFILE, fees=fees, repeat_multiplier=draw(st.integers(1, 5)))


species_ = st.sampled_from(["dog", "cat", "other", "Ferret", "DOG", "rabbit"])


@SETTINGS
@given(
    profile=fee_profiles(),
    species=species_,
    impounded=instants(),
    stay=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90)),
    repeat=st.booleans(),
)
def test_fees_are_never_negative_and_add_up(profile, species, impounded, stay, repeat):
    released = impounded + stay
    for quote in (
        redemption_fees(species, impounded, released, profile, repeat=repeat),
        adoption_fees(species, impounded, released, profile),
        adoption_fees(species, impounded, released, profile, include_impound_fee=True),
    ):
        amounts = [quote.impound_fee, quote.boarding_fee, quote.adoption_fee, quote.total]
        amounts += [amount for _, amount in quote.lines]
        assert all(isinstance(a, Decimal) and a >= 0 for a in amounts)
        assert quote.total == sum((a for _, a in quote.lines), Decimal(0))
        assert quote.boarding_days >= 1
        assert quote.boarding_fee == quote.boarding_per_day * quote.boarding_days


@SETTINGS
@given(
    profile=fee_profiles(),
    species=species_,
    impounded=instants(),
    stay=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90)),
    include=st.booleans(),
)
def test_repeat_multiplier_never_applies_to_a_non_owner(profile, species, impounded, stay, include):
    quote = adoption_fees(
        species, impounded, impounded + stay, profile, include_impound_fee=include
    )
    schedule = profile.fee_schedule(species)
    assert quote.multiplier_applied == 1 and not quote.repeat and not quote.to_owner
    assert quote.impound_fee == (schedule.impound if include else Decimal("0.00"))


@SETTINGS
@given(
    profile=fee_profiles(),
    species=species_,
    impounded=instants(),
    stay=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90)),
)
def test_owner_repeat_multiplies_only_the_impound_fee(profile, species, impounded, stay):
    first = redemption_fees(species, impounded, impounded + stay, profile, repeat=False)
    again = redemption_fees(species, impounded, impounded + stay, profile, repeat=True)
    assert again.impound_fee == first.impound_fee * profile.repeat_multiplier
    assert again.boarding_fee == first.boarding_fee
    assert first.multiplier_applied == 1


# ---------------------------------------------------------------- quarantine


@SETTINGS
@given(
    bitten=instants(),
    delay=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=8)),
    owner_known=st.booleans(),
    proof=st.booleans(),
    profile=profiles(),
)
@example(  # bitten in the fall's repeated hour, its second time round (CST)
    bitten=datetime(2026, 11, 1, 1, 0, fold=1, tzinfo=CHICAGO),
    delay=timedelta(0),
    owner_known=False,
    proof=False,
    profile=PROFILE,
)
def test_quarantine_observation_is_a_minimum_and_certificate_a_period_to_act(
    bitten, delay, owner_known, proof, profile
):
    # Ordered ``delay`` after the bite in elapsed time: an aware datetime plus a timedelta
    # is wall-clock arithmetic, which at the fall's repeated hour lands before the bite.
    ordered = (bitten.astimezone(UTC) + delay).astimezone(bitten.tzinfo)
    plan = quarantine_plan(bitten, ordered, profile, owner_known=owner_known, rabies_proof=proof)
    assert plan.last_day == nominal_last_day(plan.bite_day, 10, profile)  # never extended
    assert not is_excluded_day(plan.certificate_due, profile)
    assert plan.certificate_due >= plan.bite_day + timedelta(days=15)
    assert plan.first_exam_day <= plan.last_day
    if plan.intervening_exam_window is not None:
        lo, hi = plan.intervening_exam_window
        assert plan.first_exam_day < lo <= hi < plan.last_day
    assert (plan.deliver_by is None) == (plan.placement == "home")
    if plan.deliver_by is not None:
        assert plan.deliver_by.astimezone(UTC) - plan.ordered_at.astimezone(UTC) == timedelta(
            hours=24
        )
