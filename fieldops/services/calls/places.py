"""History by address and by owner: every record of every module at an address or of a
person, newest first (what an officer wants to know before knocking).

Each module answers for its own records through the seam (``Module.places``); this
module answers for its calls and citations."""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallCitation, FieldCall, Person
from fieldops.modules import Incident, place_records
from fieldops.rules import calls as rules
from fieldops.services.people import format_address


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """This module's part: calls at the address or about these people, and citations."""
    key = rules.address_key(address)
    part = rules.street_part(address)
    where: list[ColumnElement[bool]] = []
    if person_ids:
        where += [FieldCall.owner_id.in_(person_ids), FieldCall.caller_id.in_(person_ids)]
    if key:
        where.append(FieldCall.address_key == key)
    if part:
        where.append(func.lower(FieldCall.address).contains(part, autoescape=True))
    out: list[Incident] = []
    if where:
        for c in session.scalars(
            select(FieldCall).where(or_(*where)).order_by(FieldCall.received_at.desc()).limit(200)
        ):
            state = rules.OUTCOMES.get(c.outcome or "", c.status)
            out.append(
                Incident(
                    "call",
                    "call",
                    c.id,
                    c.received_at,
                    c.address,
                    f"Call #{c.id}: {rules.kind_label(c.kind)} ({state.lower()})",
                )
            )
    cwhere: list[ColumnElement[bool]] = (
        [CallCitation.person_id.in_(person_ids)] if person_ids else []
    )
    if key:
        cwhere.append(CallCitation.address_key == key)
    if cwhere:
        for t in session.scalars(
            select(CallCitation)
            .where(or_(*cwhere))
            .order_by(CallCitation.issued_at.desc())
            .limit(200)
        ):
            money = f"${t.forfeiture}" if t.forfeiture else "warning"
            out.append(
                Incident(
                    "call",
                    "citation",
                    t.id,
                    t.issued_at,
                    t.address,
                    f"Citation #{t.id}: {t.section}, offence {t.offence_number} ({money})"
                    + (
                        ", VOID"
                        if t.voided_at is not None
                        else ("" if t.paid_on or not t.forfeiture else ", unpaid")
                    ),
                )
            )
    return out


def people_at(session: Session, address: str) -> tuple[int, ...]:
    """The registry's people whose address is this one."""
    part = rules.street_part(address)
    if not part:
        return ()
    rows = session.execute(
        select(Person.id, Person.address)
        .where(func.lower(Person.address).contains(part, autoescape=True))
        .limit(50)
    )
    return tuple(pid for pid, a in rows if rules.street_part(a) == part)


def address_history(
    db: Database, address: str, person_ids: tuple[int, ...] = ()
) -> tuple[Incident, ...]:
    """Every module's records at an address, of the people living there and of
    ``person_ids`` (a call's owner), newest first."""
    with db.read() as s:
        people = tuple(dict.fromkeys((*person_ids, *people_at(s, address))))
        return place_records(s, people, address)


def person_history(db: Database, person_id: int) -> tuple[Incident, ...]:
    """Every module's records of a person (and at their address), newest first."""
    with db.read() as s:
        p = s.get(Person, person_id)
        address = format_address(p.address, p.city) if p else ""
        return place_records(s, (person_id,), address)
