"""History by address and by owner, across modules: every module's records at an address
or of a person, newest first (what an officer wants to know before knocking). Each
module answers for its own records through the seam (``Module.places``); these reads
find the people and the address to ask about in the shared registry."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Person
from fieldops.modules import Incident, place_records
from fieldops.rules import calls as rules
from fieldops.services.people import format_address


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
