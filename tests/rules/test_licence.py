"""Dog licences (RULES.md sections 6 and 8; city code 58-533(c)): one case per sentence."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from decimal import Decimal

import pytest

from fieldops.rules import (
    LicenceQuote,
    Profile,
    explain_rabies_for_licence,
    licence_on_sale,
    licence_quote,
    licence_renewal_due,
    licensable_on,
    rabies_ok_for_licence,
    rabies_window_start,
)

CITY = Profile.default()
# Round, distinct rates so a test can tell which one (and which half) was charged.
P = dataclasses.replace(
    CITY,
    licence_unaltered=Decimal("30.00"),
    licence_altered=Decimal("12.00"),
    licence_late_fee=Decimal("7.00"),
)


def quote(year, applied_on, *, birth_date=None, altered=False, **kw) -> LicenceQuote:
    return licence_quote(year, applied_on, P, birth_date=birth_date, altered=altered, **kw)


# -- Licensable age: birth date plus five calendar months, clamped to the month's end ---------


@pytest.mark.parametrize(
    ("born", "turns"),
    [
        (date(2026, 1, 15), date(2026, 6, 15)),
        (date(2026, 1, 31), date(2026, 6, 30)),  # RULES.md's own example
        (date(2025, 9, 30), date(2026, 2, 28)),
        (date(2027, 9, 30), date(2028, 2, 29)),  # leap year: Feb 29 exists
        (date(2027, 9, 29), date(2028, 2, 29)),
        (date(2025, 10, 31), date(2026, 3, 31)),
        (date(2025, 8, 31), date(2026, 1, 31)),  # across the year end
        (date(2025, 12, 31), date(2026, 5, 31)),
        (date(2026, 3, 31), date(2026, 8, 31)),
        (date(2026, 4, 30), date(2026, 9, 30)),
    ],
)
def test_licensable_on_adds_five_calendar_months(born, turns):
    assert licensable_on(born) == turns


def test_licensable_on_refuses_a_datetime():
    with pytest.raises(ValueError, match="birth_date"):
        licensable_on(datetime(2026, 1, 1, 12))


# -- Licence year: the calendar year; who must license for it -------------------------------


def test_an_unknown_birth_date_is_an_adult_licensable_before_the_year_began():
    q = quote(2026, date(2026, 2, 1), birth_date=None)
    assert q.licensable_on is None
    assert q.obligation_day == date(2026, 1, 1)
    assert not q.half_rate
    assert q.due_by == date(2026, 4, 1)
    assert "adult" in q.why["half_rate"]


def test_a_dog_five_months_old_on_jan_1_must_be_licensed_for_the_year():
    q = quote(2026, date(2026, 3, 2), birth_date=date(2025, 8, 1))  # turns 1 Jan 2026
    assert q.licensable_on == date(2026, 1, 1)
    assert q.obligation_day == date(2026, 1, 1)
    assert q.due_by == date(2026, 4, 1)  # O is Jan 1: the April 1 rule


def test_a_dog_turning_five_months_on_dec_31_must_be_licensed_for_that_year():
    q = quote(2026, date(2026, 12, 31), birth_date=date(2026, 7, 31))
    assert q.licensable_on == date(2026, 12, 31)
    assert q.half_rate


@pytest.mark.parametrize("born", [date(2026, 8, 1), date(2026, 12, 1), date(2027, 3, 1)])
def test_a_dog_not_five_months_within_the_year_needs_no_licence_for_it(born):
    with pytest.raises(ValueError, match="birth_date"):
        quote(2026, date(2026, 12, 1), birth_date=born)


def test_a_licence_bought_in_december_for_next_year_is_on_time():
    q = quote(2027, date(2026, 12, 15), birth_date=None)
    assert (q.year, q.due_by, q.late, q.late_fee) == (2027, date(2027, 4, 1), False, 0)


# -- Fee: two council rates, half for a dog turning five months after July 1 --------------------


@pytest.mark.parametrize(("altered", "rate"), [(True, "12.00"), (False, "30.00")])
def test_the_rate_is_the_profiles_altered_or_unaltered_rate(altered, rate):
    q = quote(2026, date(2026, 2, 1), altered=altered)
    assert q.rate == Decimal(rate)
    assert q.total == Decimal(rate)
    assert "council" in q.why["rate"]


@pytest.mark.parametrize(
    ("born", "half"),
    [
        (date(2026, 1, 31), False),  # turns 30 Jun
        (date(2026, 2, 1), False),  # turns 1 Jul itself: full rate
        (date(2026, 2, 2), True),  # turns 2 Jul: half
        (date(2026, 7, 31), True),  # turns 31 Dec
    ],
)
def test_half_rate_only_after_july_1(born, half):
    q = quote(2026, licensable_on(born), birth_date=born)
    assert q.half_rate is half
    assert q.total == (Decimal("15.00") if half else Decimal("30.00"))
    assert q.rate == Decimal("30.00")  # .rate is the whole rate, .total the halved one


def test_half_of_an_odd_cent_rate_rounds_half_up():
    p = dataclasses.replace(P, licence_altered=Decimal("12.01"))
    q = licence_quote(2026, date(2026, 8, 1), p, birth_date=date(2026, 3, 1), altered=True)
    assert q.half_rate and q.total == Decimal("6.01")


# -- Late fee: obligation day O, April 1 or 30 days, extended, never halved --------------------


@pytest.mark.parametrize(
    ("kw", "obligation", "due_by"),
    [
        # O = Jan 1 (licensable and owned in the city all year): April 1
        ({}, date(2026, 1, 1), date(2026, 4, 1)),
        ({"acquired_on": date(2025, 6, 1)}, date(2026, 1, 1), date(2026, 4, 1)),
        ({"resident_since": date(2019, 5, 5)}, date(2026, 1, 1), date(2026, 4, 1)),
        # O = the day the owner acquired the dog: 30 days after
        ({"acquired_on": date(2026, 5, 12)}, date(2026, 5, 12), date(2026, 6, 11)),
        # O = the day the owner became a resident
        ({"resident_since": date(2026, 3, 10)}, date(2026, 3, 10), date(2026, 4, 9)),
        # the latest of the four wins
        (
            {"acquired_on": date(2026, 3, 10), "resident_since": date(2026, 8, 3)},
            date(2026, 8, 3),
            date(2026, 9, 2),
        ),
        (
            {"acquired_on": date(2026, 9, 1), "resident_since": date(2026, 8, 3)},
            date(2026, 9, 1),
            date(2026, 10, 1),
        ),
        # a 30-day period may end before April 1: it is its own deadline
        ({"acquired_on": date(2026, 1, 10)}, date(2026, 1, 10), date(2026, 2, 9)),
    ],
)
def test_obligation_day_and_due_by(kw, obligation, due_by):
    q = quote(2026, date(2026, 1, 2), **kw)
    assert q.obligation_day == obligation
    assert q.due_by == due_by


def test_obligation_day_is_the_five_month_day_when_it_is_latest():
    q = quote(2026, date(2026, 7, 1), birth_date=date(2026, 1, 31), acquired_on=date(2026, 3, 1))
    assert q.obligation_day == date(2026, 6, 30)
    assert q.due_by == date(2026, 7, 30)
    assert "five months" in q.why["due_by"]


def test_april_1_on_a_sunday_runs_to_monday():
    assert date(2029, 4, 1).weekday() == 6
    assert quote(2029, date(2029, 4, 2)).due_by == date(2029, 4, 2)
    assert not quote(2029, date(2029, 4, 2)).late
    assert quote(2029, date(2029, 4, 3)).late
    assert "Sunday" in quote(2029, date(2029, 4, 2)).why["due_by"]


def test_the_why_of_a_due_day_run_on_past_a_sunday_reads_as_a_sentence():
    # It read "... so the licence is due by 1 April would end on Sun 1 Apr, a Sunday, ...":
    # the day, not a period, "would end". The period that ends is named now.
    why = licence_quote(2029, date(2029, 4, 3), CITY, birth_date=None, altered=False).why
    assert why["due_by"].startswith("Due by Mon 2 Apr 2029: ")
    assert "1 April would end" not in why["due_by"]
    assert (
        "due by 1 April; the time to license would end on Sun 1 Apr, a Sunday, so the time "
        "runs to the next secular day" in why["due_by"]
    )
    on_time = licence_quote(2026, date(2026, 3, 1), CITY, birth_date=None, altered=False).why
    assert "would end" not in on_time["due_by"] and "due by 1 April (" in on_time["due_by"]
    # 5 Jun + 30 = Sun 5 Jul: the 30 days are the period that would have ended then
    late = quote(2026, date(2026, 7, 6), acquired_on=date(2026, 6, 5)).why["due_by"]
    assert "Fri 5 Jun 2026; the period would end on Sun 5 Jul, a Sunday" in late


def test_a_30_day_period_ending_on_a_holiday_and_a_sunday_runs_on():
    # 4 Jun + 30 = Sat 4 Jul 2026 (Independence Day), then Sun 5 Jul: Mon 6 Jul
    q = quote(2026, date(2026, 7, 6), acquired_on=date(2026, 6, 4))
    assert q.due_by == date(2026, 7, 6)
    assert not q.late
    assert quote(2026, date(2026, 7, 7), acquired_on=date(2026, 6, 4)).late
    assert "holiday" in q.why["due_by"]


def test_licence_renewal_due_is_the_all_year_dogs_due_by():
    assert licence_renewal_due(2026, P) == date(2026, 4, 1)
    assert licence_renewal_due(2029, P) == date(2029, 4, 2)
    for year in (2026, 2029, 2035):
        assert licence_renewal_due(year, P) == quote(year, date(year, 1, 5)).due_by


def test_a_clerk_added_holiday_extends_april_1():
    p = dataclasses.replace(P, extra_holidays=frozenset({date(2026, 4, 1)}))
    q = licence_quote(2026, date(2026, 4, 2), p, birth_date=None, altered=False)
    assert q.due_by == date(2026, 4, 2) and not q.late


@pytest.mark.parametrize(
    ("applied_on", "late"),
    [(date(2026, 3, 31), False), (date(2026, 4, 1), False), (date(2026, 4, 2), True)],
)
def test_late_only_after_the_last_day(applied_on, late):
    q = quote(2026, applied_on)
    assert q.late is late
    assert q.late_fee == (Decimal("7.00") if late else Decimal("0"))
    assert q.total == Decimal("30.00") + q.late_fee


def test_the_late_fee_is_never_halved():
    q = quote(2026, date(2026, 9, 30), birth_date=date(2026, 3, 1))  # turns 1 Aug: half rate
    assert q.half_rate and q.late
    assert q.late_fee == Decimal("7.00")
    assert q.total == Decimal("15.00") + Decimal("7.00")
    assert "never halved" in q.why["late_fee"]


def test_every_quote_explains_each_computed_date_and_amount():
    q = quote(2026, date(2026, 9, 30), birth_date=date(2026, 3, 1), acquired_on=date(2026, 4, 1))
    assert set(q.why) >= {"rate", "half_rate", "due_by", "late_fee", "total"}
    for text in q.why.values():
        assert "58-533(c)" in text
    assert "Wed 30 Sep 2026" in q.why["late_fee"] or "30 Sep" in q.why["late_fee"]
    assert "$22.00" in q.why["total"]


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        ({"year": "2026"}, "year"),
        ({"applied_on": datetime(2026, 1, 2, 9)}, "applied_on"),
        ({"altered": "yes"}, "altered"),
        ({"acquired_on": "2026-01-01"}, "acquired_on"),
        ({"resident_since": 20260101}, "resident_since"),
        ({"birth_date": "2026-01-01"}, "birth_date"),
        ({"applied_on": date(2024, 12, 31)}, "applied_on"),
    ],
)
def test_bad_arguments_raise_value_error_naming_them(kw, name):
    args = {"year": 2026, "applied_on": date(2026, 1, 2), "altered": False, "birth_date": None}
    args.update(kw)
    year, applied_on = args.pop("year"), args.pop("applied_on")
    with pytest.raises(ValueError, match=name):
        licence_quote(year, applied_on, P, **args)


def test_the_shipped_profile_marks_licence_rates_as_council_set():
    from importlib import resources

    text = resources.files("fieldops.rules").joinpath("default_profile.toml").read_text("utf-8")
    part = text[text.index("LICENCE RATES") : text.index("[licence]")]
    assert "COMMON COUNCIL RESOLUTION" in part
    assert "PLACEHOLDER" in part
    assert CITY.licence_unaltered > 0 and CITY.licence_altered > 0 and CITY.licence_late_fee > 0


# -- Rabies: within three years before the application, certificate not expired ----------------


@pytest.mark.parametrize(
    ("applied", "vaccinated", "expires", "ok"),
    [
        (date(2026, 5, 10), date(2023, 5, 10), None, True),  # same calendar date 3 years before
        (date(2026, 5, 10), date(2023, 5, 9), None, False),  # one day more
        (date(2026, 5, 10), date(2026, 5, 10), None, True),  # vaccinated that day
        (date(2026, 5, 10), date(2026, 5, 11), None, False),  # after the application
        (date(2028, 2, 29), date(2025, 2, 28), None, True),  # Feb 29 counts from Feb 28
        (date(2028, 2, 29), date(2025, 2, 27), None, False),
        (date(2027, 2, 28), date(2024, 2, 28), None, True),
        (date(2027, 2, 28), date(2024, 2, 27), None, False),
        (date(2026, 5, 10), date(2025, 5, 10), date(2026, 5, 9), False),  # expired before
        (date(2026, 5, 10), date(2025, 5, 10), date(2026, 5, 10), True),  # expires that day
        (date(2026, 5, 10), date(2025, 5, 10), date(2027, 5, 10), True),
        (date(2026, 5, 10), date(2023, 5, 9), date(2027, 5, 10), False),  # 3 years still rule
    ],
)
def test_rabies_ok_for_licence(applied, vaccinated, expires, ok):
    assert rabies_ok_for_licence(applied, vaccinated, expires) is ok
    problem, why = explain_rabies_for_licence(applied, vaccinated, expires)
    assert (problem == "") is ok
    assert "58-533(c)(5)" in why


def test_rabies_window_start_clamps_feb_29():
    assert rabies_window_start(date(2028, 2, 29)) == date(2025, 2, 28)
    assert rabies_window_start(date(2026, 12, 31)) == date(2023, 12, 31)


def test_rabies_refuses_datetimes_naming_the_argument():
    with pytest.raises(ValueError, match="vaccinated_on"):
        rabies_ok_for_licence(date(2026, 1, 1), datetime(2025, 1, 1, 8))


def test_a_licence_is_sold_from_1_january_of_the_year_before():
    assert licence_on_sale(2027) == date(2026, 1, 1)
    assert quote(2027, date(2026, 1, 1)).due_by == date(2027, 4, 1)
    with pytest.raises(ValueError, match="applied_on"):
        quote(2027, date(2025, 12, 31))
    with pytest.raises(ValueError, match="year"):
        licence_on_sale(True)
