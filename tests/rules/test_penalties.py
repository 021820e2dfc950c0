"""Penalty ladders (RULES.md section 7; 58-534(b), city 1-7, Dodgeville 12.16(14), village ch. 12 (h))."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from fieldops.rules import PERMANENT, Ladder, PenaltyStep, Profile, penalty_for

CITY = Profile.default()
DODGEVILLE = Profile.named("dodgeville")
VILLAGE = Profile.named("village")


def steps(section, profile, upto):
    return [penalty_for(section, n, profile) for n in range(1, upto + 1)]


def test_dodgeville_general_ladder():
    first, second, third, fourth = steps("12.16", DODGEVILLE, 4)
    assert (first.warning, first.forfeiture, first.revocation_months) == (True, None, None)
    assert (second.forfeiture, second.revocation_months) == (Decimal("75.00"), 12)
    assert (third.forfeiture, third.revocation_months) == (Decimal("100.00"), PERMANENT)
    assert fourth.forfeiture == third.forfeiture and fourth.step == 3  # stays on the last step
    assert "12.16(14)(a)" in first.why


def test_dodgeville_cruelty_ladder():
    first, second, third = steps("cruelty", DODGEVILLE, 3)
    assert first.warning and first.forfeiture is None
    assert "within a week" in first.order
    assert (second.forfeiture, second.revocation_months) == (Decimal("500.00"), PERMANENT)
    assert third == dataclasses.replace(second, offence_number=3, why=third.why)
    assert "12.16(14)(b)" in second.why and "without end" in second.why


def test_village_forfeitures_plus_court_costs():
    first, second, third = steps("12", VILLAGE, 3)
    assert (first.forfeiture, second.forfeiture, third.forfeiture) == (
        Decimal("90.00"),
        Decimal("150.00"),
        Decimal("150.00"),
    )
    assert first.plus_court_costs and "plus court costs" in first.why
    assert not first.warning and first.revocation_months is None


def test_city_sections_without_a_ladder_use_the_general_penalty_1_7():
    p = penalty_for("58-531", 1, CITY)
    assert p.ladder == "general"
    assert p.forfeiture == CITY.penalties["general"].steps[0].forfeiture
    assert "1-7" in p.why and "general" in p.why


def test_a_section_with_its_own_ladder_uses_it():
    ladder = Ladder(
        source="city code 58-531",
        steps=(PenaltyStep(warning=True), PenaltyStep(forfeiture=Decimal("200"))),
    )
    p = dataclasses.replace(CITY, penalties={**CITY.penalties, "58-531": ladder})
    assert penalty_for("58-531", 1, p).warning
    assert penalty_for("58-531", 9, p).forfeiture == Decimal("200.00")
    assert penalty_for("58-521", 1, p).ladder == "general"


@pytest.mark.parametrize("n", [0, -1, True, 1.0, "1"])
def test_offence_number_must_be_a_whole_number_from_1(n):
    with pytest.raises(ValueError, match="offence_number"):
        penalty_for("58-531", n, CITY)


@pytest.mark.parametrize("section", ["", "  ", None])
def test_section_is_required(section):
    with pytest.raises(ValueError, match="section"):
        penalty_for(section, 1, CITY)


def test_a_step_must_do_something_and_a_profile_needs_a_general_ladder():
    with pytest.raises(ValueError, match="forfeiture or warning"):
        PenaltyStep()
    with pytest.raises(ValueError, match=r"penalties\.general"):
        dataclasses.replace(CITY, penalties={})
