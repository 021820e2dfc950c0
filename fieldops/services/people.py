"""People: owners, adopters, bitten persons, veterinarians."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Person
from fieldops.db.search import phone_search_text
from fieldops.errors import Collector, NotFoundError, StaleRecordError
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, changed_only, now, snapshot
from fieldops.services.listing import Page, active_count, fts_ids, page_ids


@dataclass(frozen=True)
class PersonInput:
    full_name: str
    address: str = ""
    city: str = ""
    postal_code: str = ""
    in_city: bool = True
    phone: str = ""
    email: str = ""
    is_veterinarian: bool = False
    clinic_id: int | None = None
    notes: str = ""


@dataclass(frozen=True)
class PersonRow:
    id: int
    full_name: str
    address: str
    city: str
    phone: str
    email: str


@dataclass(frozen=True)
class OwnedAnimal:
    id: int
    name: str
    species: str
    breed: str


@dataclass(frozen=True)
class PersonView:
    id: int
    version: int
    full_name: str
    address: str
    city: str
    postal_code: str
    in_city: bool
    phone: str
    email: str
    is_veterinarian: bool
    clinic_id: int | None
    notes: str
    created_at: datetime
    archived: bool
    animals: tuple[OwnedAnimal, ...] = field(default=())

    @property
    def mailing_address(self) -> str:
        return ", ".join(p for p in (self.address, self.city, self.postal_code) if p)

    def as_input(self) -> PersonInput:
        return PersonInput(
            full_name=self.full_name, address=self.address, city=self.city,
            postal_code=self.postal_code, in_city=self.in_city, phone=self.phone,
            email=self.email, is_veterinarian=self.is_veterinarian,
            clinic_id=self.clinic_id, notes=self.notes,
        )


FIELDS = tuple(f for f in PersonInput.__dataclass_fields__)


def normalise(inp: PersonInput) -> PersonInput:
    return PersonInput(
        full_name=v.clean(inp.full_name), address=v.clean(inp.address), city=v.clean(inp.city),
        postal_code=v.clean(inp.postal_code), in_city=bool(inp.in_city), phone=v.clean(inp.phone),
        email=v.clean(inp.email).lower(), is_veterinarian=bool(inp.is_veterinarian),
        clinic_id=inp.clinic_id, notes=(inp.notes or "").strip(),
    )


def validate_person(inp: PersonInput) -> PersonInput:
    """Clean and check a person's fields; raises ValidationError naming each bad field."""
    inp = normalise(inp)
    c = Collector()
    v.required(c, "full_name", inp.full_name, "Name", 200)
    v.optional_len(c, "address", inp.address, "Address", 300)
    v.optional_len(c, "city", inp.city, "City", 100)
    v.postal_code(c, "postal_code", inp.postal_code)
    v.phone(c, "phone", inp.phone)
    v.email(c, "email", inp.email)
    v.optional_len(c, "notes", inp.notes, "Notes", 4000)
    c.raise_if_any()
    return inp


def sort_name(full_name: str) -> str:
    """"Family, given" in lower case, without punctuation, for ordering lists."""
    parts = [re.sub(r"[^\w' -]", "", p) for p in full_name.lower().split()]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return " ".join(parts)
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


def _apply(person: Person, inp: PersonInput) -> None:
    for name in FIELDS:
        setattr(person, name, getattr(inp, name))
    person.sort_name = sort_name(inp.full_name)
    person.search_phone = phone_search_text(inp.phone)


def _view(session: Session, p: Person) -> PersonView:
    animals = session.execute(
        select(Animal.id, Animal.name, Animal.species, Animal.breed)
        .where(Animal.owner_id == p.id, Animal.archived_at.is_(None))
        .order_by(Animal.name, Animal.id)
    ).all()
    return PersonView(
        id=p.id, version=p.version, full_name=p.full_name, address=p.address, city=p.city,
        postal_code=p.postal_code, in_city=p.in_city, phone=p.phone, email=p.email,
        is_veterinarian=p.is_veterinarian, clinic_id=p.clinic_id, notes=p.notes,
        created_at=p.created_at, archived=p.archived_at is not None,
        animals=tuple(OwnedAnimal(*a) for a in animals),
    )


def load_person(session: Session, person_id: int) -> Person:
    person = session.get(Person, person_id)
    if person is None:
        raise NotFoundError(f"There is no person #{person_id}.")
    return person


def create_person(db: Database, actor: Actor, inp: PersonInput) -> PersonView:
    inp = validate_person(inp)
    with db.write() as s:
        person = Person()
        _apply(person, inp)
        s.add(person)
        s.flush()
        audit(s, actor, "create", "person", person.id, after=snapshot(person, FIELDS))
        return _view(s, person)


def update_person(
    db: Database, actor: Actor, person_id: int, inp: PersonInput, *, expected_version: int
) -> PersonView:
    """Save an edit; refuses if the record changed since the form was opened."""
    inp = validate_person(inp)
    try:
        with db.write() as s:
            person = load_person(s, person_id)
            if person.version != expected_version:
                raise StaleRecordError(
                    f"{person.full_name} was changed by someone else while you were editing. "
                    "Reopen the record to see the changes; your edits were not saved."
                )
            before = snapshot(person, FIELDS)
            _apply(person, inp)
            s.flush()
            b, a = changed_only(before, snapshot(person, FIELDS))
            if a:
                audit(s, actor, "update", "person", person.id, before=b, after=a)
            return _view(s, person)
    except StaleDataError as exc:
        raise StaleRecordError("The record was changed by someone else; reopen it.") from exc


def archive_person(db: Database, actor: Actor, person_id: int, reason: str) -> None:
    c = Collector()
    c.check(bool(v.clean(reason)), "reason", "Say why the record is archived.")
    c.raise_if_any()
    with db.write() as s:
        person = load_person(s, person_id)
        person.archived_at = now()
        person.archive_reason = v.clean(reason)
        audit(s, actor, "archive", "person", person_id, reason=v.clean(reason))


def get_person(db: Database, person_id: int) -> PersonView:
    with db.read() as s:
        return _view(s, load_person(s, person_id))


PEOPLE_ORDER = (Person.sort_name, Person.id)


def count_people(db: Database, text: str = "") -> int:
    with db.read() as s:
        return active_count(s, Person, fts_ids(db, "person", text))


def people_page(db: Database, text: str, offset: int, limit: int) -> Page[PersonRow]:
    """One page of people, ordered by family name, found by name, address, phone or e-mail."""
    with db.read() as s:
        ids = page_ids(db, Person, PEOPLE_ORDER, "ix_person_active_order",
                       fts_ids(db, "person", text), offset, limit)
        rows = s.execute(
            select(Person.id, Person.full_name, Person.address, Person.city, Person.phone,
                   Person.email)
            .join(ids, ids.c.id == Person.id).order_by(*PEOPLE_ORDER)
        ).all()
        return Page(offset=offset, rows=tuple(PersonRow(*r) for r in rows))
