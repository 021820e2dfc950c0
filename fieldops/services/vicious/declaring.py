"""Declaring an animal vicious, or recording the refusal when an exception applies (58-524(a))."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from fieldops.db.engine import Database
from fieldops.db.models import ViciousCase, ViciousDeclaration, ViciousIncident
from fieldops.db.models.vicious import ExceptionFinding
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, check_declaration
from fieldops.rules import vicious as rules
from fieldops.services import validate as v
from fieldops.services.animals import load_animal
from fieldops.services.context import Actor, audit, jsonable, now
from fieldops.services.people import format_address, load_person
from fieldops.services.vicious.cases import build_view, describe
from fieldops.services.vicious.views import CaseView


@dataclass(frozen=True)
class IncidentInput:
    occurred_at: datetime | None
    place: str
    what: str


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
    v.required(c, "officer", v.clean(inp.officer), "Declaring officer", 200)
    if inp.decided_at is None:
        c.add("decided_at", "Date and time of the decision are required.")
    elif inp.decided_at.tzinfo is None:
        raise ValueError("decided_at must be timezone-aware")
    elif inp.decided_at > at + timedelta(minutes=5):
        c.add("decided_at", "The decision cannot be in the future.")
    if not inp.incidents:
        c.add(
            "incidents",
            "Describe at least one incident the declaration rests on: date, "
            "place and what happened.",
        )
    for n, inc in enumerate(inp.incidents):
        if inc.occurred_at is None:
            c.add(
                f"incidents.{n}.occurred_at", f"Incident {n + 1}: the date and time are required."
            )
        elif inc.occurred_at.tzinfo is None:
            raise ValueError("occurred_at must be timezone-aware")
        elif inc.occurred_at > at + timedelta(minutes=5):
            c.add(f"incidents.{n}.occurred_at", f"Incident {n + 1} cannot be in the future.")
        elif inp.decided_at is not None and inc.occurred_at > inp.decided_at:
            c.add(
                f"incidents.{n}.occurred_at",
                f"Incident {n + 1} is after the decision that rests on it.",
            )
        v.required(
            c, f"incidents.{n}.place", v.clean(inc.place), f"Incident {n + 1}: the place", 300
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


@requires(Permission.VICIOUS_CASES)
def declare(db: Database, actor: Actor, inp: DeclarationInput, profile: Profile) -> CaseView:
    """Declare the animal vicious (58-524(a)), or, when the officer finds an exception that
    applies (58-524(a)(2)), record the refusal with the rules' reasons: either way a case.

    Missing grounds, findings or incident details are field errors and nothing is written."""
    at = now()
    c = validate_declaration(inp, at)
    with db.write() as s:
        animal = None
        if inp.animal_id is not None:
            animal = load_animal(s, inp.animal_id)
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
        for inc in inp.incidents:
            s.add(
                ViciousIncident(
                    case_id=case.id,
                    occurred_at=inc.occurred_at,
                    place=v.clean(inc.place),
                    what=inc.what.strip(),
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
                "incidents": len(inp.incidents),
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
        return build_view(s, case, profile)
