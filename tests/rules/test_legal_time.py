"""Legal time, RULES.md section 1: Wis. Stat. 990.001(4) and the 995.20 holidays.

Every expected date here was worked out by hand against a calendar; weekdays
are written next to them so a reviewer can check.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import (
    deadline_after_days,
    deadline_after_hours,
    holiday_name,
    hours_period,
    is_excluded_day,
    is_legal_holiday,
    next_secular_day,
    standard_holidays,
    start_of_local_day,
    vicious_notice_deadline,
)

CHICAGO = ZoneInfo("America/Chicago")

D = date


# --------------------------------------------------------------------------
# Holidays
# --------------------------------------------------------------------------

HOLIDAYS_2026 = {
    D(2026, 1, 1): "New Year's Day",  # Thu
    D(2026, 1, 19): "Martin Luther King, Jr. Day",  # 3rd Mon
    D(2026, 2, 16): "Washington-Lincoln Day",  # 3rd Mon
    D(2026, 5, 25): "Memorial Day",  # last Mon
    D(2026, 7, 4): "Independence Day",  # Sat: stays on the Saturday
    D(2026, 9, 7): "Labor Day",  # 1st Mon
    D(2026, 10, 12): "Columbus Day",  # 2nd Mon
    D(2026, 11, 11): "Veterans Day",  # Wed
    D(2026, 11, 26): "Thanksgiving Day",  # 4th Thu
    D(2026, 12, 25): "Christmas Day",  # Fri
}

HOLIDAYS_2027 = {
    D(2027, 1, 1),  # Fri
    D(2027, 1, 18),
    D(2027, 2, 15),
    D(2027, 5, 31),
    D(2027, 7, 5),  # Jul 4 is a Sunday: Monday Jul 5 is the holiday
    D(2027, 9, 6),
    D(2027, 10, 11),
    D(2027, 11, 11),  # Thu
    D(2027, 11, 25),
    D(2027, 12, 25),  # Sat: stays
}


def test_2026_calendar_is_exactly_the_ten_statutory_holidays():
    assert dict(standard_holidays(2026)) == HOLIDAYS_2026


def test_2027_calendar_moves_sunday_july_4_to_monday():
    assert set(standard_holidays(2027)) == HOLIDAYS_2027
    assert standard_holidays(2027)[D(2027, 7, 5)] == "Independence Day, observed on Monday"


@pytest.mark.parametrize(
    ("sunday", "monday"),
    [
        (D(2023, 1, 1), D(2023, 1, 2)),  # New Year's Day on a Sunday
        (D(2027, 7, 4), D(2027, 7, 5)),  # Independence Day
        (D(2029, 11, 11), D(2029, 11, 12)),  # Veterans Day
        (D(2022, 12, 25), D(2022, 12, 26)),  # Christmas Day
        (D(2034, 1, 1), D(2034, 1, 2)),
    ],
)
def test_fixed_holiday_on_sunday_makes_monday_the_holiday(profile, sunday, monday):
    assert sunday.weekday() == 6
    assert is_legal_holiday(monday, profile)
    assert not is_legal_holiday(sunday, profile)  # the Monday is the holiday ...
    assert is_excluded_day(sunday, profile)  # ... and the Sunday is excluded anyway


@pytest.mark.parametrize(
    "day",
    [
        D(2026, 7, 3),  # Fri before a Saturday Jul 4: nothing moves to Friday
        D(2027, 12, 24),  # Fri before a Saturday Christmas
        D(2026, 12, 24),
        D(2026, 12, 31),
        D(2026, 4, 3),  # Good Friday is not a statewide legal holiday here
        D(2026, 11, 3),  # election day: only when the clerk adds it
        D(2026, 1, 12),  # 2nd Monday of January
        D(2026, 5, 18),  # not the last Monday of May
    ],
)
def test_ordinary_days_are_not_holidays(profile, day):
    assert not is_legal_holiday(day, profile)


def test_clerk_added_date_is_a_holiday(profile):
    p = dataclasses.replace(profile, extra_holidays=frozenset({D(2026, 11, 3)}))
    assert is_legal_holiday(D(2026, 11, 3), p)
    assert holiday_name(D(2026, 11, 3), p) == "holiday added by the city clerk"
    assert holiday_name(D(2026, 11, 26), p) == "Thanksgiving Day"


def test_saturday_is_secular_sunday_is_not(profile):
    assert next_secular_day(D(2026, 3, 7), profile) == D(2026, 3, 7)  # Sat
    assert next_secular_day(D(2026, 3, 8), profile) == D(2026, 3, 9)  # Sun -> Mon


# --------------------------------------------------------------------------
# Days: 990.001(4)(a),(b),(d)
# --------------------------------------------------------------------------

DAY_CASES = [
    # event, days, expected, why
    (D(2026, 3, 2), 7, D(2026, 3, 9), "Mon + 7 = Mon"),
    (D(2026, 3, 1), 7, D(2026, 3, 9), "Sun + 7 = Sun 8 Mar -> Mon 9"),
    (D(2026, 3, 7), 7, D(2026, 3, 14), "ends on a Saturday: Saturday is secular"),
    (D(2026, 1, 12), 7, D(2026, 1, 20), "Mon 19 Jan is MLK Day -> Tue"),
    (D(2026, 2, 9), 7, D(2026, 2, 17), "Mon 16 Feb is Washington-Lincoln Day -> Tue"),
    (D(2026, 5, 18), 7, D(2026, 5, 26), "Mon 25 May is Memorial Day -> Tue"),
    (D(2026, 6, 27), 7, D(2026, 7, 6), "Sat 4 Jul holiday, Sun 5 -> Mon 6"),
    (D(2027, 6, 27), 7, D(2027, 7, 6), "Sun 4 Jul, Mon 5 Jul holiday -> Tue 6"),
    (D(2026, 8, 31), 7, D(2026, 9, 8), "Mon 7 Sep is Labor Day -> Tue"),
    (D(2026, 10, 5), 7, D(2026, 10, 13), "Mon 12 Oct is Columbus Day -> Tue"),
    (D(2026, 11, 4), 7, D(2026, 11, 12), "Wed 11 Nov is Veterans Day -> Thu"),
    (D(2026, 11, 19), 7, D(2026, 11, 27), "Thu 26 Nov is Thanksgiving -> Fri"),
    (D(2026, 12, 18), 7, D(2026, 12, 26), "Fri 25 Dec is Christmas -> Sat 26"),
    (D(2025, 12, 25), 7, D(2026, 1, 2), "year end: Thu 1 Jan 2026 -> Fri 2 Jan"),
    (D(2026, 12, 25), 7, D(2027, 1, 2), "year end: Fri 1 Jan 2027 -> Sat 2 Jan"),
    (D(2022, 12, 18), 7, D(2022, 12, 27), "Sun 25 Dec and Mon 26 Dec (observed) -> Tue"),
    (D(2026, 1, 31), 7, D(2026, 2, 7), "month end, Sat 7 Feb"),
    (D(2026, 4, 30), 10, D(2026, 5, 11), "month end, Sun 10 May -> Mon 11"),
    (D(2028, 2, 22), 7, D(2028, 2, 29), "leap day, Tue 29 Feb 2028"),
    (D(2028, 2, 25), 10, D(2028, 3, 6), "across a leap day, Mon 6 Mar 2028"),
    (D(2026, 2, 21), 15, D(2026, 3, 9), "Sat + 15 = Sun 8 Mar -> Mon 9"),
    (D(2026, 11, 11), 15, D(2026, 11, 27), "Thanksgiving -> Fri 27 Nov"),
    (D(2026, 12, 17), 15, D(2027, 1, 2), "Fri 1 Jan 2027 -> Sat 2 Jan"),
    (D(2026, 3, 2), 0, D(2026, 3, 2), "zero days: the day itself"),
]


@pytest.mark.parametrize(("event", "days", "expected", "why"), DAY_CASES)
def test_deadline_after_days(profile, event, days, expected, why):
    assert deadline_after_days(event, days, profile) == expected, why


def test_clerk_added_date_extends_a_period(profile):
    p = dataclasses.replace(profile, extra_holidays=frozenset({D(2026, 11, 3)}))
    assert deadline_after_days(D(2026, 10, 27), 7, profile) == D(2026, 11, 3)
    assert deadline_after_days(D(2026, 10, 27), 7, p) == D(2026, 11, 4)


def test_aware_datetime_event_is_taken_at_its_local_date(profile):
    # 03:00 UTC on 2 Mar is 21:00 CST on Sun 1 Mar: the local date counts.
    event = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)
    assert deadline_after_days(event, 7, profile) == D(2026, 3, 9)
    event = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # 03:00 CST Mon 2 Mar
    assert deadline_after_days(event, 6, profile) == D(2026, 3, 9)  # Sun 8 -> Mon 9


@pytest.mark.parametrize("bad", [-1, 1.5, True, "7", None])
def test_bad_day_counts_raise(profile, bad):
    with pytest.raises(ValueError):
        deadline_after_days(D(2026, 3, 2), bad, profile)


def test_naive_datetimes_raise(profile):
    with pytest.raises(ValueError, match="naive"):
        deadline_after_days(datetime(2026, 3, 2, 10), 7, profile)
    with pytest.raises(ValueError, match="naive"):
        deadline_after_hours(datetime(2026, 3, 2, 10), 48, profile)
    with pytest.raises(ValueError, match="naive"):
        vicious_notice_deadline(datetime(2026, 3, 2, 10), profile)


# --------------------------------------------------------------------------
# Hours: 990.001(4)(a)
# --------------------------------------------------------------------------


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


HOUR_CASES = [
    # start, hours, expected, why
    (L(2026, 3, 3, 10), 48, L(2026, 3, 5, 10), "Tue -> Thu, nothing excluded"),
    (
        L(2026, 3, 6, 10),
        48,
        L(2026, 3, 9, 10),
        "Fri 14 h + Sat 24 h, Sun (DST start) skipped, Mon 10 h",
    ),
    (L(2026, 3, 7, 14, 30), 48, L(2026, 3, 10, 14, 30), "Sat 9.5 h, Sun skipped, Mon 24, Tue 14.5"),
    (L(2026, 3, 8, 11), 48, L(2026, 3, 11, 0), "served on a Sunday: counts from Mon 00:00"),
    (
        L(2026, 10, 31, 20),
        48,
        L(2026, 11, 3, 20),
        "Sat 4 h, Sun 1 Nov (DST end) skipped, Mon 24, Tue 20",
    ),
    (
        L(2026, 11, 25, 12),
        48,
        L(2026, 11, 28, 12),
        "Wed 12 h, Thanksgiving skipped, Fri 24, Sat 12",
    ),
    (
        L(2026, 11, 26, 14, 30),
        48,
        L(2026, 11, 29, 0),
        "served on Thanksgiving: Fri + Sat, ends at midnight",
    ),
    (L(2026, 12, 24, 14, 30), 48, L(2026, 12, 28, 14, 30), "Christmas Fri and Sun skipped"),
    (
        L(2026, 12, 31, 9),
        48,
        L(2027, 1, 4, 9),
        "Thu 15 h, New Year Fri skipped, Sat 24, Sun skipped, Mon 9",
    ),
    (
        L(2027, 7, 3, 10),
        48,
        L(2027, 7, 7, 10),
        "Sat 14 h, Sun 4 and Mon 5 Jul skipped, Tue 24, Wed 10",
    ),
    (
        L(2026, 7, 3, 10),
        48,
        L(2026, 7, 7, 10),
        "Fri 14 h, Sat 4 Jul holiday and Sun skipped, Mon 24, Tue 10",
    ),
    (L(2028, 2, 28, 12), 48, L(2028, 3, 1, 12), "leap day Tue 29 Feb counted"),
    (L(2026, 1, 30, 22), 24, L(2026, 1, 31, 22), "month end, Sat is counted"),
    (L(2026, 3, 3, 10), 1, L(2026, 3, 3, 11), "one hour"),
    (L(2026, 3, 3, 10), 0, L(2026, 3, 3, 10), "zero hours on a counted day"),
    (L(2026, 3, 7, 0), 24, L(2026, 3, 8, 0), "a whole Saturday ends at its midnight"),
]


@pytest.mark.parametrize(("start", "hours", "expected", "why"), HOUR_CASES)
def test_deadline_after_hours(profile, start, hours, expected, why):
    result = deadline_after_hours(start, hours, profile)
    assert result == expected, why
    assert result.utcoffset() == expected.utcoffset(), "wall clock must be right too"
    assert result.tzinfo.key == "America/Chicago"


def test_hours_count_real_elapsed_time_across_dst(profile):
    # Fri 6 Mar 10:00 CST to Mon 9 Mar 10:00 CDT is 71 real hours, of which
    # Sunday (23 real hours that day) is excluded: 48 counted.
    start, end = L(2026, 3, 6, 10), L(2026, 3, 9, 10)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=71)
    assert deadline_after_hours(start, 48, profile) == end


def test_start_given_in_utc_gives_local_result(profile):
    start = datetime(2026, 3, 3, 16, 0, tzinfo=UTC)  # 10:00 CST
    result = deadline_after_hours(start, 48, profile)
    assert result == L(2026, 3, 5, 10)
    assert (result.hour, result.tzinfo.key) == (10, "America/Chicago")


def test_start_in_a_foreign_fixed_offset_is_converted(profile):
    # 23:30 at UTC-3 on Sat 7 Mar is 20:30 CST Sat 7 Mar.
    start = datetime(2026, 3, 7, 23, 30, tzinfo=timezone(timedelta(hours=-3)))
    assert deadline_after_hours(start, 4, profile) == L(2026, 3, 9, 0, 30)


def test_hours_period_reports_skipped_days(profile):
    _, skipped = hours_period(L(2026, 12, 24, 14, 30), 48, profile)
    assert skipped == (D(2026, 12, 25), D(2026, 12, 27))


def test_clerk_added_date_is_excluded_from_hours(profile):
    p = dataclasses.replace(profile, extra_holidays=frozenset({D(2026, 11, 3)}))
    assert deadline_after_hours(L(2026, 11, 2, 9), 24, profile) == L(2026, 11, 3, 9)
    assert deadline_after_hours(L(2026, 11, 2, 9), 24, p) == L(2026, 11, 4, 9)


@pytest.mark.parametrize("bad", [-1, 2.5, False, "48"])
def test_bad_hour_counts_raise(profile, bad):
    with pytest.raises(ValueError):
        deadline_after_hours(L(2026, 3, 3, 10), bad, profile)


def test_non_datetime_start_is_a_type_error(profile):
    with pytest.raises(TypeError):
        deadline_after_hours(D(2026, 3, 3), 48, profile)


def test_start_of_local_day(profile):
    assert start_of_local_day(D(2026, 3, 8), profile) == L(2026, 3, 8, 0)
    assert start_of_local_day(D(2026, 3, 9), profile).utcoffset() == timedelta(hours=-5)


def test_zone_with_a_midnight_dst_gap(profile):
    # America/Havana springs forward at 00:00: on 8 Mar 2026 the day starts at 01:00.
    p = dataclasses.replace(profile, timezone="America/Havana")
    first = start_of_local_day(D(2026, 3, 8), p)
    assert (first.hour, first.date()) == (1, D(2026, 3, 8))
    # Saturday 7 Mar 2026 23:00 + 2 h: Sunday is excluded, so Monday 01:00.
    start = datetime(2026, 3, 7, 23, tzinfo=p.timezone)
    assert deadline_after_hours(start, 2, p) == datetime(2026, 3, 9, 1, tzinfo=p.timezone)
