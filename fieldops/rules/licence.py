"""Dog licences (city code 58-533(c); Wis. Stat. ch. 174): RULES.md sections 6 and 8.

Who must license a dog for a licence year, what the licence costs (the
council's two rates, halved for a dog that turns five months after July 1),
the last day without the late fee, and the rabies condition. Every computed
date and amount carries a "why" sentence naming its source.
"""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from fieldops.rules._frozen import FrozenMap
from fieldops.rules.calendar import deadline_after_days, next_secular_day
from fieldops.rules.explain import extension_clause, format_day

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

LICENSABLE_MONTHS = 5
"""58-533(c)(1),(2): a dog five months of age or older must be licensed."""

FEE_SOURCE = "city code 58-533(c)(4)a"
LATE_SOURCE = "city code 58-533(c)(3), (4)c"
TIME_SOURCE = "Wis. Stat. 990.001(4)"
RABIES_SOURCE = "city code 58-533(c)(5)"
RABIES_YEARS = 3
DUE_DAYS = 30
_CENT = Decimal("0.01")
_ZERO = Decimal("0.00")


def _day(value: object, name: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise ValueError(f"{name}: {value!r} is not a date")
    return value


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months; a missing day is the month's last (Jan 31 + 5 -> Jun 30)."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, _calendar.monthrange(year, month)[1]))


def licensable_on(birth_date: date) -> date:
    """The day a dog born on ``birth_date`` turns five months old (58-533(c)(2); RULES.md 6).

    Birth date plus five calendar months; when that month has no such day, its
    last day (Jan 31 -> Jun 30; Sep 30 -> Feb 28 or 29).
    """
    return add_months(_day(birth_date, "birth_date"), LICENSABLE_MONTHS)


@dataclass(frozen=True)
class LicenceQuote:
    """What a dog licence for ``year`` costs when applied for on ``applied_on``.

    ``rate`` is the council's altered or unaltered rate (whole); ``half_rate``
    says it is halved; ``due_by`` is the last day without the late fee;
    ``total`` = rate (halved if ``half_rate``, to the cent, half up) +
    ``late_fee``. ``obligation_day`` is the day the duty to license began
    (RULES.md section 6, "O"); ``licensable_on`` the day the dog turns five
    months (None when the birth date is unknown: an adult dog). ``why`` holds
    one sentence for each of "rate", "half_rate", "due_by", "late_fee" and
    "total".
    """

    year: int
    applied_on: date
    altered: bool
    rate: Decimal
    half_rate: bool
    licensable_on: date | None
    obligation_day: date
    due_by: date
    late: bool
    late_fee: Decimal
    total: Decimal
    why: Mapping[str, str]

    @property
    def rate_charged(self) -> Decimal:
        """The licence fee itself, halved when ``half_rate`` (the total less the late fee)."""
        return self.total - self.late_fee


def _half(amount: Decimal) -> Decimal:
    return (amount / 2).quantize(_CENT, rounding=ROUND_HALF_UP)


def _runs_on(period: str, nominal: date, profile: Profile) -> str:
    """Why the period ``period`` ending on ``nominal`` runs on (Wis. Stat. 990.001(4)(b)).

    E.g. "; the time to license would end on Sun 1 Apr, a Sunday, so the time runs to
    the next secular day", or "" when ``nominal`` is a secular day. The clause is given
    its own subject: after "due by 1 April" it read as if the day itself would end.
    """
    clause = extension_clause(nominal, profile)
    return f"; {period}{clause}" if clause else ""


def _obligation(
    year: int, turns: date | None, acquired_on: date | None, resident_since: date | None
) -> tuple[date, str]:
    """The latest of Jan 1, the five-month day, acquisition and residency, with its name."""
    candidates: list[tuple[date, str]] = [(date(year, 1, 1), f"1 January {year}")]
    if turns is not None:
        candidates.append((turns, "the day the dog turned five months old"))
    if acquired_on is not None:
        candidates.append((acquired_on, "the day the owner acquired the dog"))
    if resident_since is not None:
        candidates.append((resident_since, "the day the owner became a city resident"))
    best = candidates[0]
    for candidate in candidates[1:]:
        if candidate[0] > best[0]:
            best = candidate
    return best


def licence_quote(
    year: int,
    applied_on: date,
    profile: Profile,
    *,
    birth_date: date | None,
    altered: bool,
    acquired_on: date | None = None,
    resident_since: date | None = None,
) -> LicenceQuote:
    """The licence fee, late fee and due day for licence year ``year`` (58-533(c); RULES.md 6).

    ``birth_date`` None means an adult dog, licensable before the year began.
    A dog that does not turn five months old by 31 December of ``year`` needs
    no licence for it: ``ValueError`` naming ``birth_date``. A licence may be
    bought from 1 January of the year before; an earlier ``applied_on`` and
    other bad arguments raise ``ValueError`` naming the argument.
    """
    if isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 9998:
        raise ValueError(f"year: {year!r} is not a licence year")
    applied_on = _day(applied_on, "applied_on")
    if applied_on < licence_on_sale(year):
        raise ValueError(
            f"applied_on: {format_day(applied_on)} is too early for a {year} licence "
            f"(sold from the year before)"
        )
    if not isinstance(altered, bool):
        raise ValueError(f"altered: must be True or False, not {altered!r}")
    acquired_on = None if acquired_on is None else _day(acquired_on, "acquired_on")
    resident_since = None if resident_since is None else _day(resident_since, "resident_since")
    jan1, july1, dec31 = date(year, 1, 1), date(year, 7, 1), date(year, 12, 31)

    turns = None if birth_date is None else licensable_on(birth_date)
    if birth_date is not None and turns is not None and turns > dec31:
        raise ValueError(
            f"birth_date: a dog born on {format_day(birth_date)} turns five months old on "
            f"{format_day(turns)}, after the {year} licence year, so it needs no licence "
            f"for {year} (58-533(c)(2))"
        )
    why: dict[str, str] = {}

    rate = profile.licence_altered if altered else profile.licence_unaltered
    kind = "a spayed or neutered" if altered else "an unspayed or unneutered"
    why["rate"] = (
        f"Licence rate ${rate} for {kind} dog, as set by common council resolution ({FEE_SOURCE})."
    )

    half = turns is not None and turns > july1
    if turns is None:
        why["half_rate"] = (
            "Full rate: the birth date is not known, so the dog is taken as an adult, "
            f"licensable before the licence year began ({FEE_SOURCE})."
        )
    elif half:
        why["half_rate"] = (
            f"Half rate: the dog turns five months old on {format_day(turns)}, after "
            f"1 July {year} ({FEE_SOURCE})."
        )
    else:
        when = "on" if turns == july1 else "by"
        why["half_rate"] = (
            f"Full rate: the dog is five months old {when} 1 July {year} "
            f"({format_day(turns)}); only a dog turning five months after 1 July pays "
            f"half ({FEE_SOURCE})."
        )

    obligation, obligation_name = _obligation(year, turns, acquired_on, resident_since)
    if obligation == jan1:
        nominal = date(year, 4, 1)
        due_by = next_secular_day(nominal, profile)
        why["due_by"] = (
            f"Due by {format_day(due_by)}: the dog was licensable and kept in the city "
            f"from 1 January {year}, so the licence is due by 1 April"
            f"{_runs_on('the time to license', nominal, profile)} ({LATE_SOURCE}; {TIME_SOURCE})."
        )
    else:
        due_by = deadline_after_days(obligation, DUE_DAYS, profile)
        runs_on = _runs_on("the period", obligation + timedelta(days=DUE_DAYS), profile)
        why["due_by"] = (
            f"Due by {format_day(due_by)}: {DUE_DAYS} days after {obligation_name}, "
            f"{format_day(obligation)}{runs_on} ({LATE_SOURCE}; {TIME_SOURCE})."
        )

    late = applied_on > due_by
    late_fee = profile.licence_late_fee if late else _ZERO
    if late:
        why["late_fee"] = (
            f"Late fee ${late_fee}: applied on {format_day(applied_on)}, after the last "
            f"day {format_day(due_by)}; the late fee is set by council resolution and is "
            f"never halved ({LATE_SOURCE})."
        )
    else:
        why["late_fee"] = (
            f"No late fee: applied on {format_day(applied_on)}, not after the last day "
            f"{format_day(due_by)} ({LATE_SOURCE})."
        )

    charged = _half(rate) if half else rate
    total = charged + late_fee
    parts = f"${charged} licence" + (f" (half of ${rate})" if half else "")
    if late:
        parts += f" + ${late_fee} late fee"
    why["total"] = f"Total ${total}: {parts} ({FEE_SOURCE})."

    return LicenceQuote(
        year=year,
        applied_on=applied_on,
        altered=altered,
        rate=rate,
        half_rate=half,
        licensable_on=turns,
        obligation_day=obligation,
        due_by=due_by,
        late=late,
        late_fee=late_fee,
        total=total,
        why=FrozenMap(why),
    )


def licence_on_sale(year: int) -> date:
    """The first day a licence for ``year`` is sold: 1 January of the year before.

    The licence year is the calendar year (58-533(c)(2)); selling from the year
    before lets an owner renew ahead of it (RULES.md section 6).

    ``licence_quote`` refuses an earlier application day; a renewal letter for
    ``year`` written before this day has nothing to quote.
    """
    if isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 9998:
        raise ValueError(f"year: {year!r} is not a licence year")
    return date(year - 1, 1, 1)


def licence_renewal_due(year: int, profile: Profile) -> date:
    """The last day without the late fee for a dog licensable and kept all of ``year``.

    1 April of ``year``, extended past a Sunday or legal holiday (58-533(c)(4)c;
    Wis. Stat. 990.001(4)(b)): the day after which the renewal reminders turn
    into the non-compliance list. Equal to ``licence_quote(...).due_by`` for
    such a dog.
    """
    if isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 9998:
        raise ValueError(f"year: {year!r} is not a licence year")
    return next_secular_day(date(year, 4, 1), profile)


def rabies_window_start(applied_on: date) -> date:
    """The earliest vaccination day that counts: the same date three years before.

    Feb 29 counts from Feb 28 (58-533(c)(5); RULES.md section 6).
    """
    applied_on = _day(applied_on, "applied_on")
    year = applied_on.year - RABIES_YEARS
    day = min(applied_on.day, _calendar.monthrange(year, applied_on.month)[1])
    return date(year, applied_on.month, day)


def rabies_ok_for_licence(
    applied_on: date, vaccinated_on: date, expires_on: date | None = None
) -> bool:
    """True when the rabies vaccination allows a licence (58-533(c)(5); RULES.md section 6).

    The dog was vaccinated within three years before the application (on or
    after the same calendar date three years earlier, Feb 29 counting from
    Feb 28, and not after the application day), and the certificate, when it
    states an expiry, had not expired before the application day.
    """
    return not explain_rabies_for_licence(applied_on, vaccinated_on, expires_on)[0]


def explain_rabies_for_licence(
    applied_on: date, vaccinated_on: date, expires_on: date | None = None
) -> tuple[str, str]:
    """``(problem, why)`` for 58-533(c)(5): problem "" when the vaccination allows a licence, else
    "too_old", "after_application" or "expired"; ``why`` is one sentence."""
    applied_on = _day(applied_on, "applied_on")
    vaccinated_on = _day(vaccinated_on, "vaccinated_on")
    expires_on = None if expires_on is None else _day(expires_on, "expires_on")
    start = rabies_window_start(applied_on)
    if vaccinated_on > applied_on:
        return "after_application", (
            f"The vaccination date {format_day(vaccinated_on)} is after the application "
            f"on {format_day(applied_on)} ({RABIES_SOURCE})."
        )
    if vaccinated_on < start:
        return "too_old", (
            f"No licence: the dog was vaccinated on {format_day(vaccinated_on)}, more than "
            f"three years before the application (from {format_day(start)}) ({RABIES_SOURCE})."
        )
    if expires_on is not None and expires_on < applied_on:
        return "expired", (
            f"No licence: the rabies certificate expired on {format_day(expires_on)}, "
            f"before the application on {format_day(applied_on)} ({RABIES_SOURCE})."
        )
    return "", (
        f"Rabies vaccination on {format_day(vaccinated_on)} is within three years before "
        f"the application (from {format_day(start)})"
        + ("" if expires_on is None else f" and the certificate runs to {format_day(expires_on)}")
        + f" ({RABIES_SOURCE})."
    )
