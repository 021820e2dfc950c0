"""Vicious animals as a module on the seam: the release block, due items, demo data, checks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, Date, Select, bindparam, exists, select, text
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    Person,
    ViciousCase,
    ViciousDeclaration,
    ViciousIncident,
    ViciousStep,
    ViciousStepDone,
)
from fieldops.db.models.vicious import APPEND_ONLY
from fieldops.db.types import UTCDateTime
from fieldops.later import LaterMapping, LaterSequence, later_call
from fieldops.modules import Demo, DueItem, Incident, Module, ReleaseCase, animal_incidents
from fieldops.rules import Profile, format_day, format_instant, start_of_local_day, to_local
from fieldops.rules import vicious as rules
from fieldops.rules.release import vicious_block
from fieldops.rules.requirement import Requirement
from fieldops.selftest_records import VICIOUS_STEPS
from fieldops.services.context import now

KEY = "vicious"

CATEGORIES = {
    f"{KEY}.notice_expired": "Notice expired, no outcome recorded",
    f"{KEY}.notice_expiring": "Notice expires within 24 hours",
    f"{KEY}.step_due": "Next step due",
    f"{KEY}.notice_to_serve": "Declared: notice to serve",
}

NOT_DECLARED = "No vicious-animal declaration in force for this animal."


def release_blocks(s: Session, animal_id: int, release: ReleaseCase) -> tuple[Requirement]:
    """``not_vicious``: the animal stands declared vicious in a case on record (58-524(b))."""
    from fieldops.services.vicious.cases import declared_case

    found = declared_case(s, animal_id)
    if found is None:
        return (vicious_block(False, release.recipient_in_city, NOT_DECLARED),)
    case_id, _decided_at, officer = found
    # No profile reaches a block, so no local date: the case number finds the record.
    evidence = f"Declared vicious by {officer} (vicious-animal case #{case_id})" + (
        "" if release.recipient_in_city else "; the recipient is outside the city"
    )
    return (vicious_block(True, release.recipient_in_city, evidence),)


@dataclass(frozen=True)
class ViciousDueItem(DueItem):
    animal: str = ""
    owner: str = ""


def _reference(day: date, profile: Profile) -> datetime:
    """The instant "within 24 hours" counts from: now, on today; else the day's start."""
    current = now()
    if to_local(current, profile).date() == day:
        return current
    return start_of_local_day(day, profile)


def due_items(db: Database, day: date, profile: Profile) -> tuple[ViciousDueItem, ...]:
    """Notices expired without an outcome (overdue), notices expiring within 24 hours, next
    steps due (overdue once their day has passed), declarations with no notice served."""
    ref = _reference(day, profile)
    rank = {code: n for n, code in enumerate(CATEGORIES)}
    make = ViciousDueItem.maker()
    items: list[ViciousDueItem] = []

    def add(
        cat: str,
        case_id: int,
        due: date | datetime,
        text_: str,
        animal: str,
        owner: str,
        officer: str,
        overdue: bool = False,
    ) -> None:
        code = f"{KEY}.{cat}"
        items.append(
            make(
                module=KEY,
                kind="case",
                record_id=case_id,
                due=due,
                category=code,
                category_label=CATEGORIES[code],
                text=text_,
                overdue=overdue,
                sort_key=(rank[code], str(due), case_id),
                officer=officer,
                animal=animal,
                owner=owner,
            )
        )

    with db.read() as s:
        conn = s.connection()  # Core rows: the statements name columns only
        rows = conn.execute(_cases_statement(), {"until": ref + timedelta(hours=24)}).all()
        steps = conn.execute(_steps_statement(), {"day": day}).all()
    for case_id, status, deadline, opened, name, species, owner, officer in rows:
        animal = f"Case #{case_id} {name or '(no name)'} ({species})"
        who = f", owner {owner}" if owner else ""
        if status == "declared":
            declared = to_local(opened, profile).date()
            add(
                "notice_to_serve",
                case_id,
                declared,
                f"{animal}{who}: declared {format_day(declared)}, no notice served yet",
                animal,
                owner or "",
                officer or "",
            )
        elif deadline is None:  # a served case always has one; nothing to list without it
            continue
        elif rules.notice_expired(deadline, ref):
            add(
                "notice_expired",
                case_id,
                deadline,
                f"{animal}{who}: the notice expired {format_instant(deadline, profile)}; "
                "record the outcome",
                animal,
                owner or "",
                officer or "",
                overdue=True,
            )
        else:
            add(
                "notice_expiring",
                case_id,
                deadline,
                f"{animal}{who}: destroy or remove by {format_instant(deadline, profile)}",
                animal,
                owner or "",
                officer or "",
            )
    for _sid, case_id, kind, due_on, name, species, owner, officer in steps:
        animal = f"Case #{case_id} {name or '(no name)'} ({species})"
        add(
            "step_due",
            case_id,
            due_on,
            f"{animal}: {rules.NEXT_STEPS[kind]} ({rules.NEXT_STEP_SECTIONS[kind]}), due "
            f"{format_day(due_on)}",
            animal,
            owner or "",
            officer or "",
            overdue=rules.next_step_overdue(due_on, day),
        )
    return tuple(sorted(items, key=lambda i: i.sort_key))


@cache
def _cases_statement() -> Select[*tuple[Any, ...]]:
    """Cases declared with no notice served, and served cases whose notice expires by
    ``until`` (a parameter), each with its declaring officer (the officer's day lists an
    officer's own): a case has one declaration at most (unique case_id), so an outer
    join. No ORDER BY: one item a case, sorted by a key unique to it; ordered by id,
    SQLite read every case in id order instead of the open ones by status. Built once."""
    return (
        select(
            ViciousCase.id,
            ViciousCase.status,
            ViciousCase.notice_deadline,
            ViciousCase.opened_at,
            Animal.name,
            Animal.species,
            Person.full_name,
            ViciousDeclaration.officer,
        )
        .join(Animal, Animal.id == ViciousCase.animal_id)
        .outerjoin(Person, Person.id == ViciousCase.owner_id)
        .outerjoin(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
        .where(
            (ViciousCase.status == "declared")
            | (
                (ViciousCase.status == "served")
                & (ViciousCase.notice_deadline <= bindparam("until", type_=UTCDateTime()))
            )
        )
    )


@cache
def _steps_statement() -> Select[*tuple[Any, ...]]:
    """The next steps due by ``day`` (a parameter) of cases not complied with, not done,
    each with its case's declaring officer. Built once."""
    return (
        select(
            ViciousStep.id,
            ViciousStep.case_id,
            ViciousStep.kind,
            ViciousStep.due_on,
            Animal.name,
            Animal.species,
            Person.full_name,
            ViciousDeclaration.officer,
        )
        .join(ViciousCase, ViciousCase.id == ViciousStep.case_id)
        .join(Animal, Animal.id == ViciousCase.animal_id)
        .outerjoin(Person, Person.id == ViciousCase.owner_id)
        .outerjoin(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
        .where(
            ViciousCase.status == "not_complied",
            ViciousStep.due_on <= bindparam("day", type_=Date()),
            # An anti-join probing the unique step_id, not a read of every step done.
            ~exists().where(ViciousStepDone.step_id == ViciousStep.id),
        )
        .order_by(ViciousStep.due_on, ViciousStep.id)
    )


def demo(d: Demo) -> str:
    from fieldops.services.vicious.demo import cases

    return f"{cases(d)} vicious-animal cases"


def checks(conn: Connection) -> list[str]:
    """Cases written past the services, and summaries out of step with their rows."""
    out: list[str] = []
    n = conn.execute(
        text(
            "SELECT count(*) FROM vicious_case c WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'vicious_case' AND e.entity_id = c.id "
            "AND e.action IN ('declare', 'refuse_declaration'))"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} vicious-animal case(s) have no audit trail of their declaration")
    n = conn.execute(
        text(
            "SELECT count(*) FROM vicious_case c WHERE NOT EXISTS "
            "(SELECT 1 FROM vicious_declaration d WHERE d.case_id = c.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} vicious-animal case(s) have no declaration")
    n = conn.execute(
        text(
            "SELECT count(*) FROM vicious_case c WHERE c.status = 'served' AND NOT EXISTS "
            "(SELECT 1 FROM vicious_notice x WHERE x.case_id = c.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} vicious-animal case(s) are marked served but have no notice")
    out.extend(_link_checks(conn))
    return out


def _link_checks(conn: Connection) -> list[str]:
    """Incidents linked to a record their module no longer offers for the animal (a link
    has no foreign key: the seam is asked, one animal with links at a time)."""
    rows = conn.execute(
        select(
            ViciousCase.animal_id,
            ViciousIncident.source_module,
            ViciousIncident.source_kind,
            ViciousIncident.source_id,
        )
        .join(ViciousCase, ViciousCase.id == ViciousIncident.case_id)
        .where(ViciousIncident.source_module.is_not(None))
    ).all()
    by_animal: dict[int, set[tuple[str | None, str | None, int | None]]] = {}
    for animal_id, module, kind, record_id in rows:
        by_animal.setdefault(animal_id, set()).add((module, kind, record_id))
    missing = 0
    with Session(bind=conn) as s:
        for animal_id, links in by_animal.items():
            offered: set[tuple[str | None, str | None, int | None]] = {
                (i.module, i.kind, i.record_id) for i in animal_incidents(s, animal_id)
            }
            missing += len(links - offered)
    if missing:
        return [
            f"{missing} vicious-animal incident(s) are linked to a record not on file for "
            "their animal"
        ]
    return []


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """Vicious-animal cases of these people's animals, or declared at this owner's
    address (the calls module's history by address and by owner), newest first."""
    from sqlalchemy import ColumnElement, func, or_

    from fieldops.rules.calls import street_part

    part = street_part(address)
    where: list[ColumnElement[bool]] = [ViciousCase.owner_id.in_(person_ids)] if person_ids else []
    if part:
        where.append(func.lower(ViciousDeclaration.owner_address).contains(part, autoescape=True))
    if not where:
        return []
    rows = session.execute(
        select(ViciousCase, ViciousDeclaration.owner_address)
        .join(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
        .where(or_(*where))
        .order_by(ViciousCase.opened_at.desc())
        .limit(200)
    )
    return [
        Incident(
            KEY,
            "case",
            case.id,
            case.opened_at,
            where_,
            f"Vicious-animal case #{case.id} ({case.status.replace('_', ' ')})",
        )
        for case, where_ in rows
    ]


MODULE = Module(
    KEY,
    "Vicious animals",
    release_blocks=release_blocks,
    due_items=due_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    append_only=APPEND_ONLY,
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    event_kinds=LaterMapping("fieldops.services.vicious.history_words:EVENT_KINDS"),
    reports=LaterSequence(items=("fieldops.services.vicious.reporting:REPORT",)),
    activity=later_call("fieldops.services.vicious.activity:activity"),
    places=places,
    self_test=VICIOUS_STEPS,  # fieldops --self-test (fieldops/selftest_records.py)
)
