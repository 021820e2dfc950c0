"""Chicken and animal fancier's permits, and petitions (city code 58-533(a),(b), 58-534(a)).

RULES.md sections 7 and 8. What a chicken permit application must satisfy in
a jurisdiction (``profile.chickens``: the city's 58-533(b), Dodgeville's
12.16, the village's chapter 12), what a permit costs, whether an animal
fancier's permit is renewed after the annual review of incidents, and what a
complaint petition is missing.
"""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from fieldops.rules._frozen import FrozenMap
from fieldops.rules.calendar import deadline_after_days, next_secular_day
from fieldops.rules.explain import extension_clause, format_day, plural
from fieldops.rules.profile_local import ChickenRules, FancierRules

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

PERMIT_KINDS = ("chicken", "fancier")
#: The endings an incident counts with at the annual review (58-533(a)(2)c; ch. 12 (h)).
COUNTED_INCIDENT_ENDINGS = ("warning", "citation")
TIME_SOURCE = "Wis. Stat. 990.001(4)"
_ZERO = Decimal("0.00")
_CENT = Decimal("0.01")

__all__ = [
    "COUNTED_INCIDENT_ENDINGS",
    "PERMIT_KINDS",
    "ChickenRenewalDecision",
    "ChickenRules",
    "FancierRules",
    "PermitQuote",
    "Problem",
    "RenewalDecision",
    "chicken_permit_problems",
    "chicken_renewal",
    "chickens_missing",
    "fancier_list_update_due",
    "fancier_renewal",
    "months_before",
    "permit_quote",
    "renewable_from",
]


def _day(value: object, name: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise ValueError(f"{name}: {value!r} is not a date")
    return value


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an application: a stable ``code``, the form ``field``, a sentence."""

    code: str
    field: str
    message: str


# --------------------------------------------------------------------------
# Chicken permits
# --------------------------------------------------------------------------


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: must be a whole number, not {value!r}")
    return value


def chickens_missing(profile: Profile, *, hens: int, roosters: int) -> str:
    """Why an application keeps no chickens (58-533(b)), or "": a permit for none is a form
    sent unfilled, neither issued nor refused on record. Roosters count where allowed."""
    rules, hens, roosters = profile.chickens, _count(hens, "hens"), _count(roosters, "roosters")
    if hens > 0 or (rules.roosters_allowed and roosters > 0):
        return ""
    kept = "number of hens or roosters" if rules.roosters_allowed else "number of hens"
    return f"A chicken permit is to keep chickens ({rules.source}): give the {kept}, at least 1."


def chicken_permit_problems(
    profile: Profile,
    *,
    first_permit: bool,
    hoa_exists: bool,
    hoa_consent: bool,
    hens: int,
    roosters: int,
    setback_feet: int,
    neighbour_consent: bool,
    residence_setback_feet: int | None = None,
    state_registered_on: date | None = None,
    applied_on: date | None = None,
) -> tuple[Problem, ...]:
    """What stops a chicken permit under ``profile.chickens`` (58-533(b)); () when nothing does.

    Codes (field): "hoa_consent_missing" (hoa_consent), "hens_negative",
    "too_many_hens" (hens), "roosters_negative", "roosters_not_allowed"
    (roosters), "setback_negative", "setback_too_short" (setback_feet).
    Under a profile that sets ``residence_setback_feet`` (village ch. 12 (d): the
    hen house and pen at least 25 feet from a *neighbouring* residence):
    "residence_setback_negative", "residence_setback_too_short"
    (residence_setback_feet). Under one that sets ``state_registration_years``
    (ch. 12 (i): the state premises registration, renewed every 3 years):
    "state_registration_after_application", "state_registration_expired"
    (state_registered_on; checked against ``applied_on``). A value not given
    (None) is not checked here: the form asks for it, the service requires it.
    Arguments that are not whole numbers raise ``ValueError`` naming them.
    """
    rules = profile.chickens
    src = rules.source
    hens = _count(hens, "hens")
    roosters = _count(roosters, "roosters")
    setback_feet = _count(setback_feet, "setback_feet")
    out: list[Problem] = []
    if rules.hoa_consent_for_first and first_permit and hoa_exists and not hoa_consent:
        out.append(
            Problem(
                "hoa_consent_missing",
                "hoa_consent",
                "A first permit needs the homeowners association's written consent "
                f"({src}); later annual permits do not.",
            )
        )
    if hens < 0:
        out.append(Problem("hens_negative", "hens", "The number of hens cannot be negative."))
    elif rules.hens_max is not None and hens > rules.hens_max:
        out.append(
            Problem(
                "too_many_hens",
                "hens",
                f"At most {plural(rules.hens_max, 'hen')} may be kept ({src}); "
                f"the application has {hens}.",
            )
        )
    if roosters < 0:
        out.append(
            Problem("roosters_negative", "roosters", "The number of roosters cannot be negative.")
        )
    elif roosters > 0 and not rules.roosters_allowed:
        out.append(
            Problem("roosters_not_allowed", "roosters", f"Roosters are not allowed ({src}).")
        )
    if setback_feet < 0:
        out.append(Problem("setback_negative", "setback_feet", "The setback cannot be negative."))
    elif (
        rules.setback_feet is not None
        and setback_feet < rules.setback_feet
        and not (rules.setback_waivable and neighbour_consent)
    ):
        consent = (
            " unless the adjoining owner consents in writing" if rules.setback_waivable else ""
        )
        out.append(
            Problem(
                "setback_too_short",
                "setback_feet",
                f"The enclosure must be at least {rules.setback_feet} feet from the "
                f"property line{consent} ({src}); the application gives {setback_feet}.",
            )
        )
    out.extend(_residence_problems(rules, residence_setback_feet))
    out.extend(_registration_problems(rules, state_registered_on, applied_on))
    return tuple(out)


def _residence_problems(rules: ChickenRules, feet: int | None) -> list[Problem]:
    need = rules.residence_setback_feet
    if need is None or feet is None:
        return []
    feet = _count(feet, "residence_setback_feet")
    if feet < 0:
        return [
            Problem(
                "residence_setback_negative",
                "residence_setback_feet",
                "The distance from a neighbouring residence cannot be negative.",
            )
        ]
    if feet < need:
        return [
            Problem(
                "residence_setback_too_short",
                "residence_setback_feet",
                f"The hen house and pen must be at least {need} feet from a neighbouring "
                f"residence ({rules.source}); the application gives {feet}.",
            )
        ]
    return []


def state_registration_expires(registered_on: date, profile: Profile) -> date | None:
    """The day a state premises registration made on ``registered_on`` must be renewed by.

    ``registered_on`` plus ``state_registration_years`` (Feb 29 -> Feb 28); the
    registration is good through the day before. None when the profile sets no period.
    """
    years = profile.chickens.state_registration_years
    if years is None:
        return None
    return add_years(_day(registered_on, "state_registered_on"), years)


def add_years(day: date, years: int) -> date:
    """``day`` plus ``years``; Feb 29 becomes Feb 28 in a year without one."""
    year = day.year + years
    return date(year, day.month, min(day.day, _calendar.monthrange(year, day.month)[1]))


def _registration_problems(
    rules: ChickenRules, registered_on: date | None, applied_on: date | None
) -> list[Problem]:
    years = rules.state_registration_years
    if years is None or registered_on is None or applied_on is None:
        return []
    registered_on = _day(registered_on, "state_registered_on")
    applied_on = _day(applied_on, "applied_on")
    if registered_on > applied_on:
        return [
            Problem(
                "state_registration_after_application",
                "state_registered_on",
                "The state registration's date is after the application's.",
            )
        ]
    expires = add_years(registered_on, years)
    if applied_on >= expires:
        return [
            Problem(
                "state_registration_expired",
                "state_registered_on",
                f"The state premises registration must be renewed every {plural(years, 'year')} "
                f"({rules.source}): the one of {format_day(registered_on)} was due for renewal "
                f"by {format_day(expires)}.",
            )
        ]
    return []


# --------------------------------------------------------------------------
# Permit fees
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PermitQuote:
    """What a chicken or fancier permit for ``year`` costs when applied for on ``applied_on``.

    ``application_fee`` only for a first permit; ``annual_fee`` prorated when
    the profile says so (by whole months left in the year, the month of the
    application included); ``due_by`` the last day to renew without the late
    fee (None for a first permit or where no late day is set); ``why`` has one
    sentence each for "application_fee", "annual_fee", "due_by", "late_fee"
    and "total".
    """

    kind: str
    year: int
    applied_on: date
    first: bool
    application_fee: Decimal
    annual_fee: Decimal
    late_fee: Decimal
    total: Decimal
    late: bool
    due_by: date | None
    why: Mapping[str, str]


def permit_rules(kind: str, profile: Profile) -> ChickenRules | FancierRules:
    """``profile.chickens`` for "chicken" (58-533(b)), ``profile.fancier`` for "fancier" (58-533(a))."""
    if kind == "chicken":
        return profile.chickens
    if kind == "fancier":
        return profile.fancier
    raise ValueError(f"kind: {kind!r} is not a permit kind (use chicken or fancier)")


def permit_quote(
    kind: str, year: int, applied_on: date, profile: Profile, *, first: bool
) -> PermitQuote:
    """The fees for a ``kind`` permit ("chicken" | "fancier") for ``year`` (58-533(a),(b)).

    A renewal may be applied for in the year before (Dodgeville renews before
    1 January); an application dated after ``year`` or before the year before
    raises ``ValueError`` naming ``applied_on``.
    """
    rules = permit_rules(kind, profile)
    if isinstance(year, bool) or not isinstance(year, int) or not 1900 <= year <= 9998:
        raise ValueError(f"year: {year!r} is not a permit year")
    applied_on = _day(applied_on, "applied_on")
    if not isinstance(first, bool):
        raise ValueError(f"first: must be True or False, not {first!r}")
    if not year - 1 <= applied_on.year <= year:
        raise ValueError(
            f"applied_on: {format_day(applied_on)} is not in or just before the {year} permit year"
        )
    src = rules.source
    what = "chicken permit" if kind == "chicken" else "animal fancier's permit"
    why: dict[str, str] = {}

    application = rules.application_fee if first else _ZERO
    if first:
        why["application_fee"] = f"Application fee ${application} for a first {what} ({src})."
    else:
        why["application_fee"] = f"No application fee: a renewal ({src})."

    annual = rules.annual_fee
    if rules.prorated and applied_on.year == year and applied_on.month > 1:
        months = 13 - applied_on.month
        annual = (rules.annual_fee * months / 12).quantize(_CENT, rounding=ROUND_HALF_UP)
        why["annual_fee"] = (
            f"Annual fee ${annual}: {months} of 12 months of ${rules.annual_fee}, the month "
            f"of application included ({src})."
        )
    elif rules.prorated:
        why["annual_fee"] = f"Annual fee ${annual} for the whole {year} year ({src})."
    else:
        why["annual_fee"] = (
            f"Annual fee ${annual}, the same for any part of the year (not prorated) ({src})."
        )

    due_by: date | None = None
    if rules.renew_by is None:
        why["due_by"] = f"No late day: the {what} has no renewal deadline with a late fee ({src})."
    elif first:
        why["due_by"] = f"No late day for a first {what}: the late fee is for renewals ({src})."
    else:
        month, day = rules.renew_by
        nominal = date(year, month, day)
        due_by = next_secular_day(nominal, profile)
        clause = extension_clause(nominal, profile)
        why["due_by"] = (
            f"Renew by {format_day(due_by)}: a renewal after {day} "
            f"{_calendar.month_name[month]} pays the late fee"
            f"{'; the time to renew' if clause else ''}{clause} ({src}; {TIME_SOURCE})."
        )

    late = due_by is not None and applied_on > due_by
    late_fee = rules.late_fee if late else _ZERO
    if due_by is None:
        why["late_fee"] = "No late fee."
    elif late:
        why["late_fee"] = (
            f"Late fee ${late_fee}: renewed on {format_day(applied_on)}, after "
            f"{format_day(due_by)} ({src})."
        )
    else:
        why["late_fee"] = (
            f"No late fee: applied on {format_day(applied_on)}, not after "
            f"{format_day(due_by)} ({src})."
        )
    total = application + annual + late_fee
    why["total"] = (
        f"Total ${total}: ${application} application + ${annual} annual"
        + (f" + ${late_fee} late fee" if late else "")
        + f" ({src})."
    )
    return PermitQuote(
        kind=kind,
        year=year,
        applied_on=applied_on,
        first=first,
        application_fee=application,
        annual_fee=annual,
        late_fee=late_fee,
        total=total,
        late=late,
        due_by=due_by,
        why=FrozenMap(why),
    )


@dataclass(frozen=True)
class ChickenRenewalDecision:
    """Whether complaints and violations stop a chicken permit's renewal (village ch. 12 (h)).

    ``renew`` False when at least ``profile.chickens.nonrenewal_complaints``
    complaints from owners within ``complaint_radius_feet`` and a violation
    found fall in the ``complaint_window_months`` up to the review day.
    ``counted_complaints``/``counted_violations`` are those inside the window
    (and the radius), oldest first; ``may_reapply_on`` the first day a new
    permit may be applied for after a refusal (None when renewed or when the
    profile sets no ban). A profile without ``nonrenewal_complaints`` (the
    city, Dodgeville) always renews here: its refusals are the penalty
    ladder's revocations.
    """

    renew: bool
    counted_complaints: tuple[date, ...]
    counted_violations: tuple[date, ...]
    window_after: date | None
    may_reapply_on: date | None
    why: str


def renewable_from(day: date) -> int:
    """The earliest permit year whose permit, expired and not renewed, can still be
    renewed on ``day``: its renewal is for the next year, and may be applied for in that
    year or the one before (``permit_quote``). An earlier permit has lapsed: no renewal
    or review is due on it any more (its holder applies again). 58-533(a),(b) make the
    permits annual and set no end to a renewal: this end is the app's, from the quote."""
    return _day(day, "day").year - 1


def chicken_renewal(
    review_day: date,
    profile: Profile,
    *,
    complaints: Iterable[tuple[date, int]],
    violations: Iterable[date],
) -> ChickenRenewalDecision:
    """The renewal test of a chicken permit (village ch. 12 (h); none in 58-533(b)).

    ``complaints`` are ``(day, feet)``: the complaint's day and how far the
    complaining owner's property is from the permittee's. Counted are
    complaints within ``complaint_radius_feet`` and violations found, dated
    ``review_day - months < day <= review_day`` (the window of 58-533(a)(2)c,
    read the same way). Bad arguments raise ``ValueError`` naming them.
    """
    rules = profile.chickens
    review_day = _day(review_day, "review_day")
    pairs = []
    for item in complaints:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise ValueError("complaints: each is a (day, feet) pair")
        pairs.append((_day(item[0], "complaints"), _count(item[1], "complaints")))
    found = [_day(d, "violations") for d in violations]
    needed = rules.nonrenewal_complaints
    if needed is None:
        return ChickenRenewalDecision(
            renew=True,
            counted_complaints=(),
            counted_violations=(),
            window_after=None,
            may_reapply_on=None,
            why=f"Renew: {rules.source} sets no complaint test for renewal.",
        )
    after = months_before(review_day, rules.complaint_window_months or 12)
    radius = rules.complaint_radius_feet
    near = tuple(
        sorted(
            d for d, feet in pairs if after < d <= review_day and (radius is None or feet <= radius)
        )
    )
    inside = tuple(sorted(d for d in found if after < d <= review_day))
    renew = not (len(near) >= needed and inside)
    within = "" if radius is None else f" from owners within {radius} feet"
    counts = (
        f"{plural(len(near), 'complaint')}{within} and {plural(len(inside), 'violation')} found "
        f"after {format_day(after)} up to the review on {format_day(review_day)}"
    )
    reapply = None
    if renew:
        why = f"Renew: {counts}; {needed} complaints and a violation stop renewal ({rules.source})."
    else:
        if rules.ban_years_after_refusal is not None:
            reapply = add_years(review_day, rules.ban_years_after_refusal)
        ban = (
            ""
            if reapply is None
            else f"; no new permit for {rules.ban_years_after_refusal} years, until "
            f"{format_day(reapply)}"
        )
        why = (
            f"Not renewed: {counts}; the chickens must be removed by the end of the permit "
            f"year{ban} ({rules.source})."
        )
    return ChickenRenewalDecision(
        renew=renew,
        counted_complaints=near,
        counted_violations=inside,
        window_after=after,
        may_reapply_on=reapply,
        why=why,
    )


# --------------------------------------------------------------------------
# Animal fancier's permits
# --------------------------------------------------------------------------


def months_before(day: date, months: int) -> date:
    """The same calendar date ``months`` months earlier; a missing day is the month's last."""
    index = day.year * 12 + (day.month - 1) - months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, _calendar.monthrange(year, month)[1]))


@dataclass(frozen=True)
class RenewalDecision:
    """The treasurer's annual review of an animal fancier's permit (58-533(a)(2)c).

    ``counted``: the incidents inside the window, oldest first;
    ``window_after``: incidents must be dated after this day (and on or
    before ``review_day``). ``appeal_by(notice_day)``: the last day to appeal
    after the certified-mail notice. ``why`` has "renew" and "window".
    """

    renew: bool
    counted: tuple[date, ...]
    review_day: date
    window_after: date
    appeal_days: int
    why: Mapping[str, str]
    profile: Profile = field(repr=False, compare=False)

    def appeal_by(self, notice_day: date) -> date:
        """``deadline_after_days(notice_day, 30)``: the appeal to the board of appeals."""
        return deadline_after_days(_day(notice_day, "notice_day"), self.appeal_days, self.profile)

    def explain_appeal_by(self, notice_day: date) -> str:
        """One sentence for ``appeal_by(notice_day)``."""
        notice_day = _day(notice_day, "notice_day")
        last = self.appeal_by(notice_day)
        nominal = notice_day + timedelta(days=self.appeal_days)
        return (
            f"Appeal by {format_day(last)}: {self.appeal_days} days after the notice sent by "
            f"certified mail on {format_day(notice_day)}{extension_clause(nominal, self.profile)}"
            f" ({self.profile.fancier.source}(2)c.1; {TIME_SOURCE})."
        )


def fancier_renewal(
    incident_days: Iterable[date], review_day: date, profile: Profile
) -> RenewalDecision:
    """Renew an animal fancier's permit unless there were three or more incidents (58-533(a)(2)c).

    Counts each incident (a warning or a citation) dated within the 12 months
    up to and including ``review_day``: ``review_day - 12 months < day <=
    review_day`` (RULES.md section 7). Each entry is a separate incident, two
    on one day count twice. The number and months come from
    ``profile.fancier``.
    """
    rules = profile.fancier
    review_day = _day(review_day, "review_day")
    if isinstance(incident_days, str | date) or not isinstance(incident_days, Iterable):
        raise ValueError("incident_days: must be a list of dates")
    days = [_day(d, "incident_days") for d in incident_days]
    after = months_before(review_day, rules.incident_window_months)
    counted = tuple(sorted(d for d in days if after < d <= review_day))
    renew = len(counted) < rules.incidents_for_nonrenewal
    src = rules.source
    window = (
        f"Incidents counted: those dated after {format_day(after)} up to and including the "
        f"review on {format_day(review_day)} ({rules.incident_window_months} months) ({src}(2)c)."
    )
    n = plural(len(counted), "incident")
    if renew:
        reason = (
            f"Renew: {n} in the {rules.incident_window_months} months up to the review, fewer "
            f"than {rules.incidents_for_nonrenewal} ({src}(2)c)."
        )
    else:
        reason = (
            f"Not renewed (or revoked): {n} in the {rules.incident_window_months} months up to "
            f"the review, on {', '.join(format_day(d) for d in counted)}; "
            f"{rules.incidents_for_nonrenewal} or more mean the permit is not renewed, with "
            f"notice by certified mail ({src}(2)c)."
        )
    return RenewalDecision(
        renew=renew,
        counted=counted,
        review_day=review_day,
        window_after=after,
        appeal_days=rules.appeal_days,
        why=FrozenMap({"renew": reason, "window": window}),
        profile=profile,
    )


def fancier_list_update_due(changed_on: date, profile: Profile) -> date:
    """Last day to update the list of animals after a change (58-533(a)(1)a: 30 days)."""
    return deadline_after_days(
        _day(changed_on, "changed_on"), profile.fancier.list_update_days, profile
    )


def explain_fancier_list_update_due(changed_on: date, profile: Profile) -> str:
    """One sentence for ``fancier_list_update_due`` (58-533(a)(1)a; Wis. Stat. 990.001(4))."""
    changed_on = _day(changed_on, "changed_on")
    days = profile.fancier.list_update_days
    last = fancier_list_update_due(changed_on, profile)
    nominal = changed_on + timedelta(days=days)
    return (
        f"Update the list of animals by {format_day(last)}: {days} days after the change on "
        f"{format_day(changed_on)}{extension_clause(nominal, profile)} "
        f"({profile.fancier.source}(1)a; {TIME_SOURCE})."
    )
