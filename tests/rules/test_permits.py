"""Chicken and animal fancier's permits and petitions (RULES.md sections 7-8; 58-533, 58-534)."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

import pytest

from fieldops.rules import (
    ChickenRules,
    FancierRules,
    Profile,
    chicken_permit_problems,
    chicken_renewal,
    chickens_missing,
    explain_fancier_list_update_due,
    fancier_list_update_due,
    fancier_renewal,
    permit_quote,
    petition_missing,
)

CITY = Profile.default()
DODGEVILLE = Profile.named("dodgeville")
VILLAGE = Profile.named("village")

GOOD = {
    "first_permit": True,
    "hoa_exists": True,
    "hoa_consent": True,
    "hens": 4,
    "roosters": 0,
    "setback_feet": 60,
    "neighbour_consent": False,
}


def problems(profile, **kw):
    return chicken_permit_problems(profile, **{**GOOD, **kw})


def codes(profile, **kw):
    return [(p.code, p.field) for p in problems(profile, **kw)]


# -- Chicken permit (58-533(b)) ----------------------------------------------------------------


def test_a_complete_city_application_has_no_problems():
    assert problems(CITY) == ()


def test_a_first_permit_needs_the_associations_written_consent():
    assert codes(CITY, hoa_consent=False) == [("hoa_consent_missing", "hoa_consent")]
    assert "association" in problems(CITY, hoa_consent=False)[0].message


def test_no_association_no_consent_needed():
    assert codes(CITY, hoa_exists=False, hoa_consent=False) == []


def test_a_renewal_needs_no_association_consent():
    assert codes(CITY, first_permit=False, hoa_consent=False) == []


def test_city_roosters_are_prohibited():
    assert codes(CITY, roosters=1) == [("roosters_not_allowed", "roosters")]


def test_city_setback_50_feet_or_less_with_the_neighbours_written_consent():
    assert codes(CITY, setback_feet=50) == []
    assert codes(CITY, setback_feet=49) == [("setback_too_short", "setback_feet")]
    assert codes(CITY, setback_feet=10, neighbour_consent=True) == []
    assert "consent" in problems(CITY, setback_feet=49)[0].message


def test_city_sets_no_hen_limit_in_the_text_we_hold():
    assert CITY.chickens.hens_max is None
    assert codes(CITY, hens=40) == []


def test_dodgeville_hens_only_at_most_five_no_roosters():
    assert codes(DODGEVILLE, hens=5, setback_feet=15) == []
    assert codes(DODGEVILLE, hens=6, setback_feet=15) == [("too_many_hens", "hens")]
    assert codes(DODGEVILLE, roosters=1) == [("roosters_not_allowed", "roosters")]
    assert "12.16" in problems(DODGEVILLE, hens=6)[0].message


def test_dodgeville_setback_is_not_waived_by_consent():
    assert codes(DODGEVILLE, setback_feet=14, neighbour_consent=True) == [
        ("setback_too_short", "setback_feet")
    ]


def test_dodgeville_and_village_ask_no_association_consent():
    assert codes(DODGEVILLE, hoa_consent=False) == []
    assert codes(VILLAGE, hoa_consent=False) == []


def test_village_setback_three_feet():
    assert codes(VILLAGE, setback_feet=3) == []
    assert codes(VILLAGE, setback_feet=2) == [("setback_too_short", "setback_feet")]


def test_several_problems_are_all_listed_in_form_order():
    got = codes(DODGEVILLE, hoa_consent=False, hens=9, roosters=2, setback_feet=1)
    assert got == [
        ("too_many_hens", "hens"),
        ("roosters_not_allowed", "roosters"),
        ("setback_too_short", "setback_feet"),
    ]


def test_negative_counts_are_problems_on_their_fields():
    got = codes(CITY, hens=-1, roosters=-1, setback_feet=-1)
    assert [f for _, f in got] == ["hens", "roosters", "setback_feet"]


def test_a_permit_for_no_chickens_at_all_is_missing_its_hens():
    # 0 hens was an application with no problem: issued, it is a permit for nothing.
    for profile in (CITY, DODGEVILLE, VILLAGE):
        assert chickens_missing(profile, hens=1, roosters=0) == ""
        assert "at least 1" in chickens_missing(profile, hens=0, roosters=0)
    # a rooster alone counts only where roosters are allowed
    assert chickens_missing(CITY, hens=0, roosters=2) != ""
    roosters_ok = dataclasses.replace(
        CITY, chickens=dataclasses.replace(CITY.chickens, roosters_allowed=True)
    )
    assert chickens_missing(roosters_ok, hens=0, roosters=2) == ""
    with pytest.raises(ValueError, match="hens"):
        chickens_missing(CITY, hens=None, roosters=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["hens", "roosters", "setback_feet"])
def test_counts_that_are_not_numbers_raise_naming_them(name):
    with pytest.raises(ValueError, match=name):
        problems(CITY, **{name: "4"})


# -- Chicken permit renewal after complaints (village ch. 12 (h)) ----------------------------

R = date(2026, 9, 1)


@pytest.mark.parametrize(
    ("complaints", "violations", "renew"),
    [
        ([(date(2026, 1, 5), 50), (date(2026, 3, 5), 100), (date(2026, 9, 1), 20)], [R], False),
        # a violation is needed as well as the complaints
        ([(date(2026, 1, 5), 50), (date(2026, 3, 5), 100), (date(2026, 9, 1), 20)], [], True),
        # the third complaint is from beyond 100 feet
        ([(date(2026, 1, 5), 50), (date(2026, 3, 5), 101), (date(2026, 9, 1), 20)], [R], True),
        # the first complaint is exactly 12 months before the review: outside
        ([(date(2025, 9, 1), 50), (date(2026, 3, 5), 100), (date(2026, 9, 1), 20)], [R], True),
        # the violation was found more than 12 months ago
        ([(date(2026, 1, 5), 5)] * 3, [date(2025, 8, 1)], True),
    ],
)
def test_village_three_near_complaints_and_a_violation_stop_renewal(complaints, violations, renew):
    d = chicken_renewal(R, VILLAGE, complaints=complaints, violations=violations)
    assert d.renew is renew
    assert (d.may_reapply_on is None) is renew
    if not renew:
        assert d.may_reapply_on == date(2031, 9, 1)  # no new permit for 5 years
        assert "5 years" in d.why and "ch. 12" in d.why


def test_the_city_and_dodgeville_have_no_complaint_test_for_renewal():
    many = [(date(2026, 5, 1), 1)] * 9
    for p in (CITY, DODGEVILLE):
        assert chicken_renewal(R, p, complaints=many, violations=[R]).renew


def test_chicken_renewal_refuses_bad_complaints():
    with pytest.raises(ValueError, match="complaints"):
        chicken_renewal(R, VILLAGE, complaints=[date(2026, 1, 1)], violations=[])


# -- Permit quotes --------------------------------------------------------------------------


def test_dodgeville_first_permit_is_application_plus_first_annual_fee():
    q = permit_quote("chicken", 2026, date(2026, 6, 15), DODGEVILLE, first=True)
    assert (q.application_fee, q.annual_fee, q.late_fee) == (
        Decimal("25.00"),
        Decimal("25.00"),
        Decimal("0.00"),
    )
    assert q.total == Decimal("50.00")
    assert not q.late and q.due_by is None


def test_dodgeville_annual_fee_is_not_prorated():
    for month in (1, 6, 12):
        q = permit_quote("chicken", 2026, date(2026, month, 1), DODGEVILLE, first=False)
        assert q.annual_fee == Decimal("25.00")
    assert "not prorated" in q.why["annual_fee"]


def test_dodgeville_renewal_after_march_1_pays_10():
    # 1 Mar 2027 is a Monday: on time that day, late the next
    on_time = permit_quote("chicken", 2027, date(2027, 3, 1), DODGEVILLE, first=False)
    late = permit_quote("chicken", 2027, date(2027, 3, 2), DODGEVILLE, first=False)
    assert (on_time.late, on_time.total, on_time.due_by) == (
        False,
        Decimal("25.00"),
        date(2027, 3, 1),
    )
    assert (late.late, late.late_fee, late.total) == (True, Decimal("10.00"), Decimal("35.00"))
    assert "Late fee $10.00" in late.why["late_fee"]


def test_a_renewal_day_on_a_sunday_runs_to_monday():
    q = permit_quote("chicken", 2026, date(2026, 3, 2), DODGEVILLE, first=False)
    assert date(2026, 3, 1).weekday() == 6
    assert q.due_by == date(2026, 3, 2) and not q.late
    # It read "a renewal after 1 March pays the late fee would end on Sun 1 Mar": the day
    # does not end, the time to renew does.
    assert "late fee would end" not in q.why["due_by"]
    assert "; the time to renew would end on Sun 1 Mar, a Sunday" in q.why["due_by"]


def test_a_renewal_before_the_year_is_allowed_and_on_time():
    q = permit_quote("chicken", 2027, date(2026, 12, 20), DODGEVILLE, first=False)
    assert not q.late and q.application_fee == 0


def test_an_application_for_a_year_already_past_is_refused():
    with pytest.raises(ValueError, match="applied_on"):
        permit_quote("chicken", 2026, date(2027, 1, 5), DODGEVILLE, first=False)


def test_city_permit_has_no_late_day():
    q = permit_quote("chicken", 2026, date(2026, 11, 30), CITY, first=False)
    assert q.due_by is None and not q.late and q.total == CITY.chickens.annual_fee


def test_a_prorated_fee_counts_the_months_left_including_this_one():
    p = dataclasses.replace(
        CITY, chickens=dataclasses.replace(CITY.chickens, prorated=True, annual_fee=Decimal("24"))
    )
    assert permit_quote("chicken", 2026, date(2026, 1, 20), p, first=True).annual_fee == 24
    assert permit_quote("chicken", 2026, date(2026, 7, 1), p, first=True).annual_fee == 12
    assert permit_quote("chicken", 2026, date(2026, 12, 31), p, first=True).annual_fee == 2


def test_city_fancier_permit_costs_nothing_beyond_the_dog_licences():
    q = permit_quote("fancier", 2026, date(2026, 2, 1), CITY, first=True)
    assert q.total == 0
    assert set(q.why) == {"application_fee", "annual_fee", "due_by", "late_fee", "total"}


def test_an_unknown_permit_kind_is_refused_naming_kind():
    with pytest.raises(ValueError, match="kind"):
        permit_quote("pigeon", 2026, date(2026, 2, 1), CITY, first=True)


# -- Animal fancier's permit (58-533(a)) ----------------------------------------------------


REVIEW = date(2026, 6, 15)


@pytest.mark.parametrize(
    ("incidents", "renew", "counted"),
    [
        ([], True, ()),
        ([date(2026, 1, 1), date(2026, 2, 1)], True, (date(2026, 1, 1), date(2026, 2, 1))),
        # three inside: not renewed; counted oldest first
        (
            [date(2026, 6, 15), date(2025, 6, 16), date(2026, 1, 1)],
            False,
            (date(2025, 6, 16), date(2026, 1, 1), date(2026, 6, 15)),
        ),
        # exactly 12 months before is outside the window
        ([date(2025, 6, 15), date(2026, 1, 1), date(2026, 2, 1)], True, None),
        # after the review day is outside too
        ([date(2026, 6, 16), date(2026, 1, 1), date(2026, 2, 1)], True, None),
        # two on one day are two separate incidents
        ([date(2026, 3, 3), date(2026, 3, 3), date(2026, 4, 4)], False, None),
    ],
)
def test_fancier_renewal(incidents, renew, counted):
    d = fancier_renewal(incidents, REVIEW, CITY)
    assert d.renew is renew
    if counted is not None:
        assert d.counted == counted
    assert d.window_after == date(2025, 6, 15)
    assert "58-533(a)" in d.why["renew"]


def test_the_window_of_a_feb_29_review_starts_from_feb_28():
    d = fancier_renewal([date(2027, 2, 28), date(2027, 3, 1)], date(2028, 2, 29), CITY)
    assert d.window_after == date(2027, 2, 28)
    assert d.counted == (date(2027, 3, 1),)


def test_appeal_is_due_30_days_after_the_certified_mail_notice():
    d = fancier_renewal([date(2026, 1, 1)] * 3, REVIEW, CITY)
    assert d.appeal_by(date(2026, 6, 20)) == date(2026, 7, 20)
    # 2 Dec + 30 = Fri 1 Jan 2027, New Year's Day: Saturday 2 Jan is a secular day
    assert d.appeal_by(date(2026, 12, 2)) == date(2027, 1, 2)
    assert "certified mail" in d.explain_appeal_by(date(2026, 12, 2))


def test_incident_days_must_be_dates():
    with pytest.raises(ValueError, match="incident_days"):
        fancier_renewal(["2026-01-01"], REVIEW, CITY)


def test_list_of_animals_is_updated_within_30_days_of_a_change():
    assert fancier_list_update_due(date(2026, 3, 2), CITY) == date(2026, 4, 1)
    # 4 Jun + 30 = Sat 4 Jul (Independence Day), then Sunday: Monday 6 Jul
    assert fancier_list_update_due(date(2026, 6, 4), CITY) == date(2026, 7, 6)
    assert "30 days" in explain_fancier_list_update_due(date(2026, 6, 4), CITY)


def test_the_profile_sets_the_fancier_numbers():
    p = dataclasses.replace(CITY, fancier=FancierRules(incidents_for_nonrenewal=2, appeal_days=10))
    assert not fancier_renewal([date(2026, 1, 1)] * 2, REVIEW, p).renew
    assert fancier_renewal([], REVIEW, p).appeal_by(date(2026, 6, 1)) == date(2026, 6, 11)


# -- Petitions (58-534(a)) ------------------------------------------------------------------

COMPLETE = {
    "petitioners": [{"name": "A. Neighbour", "phone": "555-0100", "address": "1 Elm St"}],
    "animal": "Brown dog, 3 Oak St (owner J. Doe)",
    "violations": "2026-05-01 21:00 barking for two hours",
    "reported_on": [date(2026, 5, 2)],
    "will_testify": True,
}


def test_a_complete_petition_misses_nothing():
    assert petition_missing(COMPLETE) == ()


@pytest.mark.parametrize("empty", [None, "", "   ", [], {}, False])
def test_absent_none_empty_or_false_is_missing(empty):
    for key in COMPLETE:
        assert petition_missing({**COMPLETE, key: empty}) == (key,)
        assert petition_missing({k: v for k, v in COMPLETE.items() if k != key}) == (key,)


def test_missing_keys_come_in_the_ordinances_order():
    assert petition_missing({}) == (
        "petitioners",
        "animal",
        "violations",
        "reported_on",
        "will_testify",
    )
    assert petition_missing({"will_testify": True, "animal": "cat"}) == (
        "petitioners",
        "violations",
        "reported_on",
    )


def test_chicken_rules_refuse_bad_values_naming_the_key():
    with pytest.raises(ValueError, match=r"permits\.chicken\.hens_max"):
        ChickenRules(hens_max=-1)
    with pytest.raises(ValueError, match=r"permits\.chicken\.renew_by"):
        ChickenRules(renew_by=(2, 30))
    with pytest.raises(ValueError, match="application_fee"):
        ChickenRules(application_fee=Decimal("-1"))
