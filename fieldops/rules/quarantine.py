"""Bite quarantine: placement, clinic delivery, examinations, certificate due.

City code 58-527; Wis. Stat. 95.21; ATCP 13.03(3); RULES.md section 3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

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
    plural,
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


TOO_LATE = "Ordered too late for an intervening examination"
SAME_DAY = "The first and last examinations fall on the same day."


def _intervening(first: date, last: date, required: int) -> tuple[date, date] | None:
    """The days strictly between the first and last examinations, when three are required
    and there is at least one such day (58-527(b))."""
    lo, hi = first + timedelta(days=1), last - timedelta(days=1)
    return (lo, hi) if required >= 3 and lo <= hi else None


def _intervening_why(window: tuple[date, date]) -> str:
    return (
        f"Second examination on any one day from {format_day(window[0])} to "
        f"{format_day(window[1])}, strictly between the first and last days "
        "(city code 58-527(b))."
    )


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
    window = _intervening(first, last, profile.exams_required)
    if window is not None:
        why["intervening_exam_window"] = _intervening_why(window)
    elif profile.exams_required >= 3:
        notes.append(
            f"{TOO_LATE} between the first day ({format_day(first)}) and the last day "
            f"({format_day(last)}); the veterinarian may extend the observation period "
            "(city code 58-527(b))."
        )
    if first == last:
        notes.append(SAME_DAY)

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


# --- The bite report and the course of a quarantine (city code 58-527; RULES.md section 3) ---

#: The species a bite quarantine applies to; any other biting animal is logged and
#: referred to the health officer (RULES.md section 3, "Bite report").
QUARANTINE_SPECIES: tuple[str, ...] = ("dog", "cat")

#: What a veterinarian finds at an examination (RULES.md section 3, "Examinations").
EXAM_FINDINGS: dict[str, str] = {
    "no_signs": "No signs of rabies",
    "signs_of_rabies": "Signs of rabies",
    "died": "Died",
}

#: How a quarantine ends (RULES.md section 3, "Outcomes"); "open" until one of them.
CLOSED_STATUSES: tuple[str, ...] = ("certified", "died", "euthanized", "escaped")

#: The required examinations, in order, with their words.
EXAM_SLOTS: dict[str, str] = {
    "first": "first examination",
    "intervening": "intervening examination",
    "last": "last examination",
}

SPECIMEN_NOTE = (
    "Do not damage the head: the specimen goes to the State Laboratory of "
    "Hygiene (city code 58-527; Wis. Stat. 95.21)."
)


def quarantine_applies(species: str) -> bool:
    """Whether a bite by this species is quarantined (dogs and cats, city code 58-527(a), (b));
    any other biting animal is referred to the health officer."""
    return (species or "").strip().lower() in QUARANTINE_SPECIES


def referral_why(species: str) -> str:
    return (
        f"A bite by a {species or 'animal'} that is neither a dog nor a cat: city code "
        "58-527 quarantines dogs and cats only, so the bite is logged and referred to the "
        "health officer, who decides on observation or testing (58-527(a), (b))."
    )


@dataclass(frozen=True)
class RabiesProof:
    """Whether the proof of vaccination shown covers the day of the bite, and why."""

    current: bool
    why: str


def rabies_proof_on(
    bite_day: date, vaccinated_on: date | None, expires_on: date | None
) -> RabiesProof:
    """Proof of current rabies vaccination on the day of the bite (city code 58-527(b)): a
    certificate given on or before that day and expiring on or after it."""
    if vaccinated_on is None or expires_on is None:
        return RabiesProof(False, "No proof of rabies vaccination was shown (city code 58-527(c)).")
    if vaccinated_on > bite_day:
        return RabiesProof(
            False,
            f"The vaccination on {format_day(vaccinated_on)} came after the "
            f"bite on {format_day(bite_day)}: it is not proof that the "
            "animal was immunized when it bit (city code 58-527(c)).",
        )
    if expires_on < bite_day:
        return RabiesProof(
            False,
            f"The vaccination expired on {format_day(expires_on)}, before "
            f"the bite on {format_day(bite_day)} (city code 58-527(c)).",
        )
    return RabiesProof(
        True,
        f"Vaccinated {format_day(vaccinated_on)}, valid until "
        f"{format_day(expires_on)}: current on the day of the bite "
        "(city code 58-527(b)).",
    )


def extend_observation(
    plan: QuarantinePlan, new_last_day: date, veterinarian: str, profile: Profile
) -> QuarantinePlan:
    """The plan once the veterinarian extends the observation period (city code 58-527(b);
    RULES.md section 3): the last day and its examination move to ``new_last_day``; the
    intervening window runs up to the day before it. The certification of quarantine stays
    due 15 days after the bite (58-527(d) counts from the bite, not from the release).

    Raises ``ValueError`` when ``new_last_day`` is not after the current last day."""
    if new_last_day <= plan.last_day:
        raise ValueError(f"an extension must end after {format_day(plan.last_day)}")
    why = dict(plan.why)
    # A period too short for an intervening examination may have room for one once
    # extended: the veterinarian's extension is what the rules' note suggested.
    window = _intervening(plan.first_exam_day, new_last_day, plan.exams_required)
    notes = tuple(n for n in plan.notes if n != SAME_DAY)
    if window is not None:
        why["intervening_exam_window"] = _intervening_why(window)
        notes = tuple(n for n in notes if not n.startswith(TOO_LATE))
    why["last_day"] = (
        f"Observation extended to {format_day(new_last_day)} by {veterinarian or 'the veterinarian'}"
        f" (it would have ended on {format_day(plan.last_day)}); the last examination is on that "
        "day (city code 58-527(b): the veterinarian may extend the period)."
    )
    if new_last_day > plan.certificate_due:
        notes = (
            *notes,
            "The extended period ends after the certification of quarantine is due "
            f"({format_day(plan.certificate_due)}); 58-527(d) counts 15 days from "
            "the bite, so the owner returns it once the veterinarian certifies.",
        )
    return replace(
        plan, last_day=new_last_day, intervening_exam_window=window, why=FrozenMap(why), notes=notes
    )


def required_exams(plan: QuarantinePlan) -> tuple[tuple[str, date, date], ...]:
    """The required examinations as (slot, from day, to day), inclusive (58-527(b))."""
    out = [("first", plan.first_exam_day, plan.first_exam_day)]
    if plan.intervening_exam_window is not None:
        out.append(("intervening", *plan.intervening_exam_window))
    if plan.last_day != plan.first_exam_day:
        out.append(("last", plan.last_day, plan.last_day))
    return tuple(out)


def exam_slot(plan: QuarantinePlan, day: date, done: tuple[str, ...] = ()) -> str | None:
    """The required examination an exam on ``day`` counts as, or ``None`` (outside every
    required day and window, or its slot is already done)."""
    for slot, start, end in required_exams(plan):
        if start <= day <= end and slot not in done:
            return slot
    return None


def missing_exams(
    plan: QuarantinePlan, done: tuple[str, ...], by: date | None = None
) -> tuple[tuple[str, date, date], ...]:
    """The required examinations not yet done; with ``by``, only those whose last day is before
    ``by`` (overdue on ``by``)."""
    return tuple(x for x in required_exams(plan) if x[0] not in done and (by is None or x[2] < by))


def exam_warning(plan: QuarantinePlan, day: date, done: tuple[str, ...]) -> str:
    """The warning for an exam on no required day: which required exam is still missing."""
    if exam_slot(plan, day, done) is not None:
        return ""
    missing = missing_exams(plan, done)
    where = (
        (
            "; still missing: "
            + "; ".join(
                f"the {EXAM_SLOTS[s]} ({format_day(a)}"
                + (f" to {format_day(b)})" if b != a else ")")
                for s, a, b in missing
            )
        )
        if missing
        else "; every required examination is already done"
    )
    return (
        f"An examination on {format_day(day)} is on none of the required days"
        f"{where} (city code 58-527(b))."
    )


def certification_refused(findings: Iterable[tuple[str | None, str]]) -> str:
    """Why the veterinarian's certification of no signs of rabies cannot end the quarantine,
    "" when it can (58-527(b); RULES.md section 3). ``findings``: each examination's
    (required exam it counts as, or None; finding), as corrected. Any examination that
    found signs of rabies bars it (that is an outcome of its own, reported to the health
    officer), and so does a last examination that did not find the animal free of them."""
    seen = list(findings)
    if any(f == "signs_of_rabies" for _slot, f in seen):
        return (
            "An examination found signs of rabies: the animal cannot be certified free of "
            "them (city code 58-527(b)); the health officer decides what follows."
        )
    if any(slot == "last" and f != "no_signs" for slot, f in seen):
        return (
            "The last examination did not find the animal free of signs of rabies: it "
            "cannot be certified."
        )
    return ""


class _Period(Protocol):
    """What the day count reads: a plan, or a list row's two dates."""

    @property
    def bite_day(self) -> date: ...

    @property
    def last_day(self) -> date: ...


def observation_day(plan: _Period, day: date) -> int:
    """Day N of the observation period: the bite is day 0, the last day is day 10."""
    return (day - plan.bite_day).days


def observation_ended(plan: _Period, day: date) -> bool:
    """Whether the observation period has run to its last day on ``day``: a release with the
    veterinarian's certification of no signs of rabies, and the certification returned,
    come no sooner (58-527(b), (d); RULES.md section 3)."""
    return day >= plan.last_day


def observation_length(plan: _Period) -> int:
    return (plan.last_day - plan.bite_day).days


@dataclass(frozen=True)
class QuarantineBoarding:
    """Boarding owed for a clinic quarantine at the pound: ``days`` at ``per_day``."""

    days: int
    per_day: Decimal
    amount: Decimal
    why: str


def quarantine_boarding(
    arrived_at: datetime,
    until: datetime,
    species: str,
    profile: Profile,
    impounded: Sequence[tuple[datetime, datetime | None]] = (),
) -> QuarantineBoarding:
    """Boarding for a clinic quarantine at the pound (city code 58-527(c), (e); RULES.md
    section 3: "Owner pays exams and boarding").

    Days are counted as the pound counts them (RULES.md section 2): the local date the
    animal leaves (or ``until``, the moment asked about) minus the local date it arrived,
    at least 1, at the profile's boarding rate for its species. Days on which the animal
    was also held under an impoundment (``impounded``: custody start and end, ``None``
    while still held) are left out: the pound already charges their boarding with the
    impoundment's fees (58-526(a)), and a day is never charged twice.
    """
    if utc(until, "until") < utc(arrived_at, "arrived_at"):
        until = arrived_at
    first = to_local(arrived_at, profile).date()
    last = to_local(until, profile).date()
    days = {first + timedelta(days=i) for i in range(max(1, (last - first).days))}
    held: set[date] = set()
    for start, end in impounded:
        s_day = to_local(start, profile).date()
        e_day = to_local(end, profile).date() if end is not None else last
        held |= {s_day + timedelta(days=i) for i in range(max(1, (e_day - s_day).days))}
    charged = len(days - held)
    kind = species.strip().lower() if isinstance(species, str) else "other"
    per_day = profile.fees[profile.fee_class(kind or "other")].boarding_per_day
    why = (
        f"{plural(len(days), 'day')} at the pound from {format_day(first)}"
        f" at ${per_day:,.2f} a day (city code 58-527(c), (e): the owner pays boarding)"
    )
    if len(days) != charged:
        why += (
            f"; {plural(len(days) - charged, 'day')} left out, already charged as the "
            "boarding of an impoundment (58-526(a))"
        )
    return QuarantineBoarding(charged, per_day, per_day * charged, why + ".")


#: The text of city code 58-527 the quarantine order rests on (Ord. No. 2019-1543), quoted
#: on the owner's copy.
ORDINANCE_58_527: dict[str, str] = {
    "(b)": (
        "Whenever a dog or cat bites a person, the owner shall provide to a police officer "
        "proof of current immunization against rabies. If such proof is provided, the police "
        "officer shall order the animal quarantined on the owner's premises for a period for "
        "ten days, during which time the animal shall be kept securely confined, tied, "
        "leashed or muzzled and examined three times by a veterinarian. The examination "
        "shall be on the first day, on the tenth day and on one intervening day. The "
        "examination fees and all costs shall be paid by the owner of such animal. During "
        "the home quarantine period, if the animal is found to be improperly quarantined or "
        "at large, an officer shall place the animal in a veterinary clinic for the balance "
        "of the ten-day period, during which time the animal shall be examined as described "
        "above, and the officer may issue a citation."
    ),
    "(c)": (
        "If proof of rabies immunization cannot be provided by the owner, a police officer "
        "shall immediately quarantine the animal in a licensed veterinary clinic for a period "
        "of ten days. All costs will be paid by the owner to the clinic before release of the "
        "animal."
    ),
    "(d)": (
        "An owner of a quarantined animals shall return to the police department the "
        '"certification of quarantine" that was left with them by an officer within 15 '
        "days of the date of the bite."
    ),
    "(e)": (
        "Whenever a dog or cat with an unknown owner bites a person, a police officer shall "
        "quarantine the animal at a licensed veterinary animal clinic and the animal shall be "
        "isolated at the clinic for a period of ten days, during which time the animal shall "
        "be examined as required by Wis. Stat. § 95.21(5)(b). All boarding and examination "
        "fees shall be paid by the owner, if located."
    ),
}
