"""Acceptance cases written from RULES.md sections 6-8, as a clerk meets them.

Each case is a situation at the counter, with the answer worked out by hand
from the words of RULES.md (and a calendar), not from the code. The city's
council rates are read from the shipped profile, since they are the
council's to set.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fieldops.rules import (
    Profile,
    chicken_permit_problems,
    fancier_renewal,
    licence_quote,
    penalty_for,
    permit_quote,
    petition_missing,
    rabies_ok_for_licence,
)

CITY = Profile.default()
UNALTERED, ALTERED, LATE = CITY.licence_unaltered, CITY.licence_altered, CITY.licence_late_fee


def test_adult_dog_kept_all_year_licensed_in_march_pays_the_full_rate():
    q = licence_quote(2026, date(2026, 3, 15), CITY, birth_date=None, altered=False)
    assert (q.due_by, q.late, q.total) == (date(2026, 4, 1), False, UNALTERED)


def test_the_same_dog_licensed_on_2_april_pays_the_late_fee():
    q = licence_quote(2026, date(2026, 4, 2), CITY, birth_date=None, altered=False)
    assert q.late and q.total == UNALTERED + LATE


def test_puppy_turning_five_months_in_august_pays_half_and_has_30_days():
    # born 10 Mar 2026, five months on Mon 10 Aug; 30 days later is Wed 9 Sep
    on_time = licence_quote(
        2026, date(2026, 9, 9), CITY, birth_date=date(2026, 3, 10), altered=True
    )
    assert on_time.half_rate and not on_time.late
    assert on_time.total == (ALTERED / 2).quantize(Decimal("0.01"))
    late = licence_quote(2026, date(2026, 9, 10), CITY, birth_date=date(2026, 3, 10), altered=True)
    assert late.late and late.total == on_time.total + LATE  # the late fee in full


def test_puppy_five_months_old_on_1_july_pays_the_full_rate():
    q = licence_quote(2026, date(2026, 7, 20), CITY, birth_date=date(2026, 2, 1), altered=False)
    assert not q.half_rate and q.total == UNALTERED


def test_family_moving_in_on_2_october_has_until_monday_2_november():
    # 2 Oct + 30 days = Sun 1 Nov 2026: the time runs to Monday
    kw = {"birth_date": None, "altered": True, "resident_since": date(2026, 10, 2)}
    assert licence_quote(2026, date(2026, 11, 2), CITY, **kw).total == ALTERED
    assert licence_quote(2026, date(2026, 11, 3), CITY, **kw).late


def test_dog_bought_on_2_december_may_be_licensed_on_saturday_2_january():
    # 2 Dec + 30 = Fri 1 Jan 2027, New Year's Day; Saturday is a secular day
    q = licence_quote(
        2026, date(2027, 1, 2), CITY, birth_date=None, altered=False, acquired_on=date(2026, 12, 2)
    )
    assert q.due_by == date(2027, 1, 2) and not q.late


def test_a_puppy_born_in_mid_august_needs_no_licence_that_year():
    with pytest.raises(ValueError, match="birth_date"):
        licence_quote(2026, date(2026, 12, 1), CITY, birth_date=date(2026, 8, 15), altered=False)


def test_rabies_shot_three_years_ago_to_the_day_still_counts_one_day_more_does_not():
    assert rabies_ok_for_licence(date(2026, 3, 1), date(2023, 3, 1))
    assert not rabies_ok_for_licence(date(2026, 3, 2), date(2023, 3, 1))


def test_an_expired_certificate_refuses_the_licence():
    assert not rabies_ok_for_licence(date(2026, 3, 1), date(2025, 3, 1), date(2026, 2, 28))


def test_application_on_29_february_counts_back_to_28_february():
    assert rabies_ok_for_licence(date(2028, 2, 29), date(2025, 2, 28))
    assert not rabies_ok_for_licence(date(2028, 2, 29), date(2025, 2, 27))


def test_fancier_with_three_incidents_in_the_year_is_not_renewed_and_may_appeal():
    incidents = [date(2026, 6, 1), date(2026, 1, 10), date(2026, 5, 5)]
    d = fancier_renewal(incidents, date(2026, 6, 1), CITY)
    assert not d.renew
    assert d.counted == (date(2026, 1, 10), date(2026, 5, 5), date(2026, 6, 1))
    assert d.appeal_by(date(2026, 6, 3)) == date(2026, 7, 3)  # Fri 3 Jul 2026


def test_an_incident_a_full_year_before_the_review_is_not_counted():
    d = fancier_renewal(
        [date(2025, 6, 1), date(2026, 1, 10), date(2026, 5, 5)], date(2026, 6, 1), CITY
    )
    assert d.renew and len(d.counted) == 2


def test_a_petition_without_the_promise_to_testify_is_refused_naming_it():
    petition = {
        "petitioners": ["A. Neighbour, 555-0100, 1 Elm St"],
        "animal": "Grey cat, 3 Oak St",
        "violations": "1 May 2026 7:00 PM, in the sandbox",
        "reported_on": "2 May 2026",
    }
    assert petition_missing(petition) == ("will_testify",)


def test_city_first_chicken_permit_without_association_consent_is_refused():
    problems = chicken_permit_problems(
        CITY,
        first_permit=True,
        hoa_exists=True,
        hoa_consent=False,
        hens=3,
        roosters=0,
        setback_feet=55,
        neighbour_consent=False,
    )
    assert [p.field for p in problems] == ["hoa_consent"]


def test_dodgeville_six_hens_and_a_rooster_are_refused():
    problems = chicken_permit_problems(
        Profile.named("dodgeville"),
        first_permit=True,
        hoa_exists=False,
        hoa_consent=False,
        hens=6,
        roosters=1,
        setback_feet=20,
        neighbour_consent=False,
    )
    assert {p.field for p in problems} == {"hens", "roosters"}


def test_dodgeville_renewal_on_3_march_costs_35():
    q = permit_quote("chicken", 2027, date(2027, 3, 3), Profile.named("dodgeville"), first=False)
    assert q.late and q.total == Decimal("35.00")


def test_village_second_and_third_violations_are_150_plus_court_costs():
    village = Profile.named("village")
    for n in (2, 3):
        p = penalty_for("12", n, village)
        assert p.forfeiture == Decimal("150.00") and p.plus_court_costs


def test_dodgeville_second_cruelty_offence_is_500_and_revocation_without_end():
    p = penalty_for("cruelty", 2, Profile.named("dodgeville"))
    assert p.forfeiture == Decimal("500.00") and p.revocation_months == 0
    g = penalty_for("12.16", 2, Profile.named("dodgeville"))
    assert g.forfeiture == Decimal("75.00") and g.revocation_months == 12
