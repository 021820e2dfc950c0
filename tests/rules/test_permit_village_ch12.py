"""The village's chapter 12 (d) and (i): 25 feet from a neighbouring residence, and the
state premises registration renewed every 3 years (chicken_permit_problems)."""

from __future__ import annotations

from datetime import date

import pytest

from fieldops.rules import Profile, chicken_permit_problems
from fieldops.rules.permits import state_registration_expires

CITY = Profile.default()
VILLAGE = Profile.named("village")
APPLIED = date(2026, 3, 2)
GOOD = {
    "first_permit": True,
    "hoa_exists": False,
    "hoa_consent": False,
    "hens": 4,
    "roosters": 0,
    "setback_feet": 60,
    "neighbour_consent": False,
    "applied_on": APPLIED,
}


def codes(profile, **kw):
    return [(p.code, p.field) for p in chicken_permit_problems(profile, **{**GOOD, **kw})]


def test_the_village_profile_sets_both_and_the_city_neither():
    assert (VILLAGE.chickens.residence_setback_feet, VILLAGE.chickens.state_registration_years) == (
        25,
        3,
    )
    assert CITY.chickens.residence_setback_feet is None
    assert CITY.chickens.state_registration_years is None


@pytest.mark.parametrize(
    ("feet", "want"),
    [
        (25, []),  # (d) "at least 25 feet"
        (100, []),
        (24, [("residence_setback_too_short", "residence_setback_feet")]),
        (0, [("residence_setback_too_short", "residence_setback_feet")]),
        (-1, [("residence_setback_negative", "residence_setback_feet")]),
    ],
)
def test_village_hen_house_25_feet_from_a_neighbouring_residence(feet, want):
    assert codes(VILLAGE, residence_setback_feet=feet) == want


def test_the_message_names_the_distance_and_the_text():
    (p,) = chicken_permit_problems(VILLAGE, **{**GOOD, "residence_setback_feet": 10})
    assert "25 feet" in p.message and "neighbouring residence" in p.message
    assert "ch. 12" in p.message


@pytest.mark.parametrize(
    ("registered", "want"),
    [
        (date(2023, 3, 3), []),  # the day before its third anniversary: still good
        (date(2026, 3, 2), []),  # registered the same day
        (date(2023, 3, 2), [("state_registration_expired", "state_registered_on")]),
        (date(2020, 1, 1), [("state_registration_expired", "state_registered_on")]),
        (date(2026, 3, 3), [("state_registration_after_application", "state_registered_on")]),
    ],
)
def test_village_state_registration_renewed_every_three_years(registered, want):
    assert codes(VILLAGE, state_registered_on=registered) == want


def test_a_leap_day_registration_is_due_on_28_february():
    assert state_registration_expires(date(2024, 2, 29), VILLAGE) == date(2027, 2, 28)
    assert state_registration_expires(date(2024, 2, 29), CITY) is None


def test_the_city_checks_neither_whatever_is_given():
    assert codes(CITY, residence_setback_feet=1, state_registered_on=date(2000, 1, 1)) == []


def test_existing_callers_without_the_new_answers_are_unchanged():
    kw = {k: w for k, w in GOOD.items() if k != "applied_on"}
    assert chicken_permit_problems(VILLAGE, **kw) == ()


def test_a_residence_distance_that_is_not_a_number_raises_naming_it():
    with pytest.raises(ValueError, match="residence_setback_feet"):
        codes(VILLAGE, residence_setback_feet="25")
