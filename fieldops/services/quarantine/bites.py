"""The bite report and the quarantine order it leads to (city code 58-527(a)-(e)).

``propose`` tells the officer, before anything is saved, what the rules make
of the report: home or clinic quarantine and why, the dates, or a referral to
the health officer for a biting animal that is neither a dog nor a cat.
``report_bite`` writes the report and the order in one unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Animal, BiteReport, Impoundment, Person, Quarantine
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, to_local
from fieldops.rules.quarantine import (
    QuarantinePlan,
    quarantine_applies,
    quarantine_plan,
    rabies_proof_on,
    referral_why,
)
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    jsonable,
    now,
    remember_save,
    snapshot,
)
from fieldops.services.quarantine.clinics import licensed_clinic
from fieldops.services.quarantine.plan import refresh

SPECIES_CODES = ("dog", "cat", "other")
FUTURE_SLACK = timedelta(minutes=5)


@dataclass(frozen=True)
class BiteInput:
    bitten_at: datetime | None
    place: str
    victim_name: str
    reported_by: str
    reported_at: datetime | None
    officer: str
    species: str = ""
    victim_contact: str = ""
    animal_id: int | None = None
    animal_description: str = ""
    owner_id: int | None = None
    owner_unknown: bool = False
    impoundment_id: int | None = None
    rabies_certificate: str = ""
    rabies_vaccinated_on: date | None = None
    rabies_expires_on: date | None = None
    ordered_at: datetime | None = None  # the quarantine order; dogs and cats only
    clinic_id: int | None = None  # the licensed clinic, for a clinic quarantine
    notes: str = ""


@dataclass(frozen=True)
class Proposal:
    """What the rules make of a bite report before it is saved."""

    referral: bool
    why: str  # placement (or referral) in words
    rabies_proof: bool
    rabies_why: str
    plan: QuarantinePlan | None
    species: str
    owner_known: bool


@dataclass(frozen=True)
class Reported:
    bite_report_id: int
    quarantine_id: int | None


def _time(c: Collector, field: str, value: datetime | None, label: str, at: datetime) -> bool:
    """Whether ``value`` is a storable date and time (comparable with the others)."""
    if value is None:
        c.add(field, f"{label} is required.")
    elif not v.instant(c, field, value, label):
        return False
    elif value > at + FUTURE_SLACK:
        c.add(field, f"{label} cannot be in the future.")
    return value is not None


def _facts(s: Session, inp: BiteInput, c: Collector) -> tuple[str, int | None, int | None]:
    """(species, animal id, owner id) from the impoundment, the registry or the form."""
    animal_id, owner_id, species = inp.animal_id, inp.owner_id, inp.species
    if inp.impoundment_id is not None:
        imp = v.row(s, Impoundment, inp.impoundment_id)
        if imp is None:
            c.add("impoundment_id", f"There is no impoundment #{inp.impoundment_id}.")
            return species, animal_id, owner_id
        if imp.disposed:
            c.add(
                "impoundment_id",
                f"Impoundment #{imp.id} is closed: the animal is no longer in the pound.",
            )
        animal_id = imp.animal_id
        owner_id = owner_id if owner_id is not None else imp.owner_id
    if animal_id is not None:
        animal = v.row(s, Animal, animal_id)
        if animal is None:
            c.add("animal", f"There is no animal #{animal_id}.")
        else:
            species = animal.species
            if owner_id is None and not inp.owner_unknown and inp.impoundment_id is None:
                owner_id = animal.owner_id
    if owner_id is not None and v.row(s, Person, owner_id) is None:
        c.add("owner_id", f"There is no person #{owner_id}.")
    return species, animal_id, owner_id


def _check(
    s: Session, inp: BiteInput, profile: Profile, at: datetime
) -> tuple[Proposal, int | None, int | None]:
    c = Collector()
    bitten_ok = _time(c, "bitten_at", inp.bitten_at, "Date and time of the bite", at)
    reported_ok = _time(c, "reported_at", inp.reported_at, "When it was reported", at)
    if bitten_ok and reported_ok and inp.reported_at < inp.bitten_at:  # type: ignore[operator]
        c.add("reported_at", "The bite cannot be reported before it happened.")
    col = BiteReport.__table__.c
    v.required(c, "place", v.clean(inp.place), "Where the bite happened", col.place)
    v.required(c, "victim_name", v.clean(inp.victim_name), "The person bitten", col.victim_name)
    v.optional_len(c, "victim_contact", (inp.victim_contact or "").strip(), "Contact", 2000)
    v.required(c, "reported_by", v.clean(inp.reported_by), "Who reported it", col.reported_by)
    v.required(c, "officer", v.clean(inp.officer), "The officer", col.officer)
    v.optional_len(
        c,
        "rabies_certificate",
        v.clean(inp.rabies_certificate),
        "Certificate",
        col.rabies_certificate,
    )
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    days_ok = v.day(c, "rabies_vaccinated_on", inp.rabies_vaccinated_on, "The vaccination date")
    days_ok &= v.day(c, "rabies_expires_on", inp.rabies_expires_on, "The expiry date")
    species, animal_id, owner_id = _facts(s, inp, c)
    if animal_id is None:
        c.check(species in SPECIES_CODES, "species", "Say what kind of animal bit.")
        v.required(
            c,
            "animal_description",
            v.clean(inp.animal_description),
            "A description of the animal",
            col.animal_description,
        )
    c.check(
        owner_id is not None or inp.owner_unknown or inp.impoundment_id is not None,
        "owner_id",
        "Choose the owner, or tick \u201cowner unknown\u201d.",
    )
    given = (inp.rabies_vaccinated_on, inp.rabies_expires_on)
    if any(given) or v.clean(inp.rabies_certificate):
        c.check(
            inp.rabies_vaccinated_on is not None,
            "rabies_vaccinated_on",
            "Enter the date of the vaccination on the certificate.",
        )
        c.check(
            inp.rabies_expires_on is not None,
            "rabies_expires_on",
            "Enter the date the vaccination expires.",
        )
        if (
            days_ok
            and inp.rabies_expires_on is not None
            and inp.rabies_vaccinated_on is not None
            and inp.rabies_expires_on < inp.rabies_vaccinated_on
        ):
            c.add("rabies_expires_on", "The vaccination cannot expire before it was given.")
    applies = quarantine_applies(species)
    if applies:
        ordered_ok = _time(c, "ordered_at", inp.ordered_at, "When the quarantine was ordered", at)
        if bitten_ok and ordered_ok and inp.ordered_at < inp.bitten_at:  # type: ignore[operator]
            c.add("ordered_at", "The quarantine cannot be ordered before the bite.")
    c.raise_if_any()
    assert inp.bitten_at is not None
    bite_day = to_local(inp.bitten_at, profile).date()
    proof = rabies_proof_on(bite_day, inp.rabies_vaccinated_on, inp.rabies_expires_on)
    if not applies:
        return (
            Proposal(
                True,
                referral_why(species),
                proof.current,
                proof.why,
                None,
                species,
                owner_id is not None,
            ),
            animal_id,
            owner_id,
        )
    assert inp.ordered_at is not None
    try:
        plan = quarantine_plan(
            inp.bitten_at,
            inp.ordered_at,
            profile,
            owner_known=owner_id is not None,
            rabies_proof=proof.current,
        )
    except ValueError as exc:
        raise ValidationError(
            {
                "ordered_at": f"No quarantine can be ordered: {exc}; refer the "
                "bite to the health officer."
            }
        ) from None
    return (
        Proposal(
            False,
            plan.why["placement"],
            proof.current,
            proof.why,
            plan,
            species,
            owner_id is not None,
        ),
        animal_id,
        owner_id,
    )


def propose(db: Database, inp: BiteInput, profile: Profile) -> Proposal:
    """What saving this report would order, and why; nothing is written."""
    with db.read() as s:
        return _check(s, inp, profile, now())[0]


@requires(Permission.BITE_REPORTS)
def report_bite(
    db: Database,
    actor: Actor,
    inp: BiteInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> Reported:
    """Record a bite and, for a dog or cat, order its quarantine (58-527); a bite by any
    other animal is logged for referral to the health officer. A retry with the same
    ``client_key`` returns the report already recorded."""
    at = now()
    with db.write() as s:
        if (done := existing_save(s, client_key, "bite_report", actor)) is not None:
            ordered = s.scalar(select(Quarantine.id).where(Quarantine.bite_report_id == done))
            return Reported(done, ordered)
        proposal, animal_id, owner_id = _check(s, inp, profile, at)
        plan = proposal.plan
        clinic = None
        if plan is not None and plan.placement == "clinic":
            clinic = licensed_clinic(s, inp.clinic_id, "clinic_id")
        animal = s.get(Animal, animal_id) if animal_id is not None else None
        owner = s.get(Person, owner_id) if owner_id is not None else None
        bite = BiteReport(
            bitten_at=inp.bitten_at,
            place=v.clean(inp.place),
            victim_name=v.clean(inp.victim_name),
            victim_contact=(inp.victim_contact or "").strip(),
            species=proposal.species,
            animal_id=animal_id,
            animal_description=v.clean(inp.animal_description),
            owner_id=owner_id,
            owner_unknown=owner_id is None,
            impoundment_id=inp.impoundment_id,
            reported_by=v.clean(inp.reported_by),
            reported_at=inp.reported_at,
            rabies_certificate=v.clean(inp.rabies_certificate),
            rabies_vaccinated_on=inp.rabies_vaccinated_on,
            rabies_expires_on=inp.rabies_expires_on,
            rabies_proof=proposal.rabies_proof,
            officer=v.clean(inp.officer),
            referral=proposal.referral,
            notes=(inp.notes or "").strip(),
            recorded_at=at,
            recorded_by=actor.username,
        )
        s.add(bite)
        s.flush()
        # The contact of the person bitten stays on the case only: not in the audit data.
        audit(
            s,
            actor,
            "bite_report",
            "bite_report",
            bite.id,
            after=snapshot(
                bite,
                (
                    "bitten_at",
                    "place",
                    "victim_name",
                    "species",
                    "animal_id",
                    "owner_id",
                    "impoundment_id",
                    "reported_by",
                    "reported_at",
                    "rabies_certificate",
                    "rabies_vaccinated_on",
                    "rabies_expires_on",
                    "rabies_proof",
                    "officer",
                    "referral",
                ),
            ),
        )
        remember_save(s, client_key, "bite_report", bite.id, actor)
        if plan is None:
            return Reported(bite.id, None)
        label = (
            f"{animal.name or '(no name)'} ({animal.species})"
            if animal
            else bite.animal_description
        )
        q = Quarantine(
            bite_report_id=bite.id,
            animal_id=animal_id,
            ordered_at=inp.ordered_at,
            ordered_placement=plan.placement,
            ordered_clinic_id=clinic.id if clinic else None,
            placement=plan.placement,
            clinic_id=clinic.id if clinic else None,
            first_exam_day=plan.first_exam_day,
            last_day=plan.last_day,
            certificate_due=plan.certificate_due,
            animal_name=label[:300],
            owner_name=owner.full_name if owner else "",
            recorded_by=actor.username,
        )
        s.add(q)
        s.flush()
        refresh(s, bite, q, profile)
        audit(
            s,
            actor,
            "quarantine_order",
            "quarantine",
            q.id,
            after={
                "bite_report_id": bite.id,
                "placement": plan.placement,
                "clinic_id": q.clinic_id,
                "ordered_at": jsonable(inp.ordered_at),
                "deliver_by": jsonable(plan.deliver_by),
                "first_exam_day": jsonable(plan.first_exam_day),
                "last_day": jsonable(plan.last_day),
                "certificate_due": jsonable(plan.certificate_due),
            },
        )
        return Reported(bite.id, q.id)
