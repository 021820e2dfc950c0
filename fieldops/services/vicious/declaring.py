"""Declaring an animal vicious, or recording the refusal when an exception applies (58-524(a))."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    DECLARED_STATUSES,
    Animal,
    Person,
    ViciousCase,
    ViciousDeclaration,
    ViciousIncident,
)
from fieldops.db.models.vicious import ExceptionFinding
from fieldops.errors import Collector, ValidationError
from fieldops.modules import Incident
from fieldops.modules import animal_incidents as seam_incidents
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, check_declaration
from fieldops.rules import vicious as rules
from fieldops.services import validate as v
from fieldops.services.animals import load_animal
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.people import format_address, load_person
from fieldops.services.vicious.cases import build_view, describe, load
from fieldops.services.vicious.views import CaseView


@dataclass(frozen=True)
class IncidentInput:
    """An incident described here (when, where, what), or ``linked`` to a record another
    module offers on the seam (module, kind, id): then its date, place and summary are the
    record's, and ``what`` adds the officer's words (optional)."""

    occurred_at: datetime | None
    place: str
    what: str
    linked: tuple[str, str, int] | None = None


@dataclass(frozen=True)
class Finding:
    """The officer's finding on one exception: applies (True), does not (False), or not
    yet made (None); ``why`` is what the officer found."""

    applies: bool | None = None
    why: str = ""


@dataclass(frozen=True)
class DeclarationInput:
    animal_id: int | None
    owner_id: int | None
    officer: str
    decided_at: datetime | None
    grounds: tuple[str, ...] = ()
    findings: Mapping[str, Finding] = field(default_factory=dict)
    incidents: tuple[IncidentInput, ...] = ()
    notes: str = ""


def missing_findings(findings: Mapping[str, Finding]) -> tuple[str, ...]:
    """The exceptions without a finding yet, in the ordinance's order (the form's Declare)."""
    return tuple(
        c for c in rules.EXCEPTIONS if (findings.get(c) or Finding()).applies not in (True, False)
    )


def validate_declaration(inp: DeclarationInput, at: datetime) -> Collector:
    """Field errors of a declaration; the exceptions found to apply are not errors here (a
    refusal is recorded for them)."""
    c = Collector()
    c.check(inp.animal_id is not None, "animal_id", "Choose the animal.")
    officer = ViciousDeclaration.__table__.c.officer
    v.required(c, "officer", v.clean(inp.officer), "Declaring officer", officer)
    decided_ok = v.instant(c, "decided_at", inp.decided_at, "The date and time of the decision")
    if inp.decided_at is None:
        c.add("decided_at", "Date and time of the decision are required.")
    elif not decided_ok:
        pass  # not a storable date and time: said so
    elif inp.decided_at > at + timedelta(minutes=5):
        c.add("decided_at", "The decision cannot be in the future.")
    if not inp.incidents:
        c.add(
            "incidents",
            "Describe at least one incident the declaration rests on: date, "
            "place and what happened.",
        )
    for n, inc in enumerate(inp.incidents):
        if inc.linked is not None:  # checked against the seam in declare(), with the animal
            v.optional_len(
                c, f"incidents.{n}.what", (inc.what or "").strip(), f"Incident {n + 1}", 4000
            )
            continue
        if inc.occurred_at is None:
            c.add(
                f"incidents.{n}.occurred_at", f"Incident {n + 1}: the date and time are required."
            )
        elif not v.instant(c, f"incidents.{n}.occurred_at", inc.occurred_at, f"Incident {n + 1}"):
            pass  # not a storable date and time: said so
        elif inc.occurred_at > at + timedelta(minutes=5):
            c.add(f"incidents.{n}.occurred_at", f"Incident {n + 1} cannot be in the future.")
        elif decided_ok and inp.decided_at is not None and inc.occurred_at > inp.decided_at:
            c.add(
                f"incidents.{n}.occurred_at",
                f"Incident {n + 1} is after the decision that rests on it.",
            )
        v.required(
            c,
            f"incidents.{n}.place",
            v.clean(inc.place),
            f"Incident {n + 1}: the place",
            ViciousIncident.__table__.c.place,
        )
        v.required(
            c,
            f"incidents.{n}.what",
            (inc.what or "").strip(),
            f"Incident {n + 1}: what happened",
            4000,
        )
    if not [g for g in inp.grounds if g in rules.GROUNDS]:
        c.add("grounds", "Choose at least one ground under 58-524(a)(1) a-d.")
    for g in inp.grounds:
        if g not in rules.GROUNDS:
            c.add("grounds", f"Unknown ground {g!r}.")
    for code in inp.findings:
        if code not in rules.EXCEPTIONS:
            c.add("findings", f"Unknown exception {code!r}.")
    for code in missing_findings(inp.findings):
        c.add(
            f"finding.{code}",
            f"Record a finding on {rules.EXCEPTION_SECTIONS[code]}: {rules.EXCEPTIONS[code]}.",
        )
    for code, f in inp.findings.items():
        v.optional_len(c, f"finding.{code}", v.clean(f.why), "The finding", 2000)
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    return c


def animal_incidents(db: Database, animal_id: int) -> tuple[Incident, ...]:
    """The animal's incidents on record in the other modules (bite reports), for the form."""
    with db.read() as s:
        return seam_incidents(s, animal_id)


def _resolve(
    s: Session, c: Collector, inp: DeclarationInput, animal_id: int
) -> list[tuple[datetime, str, str, tuple[str, str, int] | None]]:
    """Every incident as (when, place, what, link), the linked ones read through the seam;
    a link to no record of this animal, a duplicate, or one after the decision is an error."""
    offered = {(i.module, i.kind, i.record_id): i for i in seam_incidents(s, animal_id)}
    out: list[tuple[datetime, str, str, tuple[str, str, int] | None]] = []
    seen: set[tuple[str, str, int]] = set()
    for n, inc in enumerate(inp.incidents):
        if inc.linked is None:
            if inc.occurred_at is None:  # already a field error
                continue
            out.append((inc.occurred_at, v.clean(inc.place), inc.what.strip(), None))
            continue
        field_ = f"incidents.{n}.linked"
        found = offered.get(inc.linked)
        if found is None:
            c.add(field_, f"Incident {n + 1}: that record is not on file for this animal.")
            continue
        if inc.linked in seen:
            c.add(field_, f"Incident {n + 1}: the same record is linked twice.")
            continue
        seen.add(inc.linked)
        if inp.decided_at is not None and found.when > inp.decided_at:
            c.add(field_, f"Incident {n + 1} is after the decision that rests on it.")
            continue
        words = (inc.what or "").strip()
        what = f"{found.summary}\n{words}" if words else found.summary
        out.append((found.when, found.place[:300], what, inc.linked))
    return out


@requires(Permission.VICIOUS_CASES)
def declare(
    db: Database,
    actor: Actor,
    inp: DeclarationInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> CaseView:
    """Declare the animal vicious (58-524(a)), or, when the officer finds an exception that
    applies (58-524(a)(2)), record the refusal with the rules' reasons: either way a case.

    Missing grounds, findings or incident details are field errors and nothing is written.
    A retry with the same ``client_key`` returns the case already made."""
    at = now()
    c = validate_declaration(inp, at)
    with db.write() as s:
        if (done := existing_save(s, client_key, "vicious_case", actor)) is not None:
            return build_view(s, load(s, done), profile)
        known = v.exists(c, s, Animal, inp.animal_id, "animal_id", "The animal")
        if not known & v.exists(c, s, Person, inp.owner_id, "owner_id", "The owner"):
            c.raise_if_any()
        animal = None
        if inp.animal_id is not None:
            animal = load_animal(s, inp.animal_id, lock=True)  # one declaration at a time
            standing = s.execute(
                select(ViciousCase.id, ViciousCase.status)
                .where(
                    ViciousCase.animal_id == animal.id,
                    ViciousCase.status.in_(DECLARED_STATUSES),
                )
                .limit(1)
            ).first()
            if standing is not None:
                raise ValidationError(
                    {
                        "animal_id": f"{animal.name or 'This animal'} already stands declared "
                        f"vicious (case #{standing.id}, {standing.status.replace('_', ' ')}): "
                        "record what follows on that case."
                    }
                )
        owner_id = (
            inp.owner_id
            if inp.owner_id is not None
            else (animal.owner_id if animal is not None else None)
        )
        c.check(
            animal is None or owner_id is not None,
            "owner_id",
            "Choose the owner or caretaker: the notice is served on them.",
        )
        incidents = _resolve(s, c, inp, animal.id) if animal is not None else []
        c.raise_if_any()
        assert animal is not None and owner_id is not None and inp.decided_at is not None
        owner = load_person(s, owner_id)
        findings: dict[str, ExceptionFinding] = {
            code: {
                "applies": bool(inp.findings[code].applies),
                "why": v.clean(inp.findings[code].why),
            }
            for code in rules.EXCEPTIONS
        }
        grounds = list(dict.fromkeys(inp.grounds))
        check = check_declaration(
            grounds, {k: bool(inp.findings[k].applies) for k in rules.EXCEPTIONS}
        )
        address = format_address(owner.address, owner.city, owner.state, owner.postal_code)
        most = v.column_length(ViciousDeclaration.__table__.c.owner_address)
        if len(address) > most:
            raise ValidationError(
                {
                    "owner_id": f"The owner's address is longer than a declaration keeps ({most} "
                    "characters in all): shorten it in the owner's record first."
                }
            )
        case = ViciousCase(
            animal_id=animal.id,
            owner_id=owner.id,
            status="declared" if check.allowed else "refused",
            opened_at=inp.decided_at,
            search_text=" ".join((animal.name, owner.full_name, address)).lower()[:800],
        )
        s.add(case)
        s.flush()
        s.add(
            ViciousDeclaration(
                case_id=case.id,
                decided_at=inp.decided_at,
                officer=v.clean(inp.officer),
                allowed=check.allowed,
                grounds=grounds,
                findings=findings,
                refusal_reasons=list(check.reasons),
                owner_address=address,
                notes=(inp.notes or "").strip(),
                recorded_by=actor.username,
                recorded_at=at,
            )
        )
        for when, place, what, link in incidents:
            s.add(
                ViciousIncident(
                    case_id=case.id,
                    occurred_at=when,
                    place=place,
                    what=what,
                    source_module=link[0] if link else None,
                    source_kind=link[1] if link else None,
                    source_id=link[2] if link else None,
                )
            )
        s.flush()
        after = jsonable(
            {
                "animal_id": animal.id,
                "owner_id": owner.id,
                "decided_at": inp.decided_at,
                "officer": v.clean(inp.officer),
                "grounds": grounds,
                "exceptions_found": [k for k, f in findings.items() if f["applies"]],
                "incidents": len(incidents),
                "linked": [":".join(map(str, x[3])) for x in incidents if x[3] is not None],
            }
        )
        if check.allowed:
            audit(s, actor, "declare", "vicious_case", case.id, after=after)
            audit(
                s,
                actor,
                "declared_vicious",
                "animal",
                animal.id,
                after={"vicious_case": case.id, "animal": describe(animal)},
            )
        else:
            audit(
                s,
                actor,
                "refuse_declaration",
                "vicious_case",
                case.id,
                after=after,
                reason=" ".join(check.reasons),
            )
        remember_save(s, client_key, "vicious_case", case.id, actor)
        return build_view(s, case, profile)
