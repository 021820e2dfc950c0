"""Bite quarantine: placement, clinic delivery, examinations, certificate due.

City code 58-527; Wis. Stat. 95.21; ATCP 13.03(3); RULES.md section 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from fieldops.rules._frozen import FrozenMap
from fieldops.rules.calendar import (
    TIME_SOURCE,
    deadline_after_days,
    nominal_last_day,
    to_local,
    utc,
)
from fieldops.rules.explain import (
    explain_days,
    format_day,
    format_day_short,
    format_instant,
)

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

HOME = "home"
CLINIC = "clinic"


@dataclass(frozen=True)
class QuarantinePlan:
    """The schedule of one bite quarantine (city code 58-527).

    ``placement`` is "home" or "clinic". ``deliver_by`` (clinic only) is the
    latest delivery to the clinic. ``first_exam_day`` is the first day of
    isolation (local date of the order); ``last_day`` is the bite date plus the
    observation days, never extended; ``intervening_exam_window`` is the
    inclusive range of days strictly between them, or ``None`` when no
    intervening exam is required (``exams_required == 2``) or none fits (an
    order on the last day or the day before; see ``notes``).
    ``certificate_due`` is the day the owner must return the certification of
    quarantine by. ``why`` maps attribute names to explanations.
    """

    bitten_at: datetime
    ordered_at: datetime
    bite_day: date
    placement: str
    deliver_by: datetime | None
    first_exam_day: date
    intervening_exam_window: tuple[date, date] | None
    last_day: date
    certificate_due: date
    exams_required: int
    why: Mapping[str, str]
    notes: tuple[str, ...] = ()
    broken_home_at: datetime | None = None


def _delivery(start: datetime, profile: Profile) -> datetime:
    # Real elapsed hours, Sundays included: a rabies quarantine is a health
    # deadline (RULES.md section 3), not a period under 990.001(4)(a).
    hours = timedelta(hours=profile.clinic_delivery_hours)
    return (start.astimezone(UTC) + hours).astimezone(profile.timezone)


def _delivery_why(deliver_by: datetime, start: datetime, after: str, profile: Profile) -> str:
    return (
        f"Deliver to a licensed veterinary clinic by {format_instant(deliver_by, profile)}: "
        f"{profile.clinic_delivery_hours} real hours after {after} at "
        f"{format_instant(start, profile)}, Sundays and holidays included; the ordinance says "
        "immediately (city code 58-527(c), (e); Wis. Stat. 95.21(5)(a))."
    )


def quarantine_plan(
    bitten_at: datetime,
    ordered_at: datetime,
    profile: Profile,
    *,
    owner_known: bool,
    rabies_proof: bool,
) -> QuarantinePlan:
    """The quarantine of a dog or cat that bit a person (city code 58-527(b)-(e); Wis. Stat. 95.21(5)).

    Owner known and proof of current rabies vaccination shown: home quarantine
    (58-527(b)). Otherwise a licensed veterinary clinic (58-527(c), (e)), with
    delivery within ``clinic_delivery_hours`` real hours of the order. The
    observation's last day is ``bite date + observation_days``, a minimum
    period that is never extended; the certificate of quarantine is due
    ``certificate_return_days`` after the bite, extended past a Sunday or
    holiday (58-527(d); Wis. Stat. 990.001(4)). Exams: the first day of
    isolation, the last day, and (with three required) one day strictly
    between (58-527(b); ATCP 13.03(3) allows two in a state-approved local
    program).

    Raises ``ValueError`` for naive datetimes, an order before the bite, or an
    order after the observation period has already ended (nothing is left to
    observe; refer to the health officer).
    """
    bitten = to_local(bitten_at, profile)
    ordered = to_local(ordered_at, profile)
    if utc(ordered) < utc(bitten):
        raise ValueError("ordered_at is before bitten_at")
    bite_day = bitten.date()
    last = nominal_last_day(bite_day, profile.observation_days, profile)
    first = ordered.date()
    if first > last:
        raise ValueError(
            f"the observation period ended on {format_day(last)}, before the order on "
            f"{format_day(first)}"
        )

    why: dict[str, str] = {}
    if owner_known and rabies_proof:
        placement, deliver_by = HOME, None
        why["placement"] = (
            "Home quarantine on the owner's premises, confined, tied, leashed or muzzled: the "
            "owner is known and showed proof of current rabies vaccination (city code 58-527(b))."
        )
    else:
        placement = CLINIC
        deliver_by = _delivery(ordered, profile)
        reason = (
            "the owner is unknown (city code 58-527(e))"
            if not owner_known
            else ("no proof of current rabies vaccination was shown (city code 58-527(c))")
        )
        why["placement"] = f"Quarantine in a licensed veterinary clinic: {reason}."
        why["deliver_by"] = _delivery_why(deliver_by, ordered, "the order", profile)

    notes: list[str] = []
    window: tuple[date, date] | None = None
    if profile.exams_required >= 3:
        if first + timedelta(days=1) <= last - timedelta(days=1):
            window = (first + timedelta(days=1), last - timedelta(days=1))
            why["intervening_exam_window"] = (
                f"Second examination on any one day from {format_day(window[0])} to "
                f"{format_day(window[1])}, strictly between the first and last days "
                "(city code 58-527(b))."
            )
        else:
            notes.append(
                "Ordered too late for an intervening examination between the first day "
                f"({format_day(first)}) and the last day ({format_day(last)}); the veterinarian "
                "may extend the observation period (city code 58-527(b))."
            )
    if first == last:
        notes.append("The first and last examinations fall on the same day.")

    why["first_exam_day"] = (
        f"First examination on {format_day(first)}, the first day of isolation, when the "
        "quarantine was ordered (city code 58-527(b))."
    )
    exams = (
        "three examinations"
        if profile.exams_required >= 3
        else ("two examinations under a state-approved local program (ATCP 13.03(3))")
    )
    why["last_day"] = (
        explain_days(
            "Observation ends on",
            bite_day,
            profile.observation_days,
            profile,
            after="the bite",
            source="city code 58-527(b); Wis. Stat. 95.21",
            extended=False,
        )
        + f" It is a minimum, so it is not extended for a Sunday or holiday; the last of "
        f"{exams} is on that day, and the veterinarian may extend the period."
    )
    due = deadline_after_days(bite_day, profile.certificate_return_days, profile)
    why["certificate_due"] = explain_days(
        "Certification of quarantine due by",
        bite_day,
        profile.certificate_return_days,
        profile,
        after="the bite",
        source=f"city code 58-527(d); {TIME_SOURCE}",
    )
    return QuarantinePlan(
        bitten_at=bitten,
        ordered_at=ordered,
        bite_day=bite_day,
        placement=placement,
        deliver_by=deliver_by,
        first_exam_day=first,
        intervening_exam_window=window,
        last_day=last,
        certificate_due=due,
        exams_required=profile.exams_required,
        why=FrozenMap(why),
        notes=tuple(notes),
    )


def plan_after_broken_home(
    plan: QuarantinePlan, found_at: datetime, profile: Profile
) -> QuarantinePlan:
    """The plan once a home quarantine is found broken (city code 58-527(b)).

    An animal found improperly confined or at large moves to a licensed
    veterinary clinic for the balance of the period: placement becomes
    "clinic", ``deliver_by`` counts from ``found_at``; the examination
    schedule, last day and certificate due date do not change. A citation may
    be issued (recorded by the services). Raises ``ValueError`` if the plan is
    not a home quarantine, or ``found_at`` is before the order or after the
    last day.
    """
    found = to_local(found_at, profile)
    if plan.placement != HOME:
        raise ValueError("only a home quarantine can be broken; this one is already in a clinic")
    if utc(found) < utc(plan.ordered_at):
        raise ValueError("found_at is before the quarantine was ordered")
    if found.date() > plan.last_day:
        raise ValueError(f"the observation period ended on {format_day(plan.last_day)}")
    deliver_by = _delivery(found, profile)
    why = dict(plan.why)
    why["placement"] = (
        "Moved to a licensed veterinary clinic for the balance of the observation period: found "
        f"improperly quarantined or at large on {format_day_short(found.date())}; the examination "
        "schedule stays and a citation may be issued (city code 58-527(b))."
    )
    why["deliver_by"] = _delivery_why(deliver_by, found, "it was found", profile)
    return replace(
        plan,
        placement=CLINIC,
        deliver_by=deliver_by,
        broken_home_at=found,
        why=FrozenMap(why),
    )
