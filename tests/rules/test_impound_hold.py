"""Impoundment holds, repeats, destruction and preservation (58-526, 58-522; RULES.md section 2)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import (
    explain_preserve_until,
    impound_hold,
    is_repeat_impoundment,
    may_destroy,
    preserve_until,
)

CHICAGO = ZoneInfo("America/Chicago")
D = date


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


HOLD_CASES = [
    # impounded_at, bit_person, last_claim_day, why
    (L(2026, 3, 2, 10, 15), False, D(2026, 3, 9), "Mon 2 Mar + 7 = Mon 9 Mar"),
    (L(2026, 3, 1, 10), False, D(2026, 3, 9), "Sun 1 Mar + 7 = Sun 8 Mar -> Mon 9"),
    (L(2026, 3, 2, 10), True, D(2026, 3, 12), "bite: Mon 2 Mar + 10 = Thu 12 Mar"),
    (L(2026, 3, 5, 10), True, D(2026, 3, 16), "bite: Thu 5 Mar + 10 = Sun 15 -> Mon 16"),
    (L(2026, 5, 18, 10), False, D(2026, 5, 26), "Memorial Day Mon 25 May -> Tue 26"),
    (L(2026, 5, 15, 10), True, D(2026, 5, 26), "bite: Fri 15 May + 10 = Memorial Day -> Tue 26"),
    (L(2027, 6, 27, 10), False, D(2027, 7, 6), "Sun 4 Jul 2027 + Mon 5 Jul holiday -> Tue 6"),
    (L(2026, 6, 27, 10), False, D(2026, 7, 6), "Sat 4 Jul 2026 holiday, Sun 5 -> Mon 6"),
    (L(2026, 12, 25, 10), False, D(2027, 1, 2), "Fri 1 Jan 2027 holiday -> Sat 2 Jan"),
    (L(2026, 12, 22, 10), True, D(2027, 1, 2), "bite: Tue 22 Dec + 10 = Fri 1 Jan -> Sat 2 Jan"),
    (L(2028, 2, 22, 10), False, D(2028, 2, 29), "leap day Tue 29 Feb 2028"),
    (L(2026, 11, 19, 10), False, D(2026, 11, 27), "Thanksgiving -> Fri 27 Nov"),
]


@pytest.mark.parametrize(("impounded_at", "bit", "last", "why"), HOLD_CASES)
def test_owner_claim_period(profile, impounded_at, bit, last, why):
    hold = impound_hold(impounded_at, profile, bit_person=bit)
    assert hold.last_claim_day == last, why
    expected_from = datetime.combine(last + timedelta(days=1), datetime.min.time(), tzinfo=CHICAGO)
    assert hold.release_to_others_from == expected_from
    assert hold.release_to_others_from.tzinfo.key == "America/Chicago"
    assert (hold.release_to_others_from.hour, hold.release_to_others_from.minute) == (0, 0)
    assert hold.custody_day == impounded_at.date()
    assert hold.hold_days == (10 if bit else 7)


def test_release_to_others_from_midnight_in_daylight_time(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    # Tue 10 Mar 00:00 is after the 8 Mar change: CDT, UTC-5.
    assert hold.release_to_others_from.utcoffset() == timedelta(hours=-5)
    assert hold.release_to_others_from == datetime(2026, 3, 10, 5, 0, tzinfo=UTC)


def test_is_over_at_the_first_instant_of_the_day_after(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    assert not hold.is_over(L(2026, 3, 9, 23, 59))
    assert not hold.is_over(datetime(2026, 3, 10, 4, 59, 59, tzinfo=UTC))
    assert hold.is_over(L(2026, 3, 10, 0, 0))
    assert hold.is_over(datetime(2026, 3, 10, 5, 0, tzinfo=UTC))
    with pytest.raises(ValueError):
        hold.is_over(datetime(2026, 3, 10, 12))


def test_custody_day_is_the_local_date(profile):
    # 04:30 UTC on 3 Mar is 22:30 CST on Mon 2 Mar.
    hold = impound_hold(datetime(2026, 3, 3, 4, 30, tzinfo=UTC), profile)
    assert hold.custody_day == D(2026, 3, 2)
    assert hold.last_claim_day == D(2026, 3, 9)
    assert hold.impounded_at.tzinfo.key == "America/Chicago"


def test_owner_surrender_is_unclaimed_at_once(profile):
    at = L(2026, 3, 2, 10, 15)
    hold = impound_hold(at, profile, surrendered=True)
    assert hold.hold_days == 0
    assert hold.release_to_others_from == at
    assert hold.last_claim_day == D(2026, 3, 2)
    assert hold.is_over(at)
    assert not hold.is_over(at - timedelta(seconds=1))
    assert "173.13" in hold.why["last_claim_day"]


def test_surrendered_biter_still_serves_the_bite_hold(profile):
    hold = impound_hold(L(2026, 3, 2, 10), profile, bit_person=True, surrendered=True)
    assert hold.last_claim_day == D(2026, 3, 12)
    assert hold.release_to_others_from == L(2026, 3, 13, 0)
    assert hold.surrendered and hold.bit_person
    assert not hold.is_over(L(2026, 3, 5, 10))


def test_hold_why_sentences(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    assert hold.why["last_claim_day"] == (
        "Owner may claim until Mon 9 Mar 2026: 7 days after impoundment on 2 Mar "
        "(city code 58-526(a), (b)(2)a; Wis. Stat. 173.19, 990.001(4))."
    )
    assert hold.why["release_to_others_from"] == (
        "May be adopted by someone else or humanely destroyed from the start of Tue 10 Mar 2026 "
        "(12:00 AM CDT), the day after the owner's last day to claim (city code 58-526(b)(2)a, (c))."
    )


def test_hold_why_explains_an_extension(profile):
    hold = impound_hold(L(2027, 6, 27, 10), profile)
    assert hold.why["last_claim_day"] == (
        "Owner may claim until Tue 6 Jul 2027: 7 days after impoundment on 27 Jun would end on "
        "Sun 4 Jul, a Sunday, and Mon 5 Jul is a legal holiday (Independence Day, observed on "
        "Monday), so the time runs to the next secular day "
        "(city code 58-526(a), (b)(2)a; Wis. Stat. 173.19, 990.001(4))."
    )
    bite = impound_hold(L(2026, 3, 5, 10), profile, bit_person=True)
    assert bite.why["last_claim_day"] == (
        "Owner may claim until Mon 16 Mar 2026: 10 days after impoundment on 5 Mar would end on "
        "Sun 15 Mar, a Sunday, so the time runs to the next secular day "
        "(city code 58-526(c); Wis. Stat. 990.001(4)). "
        "The hold is 10 days, not 7, because the animal bit a person."
    )
    surrendered = impound_hold(L(2026, 3, 5, 10), profile, bit_person=True, surrendered=True)
    assert surrendered.why["last_claim_day"].endswith("the owner's surrender does not shorten it.")


def test_hold_uses_profile_periods(profile):
    p = dataclasses.replace(profile, hold_days=5, bite_hold_days=14)
    assert impound_hold(L(2026, 3, 2, 10), p).last_claim_day == D(2026, 3, 7)  # Sat
    assert impound_hold(L(2026, 3, 2, 10), p, bit_person=True).last_claim_day == D(2026, 3, 16)


def test_naive_impoundment_raises(profile):
    with pytest.raises(ValueError, match="naive"):
        impound_hold(datetime(2026, 3, 2, 10), profile)


# --------------------------------------------------------------------------
# Repeat impoundment, 58-526(a)
# --------------------------------------------------------------------------

REPEAT_CASES = [
    # custody day, earlier days, repeat?, why
    (D(2026, 3, 2), [D(2026, 1, 2)], True, "59 days apart: one 60-day period"),
    (D(2026, 3, 3), [D(2026, 1, 2)], False, "60 days apart: no single 60-day period holds both"),
    (D(2026, 3, 2), [D(2026, 3, 2)], True, "the same day"),
    (D(2026, 3, 2), [D(2026, 3, 3)], False, "an 'earlier' day after this one is ignored"),
    (D(2026, 3, 2), [], False, "first impoundment"),
    (D(2026, 3, 2), [D(2025, 3, 2), D(2026, 2, 1)], True, "any earlier one in the window"),
    (D(2028, 3, 1), [D(2028, 1, 2)], True, "leap year: 59 days"),
    (D(2028, 3, 2), [D(2028, 1, 2)], False, "leap year: 60 days"),
    (D(2027, 1, 29), [D(2026, 12, 1)], True, "across the year end: 59 days"),
    (D(2027, 1, 30), [D(2026, 12, 1)], False, "across the year end: 60 days"),
]


@pytest.mark.parametrize(("day", "earlier", "expected", "why"), REPEAT_CASES)
def test_is_repeat_impoundment(profile, day, earlier, expected, why):
    assert is_repeat_impoundment(day, earlier, profile) is expected, why


def test_repeat_accepts_aware_instants_at_their_local_date(profile):
    # 03:00 UTC 2 Mar = Sun 1 Mar CST; 1 Jan -> 1 Mar is 59 days.
    assert is_repeat_impoundment(datetime(2026, 3, 2, 3, tzinfo=UTC), [D(2026, 1, 1)], profile)
    with pytest.raises(ValueError):
        is_repeat_impoundment(datetime(2026, 3, 2, 3), [D(2026, 1, 1)], profile)


def test_repeat_window_from_profile(profile):
    p = dataclasses.replace(profile, repeat_window_days=30)
    assert is_repeat_impoundment(D(2026, 3, 2), [D(2026, 2, 1)], p)  # 29 days
    assert not is_repeat_impoundment(D(2026, 3, 3), [D(2026, 2, 1)], p)  # 30 days


# --------------------------------------------------------------------------
# Humane destruction, 58-526(c) and Wis. Stat. 173.23(4); preservation, 58-522
# --------------------------------------------------------------------------


def test_may_destroy_only_after_the_hold(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    early = may_destroy(hold, L(2026, 3, 9, 18), hopeless_or_threat=False)
    assert not early.satisfied
    assert early.code == "destruction_allowed"
    assert "173.23(4)" in early.section and "58-526(c)" in early.section
    assert "Mon 9 Mar 2026 at 12 midnight CDT" in early.detail
    assert not early.overridable
    assert may_destroy(hold, L(2026, 3, 10, 0), hopeless_or_threat=False).satisfied


def test_may_destroy_early_when_hopeless_or_a_threat(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    req = may_destroy(hold, L(2026, 3, 3, 9), hopeless_or_threat=True)
    assert req.satisfied and req.detail == ""


def test_may_destroy_rejects_naive(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    with pytest.raises(ValueError):
        may_destroy(hold, datetime(2026, 3, 12), hopeless_or_threat=False)


@pytest.mark.parametrize(
    ("destroyed_at", "until"),
    [
        (L(2026, 3, 2, 9), D(2026, 3, 9)),
        (datetime(2026, 3, 3, 5, tzinfo=UTC), D(2026, 3, 9)),  # 23:00 CST 2 Mar
        (L(2026, 3, 1, 9), D(2026, 3, 8)),  # ends on a Sunday: a limit, not extended
        (L(2026, 5, 18, 9), D(2026, 5, 25)),  # Memorial Day: not extended
        (L(2026, 12, 28, 9), D(2027, 1, 4)),
        (L(2028, 2, 25, 9), D(2028, 3, 3)),  # across the leap day
    ],
)
def test_preserve_until(profile, destroyed_at, until):
    assert preserve_until(destroyed_at, profile) == until


def test_preserve_until_explains_itself(profile):
    text = explain_preserve_until(L(2026, 3, 1, 9), profile)
    assert text.startswith(
        "Preserve for a necropsy until Sun 8 Mar 2026: 7 days after euthanasia on 1 Mar"
    )
    assert "58-522" in text
    with pytest.raises(ValueError):
        preserve_until(datetime(2026, 3, 1, 9), profile)


def test_instants_compare_as_instants_on_the_night_clocks_fall_back(profile):
    # 1 Nov 2026: 01:00-02:00 happens twice. 01:10 CST (fold=1) is 07:10 UTC,
    # while 01:30 CDT (fold=0) is 06:30 UTC, 40 minutes EARLIER.
    surrendered_at = datetime(2026, 11, 1, 1, 10, fold=1, tzinfo=CHICAGO)
    before = datetime(2026, 11, 1, 1, 30, fold=0, tzinfo=CHICAGO)
    assert before.astimezone(UTC) < surrendered_at.astimezone(UTC)
    hold = impound_hold(surrendered_at, profile, surrendered=True)
    assert not hold.is_over(before)  # a wall-clock comparison would say it is over
    assert hold.is_over(surrendered_at)
    assert hold.release_to_others_from.astimezone(UTC) == datetime(2026, 11, 1, 7, 10, tzinfo=UTC)
