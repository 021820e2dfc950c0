"""Fee quotes in Decimal (58-526(a), (b)(1)d, (b)(2)e; RULES.md section 2)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import FeeSchedule, adoption_fees, boarding_days, redemption_fees

CHICAGO = ZoneInfo("America/Chicago")


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


def M(text):
    return Decimal(text)


def test_owner_redemption_dog(profile):
    q = redemption_fees("dog", L(2026, 3, 2, 10), L(2026, 3, 5, 16), profile, repeat=False)
    assert (q.impound_fee, q.boarding_days, q.boarding_fee, q.total) == (
        M("40.00"),
        3,
        M("45.00"),
        M("85.00"),
    )
    assert q.adoption_fee == M("0.00")
    assert q.multiplier_applied == 1 and not q.repeat and q.to_owner
    assert q.lines == (
        ("Impound fee (dog)", M("40.00")),
        ("Boarding, 3 days at $15.00 a day", M("45.00")),
    )
    assert all(isinstance(amount, Decimal) for _, amount in q.lines)


def test_repeat_doubles_only_the_impound_fee(profile):
    q = redemption_fees("dog", L(2026, 3, 2, 10), L(2026, 3, 5, 16), profile, repeat=True)
    assert q.impound_fee == M("80.00")
    assert q.boarding_fee == M("45.00")
    assert q.total == M("125.00")
    assert q.multiplier_applied == 2 and q.repeat
    assert q.lines[0] == (
        "Impound fee (dog), x2: impounded again within 60 days (58-526(a))",
        M("80.00"),
    )


def test_same_day_release_charges_one_day(profile):
    q = redemption_fees("cat", L(2026, 3, 2, 9), L(2026, 3, 2, 17), profile, repeat=False)
    assert (q.boarding_days, q.total) == (1, M("42.00"))  # 30 + 12
    assert q.lines[1][0] == "Boarding, 1 day at $12.00 a day"


@pytest.mark.parametrize(
    ("species", "fee_class", "total"),
    [
        ("dog", "dog", M("70.00")),  # 40 + 2 x 15
        ("DOG ", "dog", M("70.00")),
        ("cat", "cat", M("54.00")),  # 30 + 2 x 12
        ("other", "other", M("40.00")),  # 20 + 2 x 10
        ("Ferret", "other", M("40.00")),  # unknown species: "other"
        ("rabbit", "other", M("40.00")),
    ],
)
def test_species_fee_class(profile, species, fee_class, total):
    q = redemption_fees(species, L(2026, 3, 2, 10), L(2026, 3, 4, 10), profile, repeat=False)
    assert (q.fee_class, q.total) == (fee_class, total)
    assert q.species == species.strip().lower()


@pytest.mark.parametrize(
    ("impounded_at", "released_at", "days"),
    [
        # local dates count, not UTC dates or elapsed hours:
        (L(2026, 3, 2, 23, 30), L(2026, 3, 3, 0, 30), 1),
        (L(2026, 3, 2, 18, 30), L(2026, 3, 4, 17, 0), 2),  # UTC dates 3 Mar -> 4 Mar: 1
        (datetime(2026, 3, 3, 0, 30, tzinfo=UTC), datetime(2026, 3, 4, 23, 0, tzinfo=UTC), 2),
        (L(2026, 3, 7, 23), L(2026, 3, 9, 0, 30), 2),  # across the spring DST change
        (L(2026, 10, 31, 23), L(2026, 11, 2, 0, 30), 2),  # across the autumn change
        (L(2026, 12, 30, 10), L(2027, 1, 2, 10), 3),  # year end
        (L(2028, 2, 28, 10), L(2028, 3, 1, 10), 2),  # leap day
        (L(2026, 2, 28, 10), L(2026, 3, 1, 10), 1),  # no leap day in 2026
    ],
)
def test_boarding_days_are_local_date_differences(profile, impounded_at, released_at, days):
    assert boarding_days(impounded_at, released_at, profile) == days


def test_adoption_is_boarding_plus_adoption_fee(profile):
    q = adoption_fees("dog", L(2026, 3, 2, 10), L(2026, 3, 10, 11), profile)
    assert q.boarding_days == 8
    assert (q.impound_fee, q.boarding_fee, q.adoption_fee) == (M("0.00"), M("120.00"), M("75.00"))
    assert q.total == M("195.00")
    assert not q.to_owner and not q.repeat and q.multiplier_applied == 1
    assert [label for label, _ in q.lines] == [
        "Boarding, 8 days at $15.00 a day",
        "Adoption fee (dog)",
    ]


def test_adoption_with_impound_fee_is_never_multiplied(profile):
    q = adoption_fees(
        "cat", L(2026, 3, 2, 10), L(2026, 3, 10, 11), profile, include_impound_fee=True
    )
    assert q.impound_fee == M("30.00")
    assert q.total == M("30.00") + 8 * M("12.00") + M("50.00")
    assert q.multiplier_applied == 1


def test_fees_follow_a_replaced_schedule(profile):
    council = dict(profile.fees)
    council["dog"] = FeeSchedule(impound="55.50", boarding_per_day="17.25", adoption="80")
    p = dataclasses.replace(profile, fees=council)
    q = redemption_fees("dog", L(2026, 3, 2, 10), L(2026, 3, 4, 10), p, repeat=True)
    assert q.total == M("111.00") + M("34.50")
    assert p.fees["dog"].adoption == M("80.00")


def test_release_in_the_repeated_hour_is_not_before_impoundment(profile):
    impounded = datetime(2026, 11, 1, 1, 40, fold=0, tzinfo=CHICAGO)  # 06:40 UTC
    released = datetime(2026, 11, 1, 1, 20, fold=1, tzinfo=CHICAGO)  # 07:20 UTC, later
    assert boarding_days(impounded, released, profile) == 1
    with pytest.raises(ValueError, match="before"):
        boarding_days(released, impounded, profile)


def test_bad_inputs(profile):
    with pytest.raises(ValueError, match="before"):
        redemption_fees("dog", L(2026, 3, 5, 10), L(2026, 3, 2, 10), profile, repeat=False)
    with pytest.raises(ValueError, match="naive"):
        redemption_fees("dog", datetime(2026, 3, 2, 10), L(2026, 3, 5, 10), profile, repeat=False)
    with pytest.raises(ValueError, match="naive"):
        adoption_fees("dog", L(2026, 3, 2, 10), datetime(2026, 3, 5, 10), profile)
    with pytest.raises(ValueError):
        redemption_fees("", L(2026, 3, 2, 10), L(2026, 3, 5, 10), profile, repeat=False)
