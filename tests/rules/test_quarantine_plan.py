"""Bite quarantine plans (58-527; Wis. Stat. 95.21; RULES.md section 3)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import plan_after_broken_home, quarantine_plan
from fieldops.rules.quarantine import certification_refused, extend_observation, required_exams

CHICAGO = ZoneInfo("America/Chicago")
D = date


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


def test_home_quarantine(profile):
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=True, rabies_proof=True
    )
    assert plan.placement == "home"
    assert plan.deliver_by is None
    assert plan.first_exam_day == D(2026, 3, 2)
    assert plan.intervening_exam_window == (D(2026, 3, 3), D(2026, 3, 11))
    assert plan.last_day == D(2026, 3, 12)  # Thu
    assert plan.certificate_due == D(2026, 3, 17)  # Tue
    assert plan.exams_required == 3
    assert plan.notes == ()
    assert "58-527(b)" in plan.why["placement"]
    assert "deliver_by" not in plan.why


@pytest.mark.parametrize(
    ("owner_known", "proof", "section"),
    [(True, False, "58-527(c)"), (False, False, "58-527(e)"), (False, True, "58-527(e)")],
)
def test_clinic_quarantine(profile, owner_known, proof, section):
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=owner_known, rabies_proof=proof
    )
    assert plan.placement == "clinic"
    assert plan.deliver_by == L(2026, 3, 3, 11)
    assert section in plan.why["placement"]
    assert plan.why["deliver_by"].startswith(
        "Deliver to a licensed veterinary clinic by Tue 3 Mar 2026 11:00 AM CST: 24 real hours after the order"
    )


@pytest.mark.parametrize(
    ("ordered_at", "deliver_by", "why"),
    [
        (L(2026, 3, 7, 20), L(2026, 3, 8, 21), "spring forward: 24 real hours end at 21:00 CDT"),
        (L(2026, 10, 31, 20), L(2026, 11, 1, 19), "fall back: 24 real hours end at 19:00 CST"),
        (L(2026, 12, 24, 15), L(2026, 12, 25, 15), "Sundays and holidays are not excluded"),
        (L(2026, 12, 31, 18), L(2027, 1, 1, 18), "year end"),
        (L(2028, 2, 28, 8), L(2028, 2, 29, 8), "leap day"),
    ],
)
def test_clinic_delivery_is_real_hours(profile, ordered_at, deliver_by, why):
    plan = quarantine_plan(
        ordered_at - timedelta(hours=1), ordered_at, profile, owner_known=True, rabies_proof=False
    )
    assert plan.deliver_by == deliver_by, why
    assert plan.deliver_by.utcoffset() == deliver_by.utcoffset()
    assert plan.deliver_by.astimezone(UTC) - ordered_at.astimezone(UTC) == timedelta(hours=24)


QUARANTINE_DATES = [
    # bite day, last day (never extended), certificate due (extended), why
    (D(2026, 3, 2), D(2026, 3, 12), D(2026, 3, 17), "Mon bite: Thu 12, Tue 17"),
    (D(2026, 3, 5), D(2026, 3, 15), D(2026, 3, 20), "last day Sun 15 Mar stays a Sunday"),
    (
        D(2026, 5, 15),
        D(2026, 5, 25),
        D(2026, 5, 30),
        "last day on Memorial Day stays; cert Sat 30 May",
    ),
    (D(2026, 2, 21), D(2026, 3, 3), D(2026, 3, 9), "cert Sun 8 Mar -> Mon 9 Mar"),
    (D(2026, 11, 11), D(2026, 11, 21), D(2026, 11, 27), "cert on Thanksgiving -> Fri 27 Nov"),
    (
        D(2026, 12, 22),
        D(2027, 1, 1),
        D(2027, 1, 6),
        "last day New Year's Day, not extended; cert Wed 6 Jan",
    ),
    (D(2026, 12, 17), D(2026, 12, 27), D(2027, 1, 2), "cert Fri 1 Jan 2027 -> Sat 2 Jan"),
    (D(2027, 6, 19), D(2027, 6, 29), D(2027, 7, 6), "cert Sun 4 Jul, Mon 5 Jul holiday -> Tue 6"),
    (D(2028, 2, 20), D(2028, 3, 1), D(2028, 3, 6), "leap year: Wed 1 Mar, Mon 6 Mar"),
    (D(2026, 2, 20), D(2026, 3, 2), D(2026, 3, 7), "no leap day: Mon 2 Mar, Sat 7 Mar"),
    (D(2026, 9, 22), D(2026, 10, 2), D(2026, 10, 7), "month end"),
]


@pytest.mark.parametrize(("bite", "last", "due", "why"), QUARANTINE_DATES)
def test_observation_and_certificate_dates(profile, bite, last, due, why):
    bitten = L(bite.year, bite.month, bite.day, 16)
    plan = quarantine_plan(
        bitten, bitten + timedelta(hours=2), profile, owner_known=True, rabies_proof=True
    )
    assert plan.last_day == last, why
    assert plan.certificate_due == due, why
    assert plan.bite_day == bite


def test_last_day_why_says_it_is_not_extended(profile):
    plan = quarantine_plan(
        L(2026, 3, 5, 9), L(2026, 3, 5, 10), profile, owner_known=True, rabies_proof=True
    )
    assert plan.why["last_day"].startswith(
        "Observation ends on Sun 15 Mar 2026: 10 days after the bite on 5 Mar"
    )
    assert "not extended" in plan.why["last_day"]
    cert = quarantine_plan(
        L(2026, 2, 21, 9), L(2026, 2, 21, 10), profile, owner_known=True, rabies_proof=True
    )
    assert cert.why["certificate_due"] == (
        "Certification of quarantine due by Mon 9 Mar 2026: 15 days after the bite on 21 Feb "
        "would end on Sun 8 Mar, a Sunday, so the time runs to the next secular day "
        "(city code 58-527(d); Wis. Stat. 990.001(4))."
    )


def test_bite_day_is_local(profile):
    # 03:00 UTC on 3 Mar is 21:00 CST on 2 Mar.
    plan = quarantine_plan(
        datetime(2026, 3, 3, 3, tzinfo=UTC),
        datetime(2026, 3, 3, 4, tzinfo=UTC),
        profile,
        owner_known=True,
        rabies_proof=True,
    )
    assert (plan.bite_day, plan.first_exam_day, plan.last_day) == (
        D(2026, 3, 2),
        D(2026, 3, 2),
        D(2026, 3, 12),
    )
    assert plan.bitten_at.tzinfo.key == "America/Chicago"


def test_order_the_next_day_moves_first_exam_not_last(profile):
    plan = quarantine_plan(
        L(2026, 3, 2, 22), L(2026, 3, 3, 9), profile, owner_known=True, rabies_proof=True
    )
    assert plan.first_exam_day == D(2026, 3, 3)
    assert plan.intervening_exam_window == (D(2026, 3, 4), D(2026, 3, 11))
    assert plan.last_day == D(2026, 3, 12)


def test_order_too_late_for_an_intervening_exam(profile):
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 11, 9), profile, owner_known=True, rabies_proof=True
    )
    assert plan.intervening_exam_window is None
    assert plan.notes and "intervening" in plan.notes[0]
    same = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 12, 9), profile, owner_known=True, rabies_proof=True
    )
    assert same.first_exam_day == same.last_day
    assert len(same.notes) == 2


def test_impossible_orders_raise(profile):
    with pytest.raises(ValueError, match="before"):
        quarantine_plan(
            L(2026, 3, 2, 9), L(2026, 3, 2, 8), profile, owner_known=True, rabies_proof=True
        )
    with pytest.raises(ValueError, match="ended"):
        quarantine_plan(
            L(2026, 3, 2, 9), L(2026, 3, 13, 9), profile, owner_known=True, rabies_proof=True
        )
    with pytest.raises(ValueError, match="naive"):
        quarantine_plan(
            datetime(2026, 3, 2, 9), L(2026, 3, 2, 10), profile, owner_known=True, rabies_proof=True
        )


def test_two_exam_local_program(profile):
    p = dataclasses.replace(profile, exams_required=2)
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), p, owner_known=True, rabies_proof=True
    )
    assert plan.exams_required == 2
    assert plan.intervening_exam_window is None
    assert plan.notes == ()
    assert "ATCP 13.03(3)" in plan.why["last_day"]


def test_broken_home_quarantine_moves_to_clinic(profile):
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=True, rabies_proof=True
    )
    moved = plan_after_broken_home(plan, L(2026, 3, 6, 15, 30), profile)
    assert moved.placement == "clinic"
    assert moved.deliver_by == L(2026, 3, 7, 15, 30)
    assert moved.broken_home_at == L(2026, 3, 6, 15, 30)
    for unchanged in (
        "first_exam_day",
        "intervening_exam_window",
        "last_day",
        "certificate_due",
        "exams_required",
    ):
        assert getattr(moved, unchanged) == getattr(plan, unchanged), unchanged
    assert "balance of the observation period" in moved.why["placement"]
    assert "after it was found" in moved.why["deliver_by"]
    assert plan.placement == "home"  # the original is untouched


def test_broken_home_errors(profile):
    home = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=True, rabies_proof=True
    )
    clinic = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=True, rabies_proof=False
    )
    with pytest.raises(ValueError, match="home"):
        plan_after_broken_home(clinic, L(2026, 3, 6, 15), profile)
    with pytest.raises(ValueError, match="ended"):
        plan_after_broken_home(home, L(2026, 3, 13, 0, 1), profile)
    with pytest.raises(ValueError, match="before"):
        plan_after_broken_home(home, L(2026, 3, 2, 10), profile)
    with pytest.raises(ValueError, match="naive"):
        plan_after_broken_home(home, datetime(2026, 3, 6, 15), profile)
    # still inside the last day: allowed
    assert plan_after_broken_home(home, L(2026, 3, 12, 23, 59), profile).placement == "clinic"


def test_order_and_bite_compare_as_instants_when_clocks_fall_back(profile):
    bitten = datetime(2026, 11, 1, 1, 40, fold=0, tzinfo=CHICAGO)  # 06:40 UTC (CDT)
    ordered = datetime(2026, 11, 1, 1, 20, fold=1, tzinfo=CHICAGO)  # 07:20 UTC (CST), later
    plan = quarantine_plan(bitten, ordered, profile, owner_known=True, rabies_proof=False)
    assert plan.deliver_by.astimezone(UTC) == datetime(2026, 11, 2, 7, 20, tzinfo=UTC)
    assert (plan.deliver_by.hour, plan.deliver_by.minute) == (1, 20)  # 01:20 CST Mon
    with pytest.raises(ValueError, match="before"):
        quarantine_plan(ordered, bitten, profile, owner_known=True, rabies_proof=False)


def test_an_extension_makes_room_for_the_intervening_exam_an_order_came_too_late_for(profile):
    """58-527(b): first, last and one examination strictly between. An order the day before
    the last day leaves no day between; the rules' note says the veterinarian may extend
    the period, and once extended, the intervening examination is required again."""
    plan = quarantine_plan(
        L(2026, 3, 2, 10), L(2026, 3, 11, 9), profile, owner_known=False, rabies_proof=False
    )
    assert plan.intervening_exam_window is None
    assert any("extend" in n for n in plan.notes)
    longer = extend_observation(plan, D(2026, 3, 16), "Dr. Kim", profile)
    assert longer.intervening_exam_window == (D(2026, 3, 12), D(2026, 3, 15))
    assert [slot for slot, _a, _b in required_exams(longer)] == ["first", "intervening", "last"]
    assert not any("extend" in n for n in longer.notes)
    # Extended by one day: 12 Mar, the old last day, is now the one day between.
    one_more = extend_observation(plan, D(2026, 3, 13), "Dr. Kim", profile)
    assert one_more.intervening_exam_window == (D(2026, 3, 12), D(2026, 3, 12))
    two = dataclasses.replace(profile, exams_required=2)
    short = quarantine_plan(
        L(2026, 3, 2, 10), L(2026, 3, 11, 9), two, owner_known=False, rabies_proof=False
    )
    assert extend_observation(short, D(2026, 3, 16), "Dr. Kim", two).intervening_exam_window is None


def test_certification_is_refused_after_any_finding_of_signs_of_rabies():
    fine = [("first", "no_signs"), ("intervening", "no_signs"), ("last", "no_signs")]
    assert certification_refused(fine) == ""
    assert certification_refused([*fine, (None, "no_signs")]) == ""
    signs = [("first", "no_signs"), ("intervening", "signs_of_rabies"), ("last", "no_signs")]
    assert certification_refused(signs)
    assert certification_refused([("first", "no_signs"), (None, "signs_of_rabies")])
    assert certification_refused([("first", "no_signs"), ("last", "died")])
