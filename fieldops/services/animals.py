"""Animals in the registry and their rabies vaccinations."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, Integer, Select, Subquery, TextClause, func, or_, select
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from fieldops.db.engine import Database
from fieldops.db.models import SEXES, SPECIES, Animal, Clinic, Person, RabiesVaccination
from fieldops.db.search import fts5_query, search_terms
from fieldops.errors import Collector, NotFoundError, StaleRecordError
from fieldops.permissions import Permission, requires
from fieldops.services import validate as v
from fieldops.services.audit import HistoryEntry, history
from fieldops.services.context import (
    Actor,
    audit,
    changed_only,
    existing_save,
    jsonable,
    now,
    remember_save,
    snapshot,
)
from fieldops.services.listing import (
    Page,
    active_count,
    fts_ids,
    nearer_end,
    page_ids,
    reading,
)


@dataclass(frozen=True)
class AnimalInput:
    species: str
    name: str = ""
    species_detail: str = ""
    breed: str = ""
    colour: str = ""
    sex: str = "unknown"
    altered: bool | None = None
    birth_date: date | None = None
    markings: str = ""
    microchip: str = ""
    licence_number: str = ""
    licence_year: int | None = None
    owner_id: int | None = None
    notes: str = ""


@dataclass(frozen=True)
class VaccinationInput:
    vaccinated_on: date
    expires_on: date
    certificate_number: str = ""
    veterinarian: str = ""
    clinic_id: int | None = None


@dataclass(frozen=True)
class VaccinationView:
    id: int
    certificate_number: str
    vaccinated_on: date
    expires_on: date
    veterinarian: str

    def current_on(self, day: date) -> bool:
        return self.vaccinated_on <= day <= self.expires_on


@dataclass(frozen=True)
class AnimalRow:
    id: int
    name: str
    species: str
    breed: str
    colour: str
    microchip: str
    licence_number: str
    owner_name: str


@dataclass(frozen=True)
class AnimalView:
    id: int
    version: int
    name: str
    species: str
    species_detail: str
    breed: str
    colour: str
    sex: str
    altered: bool | None
    birth_date: date | None
    markings: str
    microchip: str
    licence_number: str
    licence_year: int | None
    owner_id: int | None
    owner_name: str
    notes: str
    archived: bool
    vaccinations: tuple[VaccinationView, ...]

    @property
    def label(self) -> str:
        name = self.name or "(no name)"
        kind = (
            self.species_detail if self.species == "other" and self.species_detail else self.species
        )
        return f"{name}, {kind}" + (f", {self.breed}" if self.breed else "")

    def rabies_current_on(self, day: date) -> VaccinationView | None:
        current = [x for x in self.vaccinations if x.current_on(day)]
        return max(current, key=lambda x: x.expires_on) if current else None

    def licensed_for(self, year: int) -> bool:
        return bool(self.licence_number) and self.licence_year == year

    def as_input(self) -> AnimalInput:
        return AnimalInput(**{f: getattr(self, f) for f in AnimalInput.__dataclass_fields__})


FIELDS = tuple(AnimalInput.__dataclass_fields__)

UNKNOWN_AGE = "unknown"


def _months_between(birth: date, on: date) -> int:
    """Whole months from ``birth`` to ``on`` (a month is complete on the same day of the month)."""
    months = (on.year - birth.year) * 12 + on.month - birth.month
    return months - 1 if on.day < birth.day else months


def approximate_age(birth_date: date | None, on: date) -> str:
    """The animal's approximate age on a day, as every screen and the record sheet say it.

    The intake form (a registry animal's birth date, or the years the officer
    guessed) and the saved record both use this, on the custody day, so the
    age the officer saw is the age the record keeps.
    """
    if birth_date is None:
        return UNKNOWN_AGE
    months = max(_months_between(birth_date, on), 0)
    if months < 12:
        return f"about {months} month{'s' if months != 1 else ''}"
    years = months // 12
    return f"about {years} year{'s' if years != 1 else ''}"


def birth_date_for_age(years: int, on: date) -> date:
    """The approximate birth date of an animal guessed to be ``years`` old on ``on``:
    the same day that many years before (28 Feb for 29 Feb), or six months for 0."""
    if years <= 0:
        month = on.month - 6
        year = on.year + (month - 1) // 12
        month = (month - 1) % 12 + 1
        return date(year, month, min(on.day, 28))
    return date(on.year - years, on.month, min(on.day, 28) if on.month == 2 else on.day)


def validate_animal(inp: AnimalInput, today: date) -> AnimalInput:
    """Clean and check an animal's fields; raises ValidationError naming each bad field."""
    inp = AnimalInput(
        species=(inp.species or "").strip().lower(),
        name=v.clean(inp.name),
        species_detail=v.clean(inp.species_detail),
        breed=v.clean(inp.breed),
        colour=v.clean(inp.colour),
        sex=(inp.sex or "unknown").strip().lower(),
        altered=inp.altered,
        birth_date=inp.birth_date,
        markings=(inp.markings or "").strip(),
        microchip=v.clean(inp.microchip).replace(" ", ""),
        licence_number=v.clean(inp.licence_number).upper(),
        licence_year=inp.licence_year,
        owner_id=inp.owner_id,
        notes=(inp.notes or "").strip(),
    )
    c = Collector()
    c.check(inp.species in SPECIES, "species", "Species must be dog, cat or other.")
    if inp.species == "other":
        c.check(bool(inp.species_detail), "species_detail", "Say what kind of animal it is.")
    c.check(inp.sex in SEXES, "sex", "Sex must be male, female or unknown.")
    col = Animal.__table__.c
    for f, label, n in (
        ("name", "Name", col.name),
        ("species_detail", "Kind of animal", col.species_detail),
        ("breed", "Breed", col.breed),
        ("colour", "Colour", col.colour),
        ("markings", "Markings", 2000),
        ("licence_number", "Licence number", col.licence_number),
        ("notes", "Notes", 4000),
    ):
        v.optional_len(c, f, getattr(inp, f), label, n)
    if inp.microchip and not v.MICROCHIP.match(inp.microchip):
        c.add("microchip", "Microchip must be 9 to 15 letters or digits (usually 15 digits).")
    if v.day(c, "birth_date", inp.birth_date, "Birth date"):
        v.not_future(c, "birth_date", inp.birth_date, "Birth date", today)
    if inp.licence_year is not None and not isinstance(inp.licence_year, int):
        c.add("licence_year", "Licence year must be a year, e.g. 2026.")
    elif inp.licence_year is not None and not 1990 <= inp.licence_year <= today.year + 1:
        c.add("licence_year", f"Licence year must be between 1990 and {today.year + 1}.")
    if inp.licence_number and inp.licence_year is None:
        c.add("licence_year", "Give the year the licence was issued for.")
    if inp.licence_year is not None and not inp.licence_number:
        c.add("licence_number", "Give the licence number for that year.")
    c.raise_if_any()
    return AnimalInput(
        **{
            **inp.__dict__,
            "microchip": inp.microchip or "",
            "licence_number": inp.licence_number or "",
        }
    )


def validate_vaccination(inp: VaccinationInput, today: date) -> None:
    c = Collector()
    c.check(inp.vaccinated_on is not None, "vaccinated_on", "Vaccination date is required.")
    c.check(inp.expires_on is not None, "expires_on", "Expiry date is required.")
    if not (
        v.day(c, "vaccinated_on", inp.vaccinated_on, "Vaccination date")
        & v.day(c, "expires_on", inp.expires_on, "Expiry date")
    ):
        c.raise_if_any()
    if inp.vaccinated_on and inp.expires_on and inp.expires_on < inp.vaccinated_on:
        c.add("expires_on", "Expiry cannot be before the vaccination date.")
    v.not_future(c, "vaccinated_on", inp.vaccinated_on, "Vaccination date", today)
    col = RabiesVaccination.__table__.c
    cert, vet = v.clean(inp.certificate_number), v.clean(inp.veterinarian)
    v.optional_len(c, "certificate_number", cert, "Certificate", col.certificate_number)
    v.optional_len(c, "veterinarian", vet, "Veterinarian", col.veterinarian)
    c.raise_if_any()


def _check_unique_chip(s: Session, inp: AnimalInput, animal_id: int | None) -> None:
    if not inp.microchip:
        return
    other = s.execute(
        select(Animal.id, Animal.name).where(
            Animal.microchip == inp.microchip,
            Animal.archived_at.is_(None),
            Animal.id != (animal_id or -1),
        )
    ).first()
    if other:
        c = Collector()
        c.add(
            "microchip",
            f"Microchip {inp.microchip} is already registered to "
            f"animal #{other.id} {other.name or ''}".rstrip()
            + ".",
        )
        c.raise_if_any()


def _apply(s: Session, animal: Animal, inp: AnimalInput) -> None:
    c = Collector()
    v.exists(c, s, Person, inp.owner_id, "owner_id", "The owner")
    c.raise_if_any()
    for f in FIELDS:
        value = getattr(inp, f)
        if f in ("microchip", "licence_number"):
            value = value or None
        setattr(animal, f, value)


def _snap(animal: Animal) -> dict[str, Any]:
    data = snapshot(animal, FIELDS)
    data["microchip"] = data["microchip"] or ""
    data["licence_number"] = data["licence_number"] or ""
    return data


def load_animal(s: Session, animal_id: int, *, lock: bool = False) -> Animal:
    """The animal; ``lock`` holds its row until commit (FOR UPDATE on PostgreSQL; SQLite's
    IMMEDIATE write transaction already serialises writers)."""
    animal = s.get(Animal, animal_id, with_for_update=lock)
    if animal is None:
        raise NotFoundError(f"There is no animal #{animal_id}.")
    return animal


def _view(s: Session, a: Animal) -> AnimalView:
    owner = s.get(Person, a.owner_id) if a.owner_id else None
    vaccs = s.scalars(
        select(RabiesVaccination)
        .where(RabiesVaccination.animal_id == a.id)
        .order_by(RabiesVaccination.vaccinated_on)
    ).all()
    return AnimalView(
        id=a.id,
        version=a.version,
        name=a.name,
        species=a.species,
        species_detail=a.species_detail,
        breed=a.breed,
        colour=a.colour,
        sex=a.sex,
        altered=a.altered,
        birth_date=a.birth_date,
        markings=a.markings,
        microchip=a.microchip or "",
        licence_number=a.licence_number or "",
        licence_year=a.licence_year,
        owner_id=a.owner_id,
        owner_name=owner.full_name if owner else "",
        notes=a.notes,
        archived=a.archived_at is not None,
        vaccinations=tuple(
            VaccinationView(
                x.id, x.certificate_number, x.vaccinated_on, x.expires_on, x.veterinarian
            )
            for x in vaccs
        ),
    )


@requires(Permission.RECORDS)
def add_animal(s: Session, actor: Actor, inp: AnimalInput, today: date) -> Animal:
    """Create an animal inside a caller's unit of work (an intake creates one too)."""
    inp = validate_animal(inp, today)
    _check_unique_chip(s, inp, None)
    animal = Animal()
    _apply(s, animal, inp)
    s.add(animal)
    s.flush()
    audit(s, actor, "create", "animal", animal.id, after=_snap(animal))
    return animal


@requires(Permission.RECORDS)
def create_animal(
    db: Database, actor: Actor, inp: AnimalInput, *, today: date, client_key: str | None = None
) -> AnimalView:
    """Add an animal; a retry with the same ``client_key`` returns the one already added."""
    inp = validate_animal(inp, today)
    with db.write() as s:
        if (done := existing_save(s, client_key, "animal", actor)) is not None:
            return _view(s, load_animal(s, done))
        animal = add_animal(s, actor, inp, today)
        remember_save(s, client_key, "animal", animal.id, actor)
        return _view(s, animal)


@requires(Permission.RECORDS)
def update_animal(
    db: Database,
    actor: Actor,
    animal_id: int,
    inp: AnimalInput,
    *,
    expected_version: int,
    today: date,
) -> AnimalView:
    inp = validate_animal(inp, today)
    try:
        with db.write() as s:
            animal = load_animal(s, animal_id)
            if animal.version != expected_version:
                raise StaleRecordError(
                    f"Animal #{animal_id} was changed by someone else while you were editing. "
                    "Reopen it to see the changes; your edits were not saved."
                )
            _check_unique_chip(s, inp, animal_id)
            before = _snap(animal)
            _apply(s, animal, inp)
            s.flush()
            b, a = changed_only(before, _snap(animal))
            if a:
                audit(s, actor, "update", "animal", animal_id, before=b, after=a)
            return _view(s, animal)
    except StaleDataError as exc:
        raise StaleRecordError("The record was changed by someone else; reopen it.") from exc


@requires(Permission.RECORDS)
def add_vaccination(
    db: Database,
    actor: Actor,
    animal_id: int,
    inp: VaccinationInput,
    *,
    today: date,
    client_key: str | None = None,
) -> AnimalView:
    validate_vaccination(inp, today)
    with db.write() as s:
        if existing_save(s, client_key, "rabies_vaccination", actor) is not None:
            return _view(s, load_animal(s, animal_id))
        animal = load_animal(s, animal_id)
        c = Collector()
        v.exists(c, s, Clinic, inp.clinic_id, "clinic_id", "The clinic")
        c.raise_if_any()
        vacc = RabiesVaccination(
            animal_id=animal_id,
            certificate_number=v.clean(inp.certificate_number),
            vaccinated_on=inp.vaccinated_on,
            expires_on=inp.expires_on,
            veterinarian=v.clean(inp.veterinarian),
            clinic_id=inp.clinic_id,
            recorded_at=now(),
        )
        s.add(vacc)
        s.flush()
        audit(s, actor, "add_vaccination", "animal", animal_id, after=jsonable(inp))
        remember_save(s, client_key, "rabies_vaccination", vacc.id, actor)
        return _view(s, animal)


def get_animal(db: Database, animal_id: int) -> AnimalView:
    with db.read() as s:
        return _view(s, load_animal(s, animal_id))


ANIMAL_ORDER = (Animal.name, Animal.id)


def _matching_ids(db: Database, text_: str) -> Select[int] | None:
    """Ids of animals matching by name/breed/colour/markings, microchip, licence or owner."""
    text_ = (text_ or "").strip()
    if not text_:
        return None
    code = text_.replace(" ", "").upper()
    conditions = [Animal.microchip == code, Animal.licence_number == code]
    for table, column in (("animal", Animal.id), ("person", Animal.owner_id)):
        ids = fts_ids(db, table, text_)
        if ids is not None:
            conditions.append(column.in_(ids))
    return select(Animal.id).where(or_(*conditions))


# On SQLite each way of matching is read on an index that holds the list's sort key
# (migration 0028), never the animal's row: the old "id IN (any way)" looked up the row
# of each match, the animals of 36,752 owners for a common surname at 1,000,000 (103 ms).
_SQLITE_WAYS = (
    "SELECT id, name FROM animal WHERE archived_at IS NULL AND microchip = :code",
    "SELECT id, name FROM animal WHERE archived_at IS NULL AND licence_number = :code",
)
_SQLITE_TEXT_WAYS = (
    "SELECT a.id, a.name FROM animal_fts CROSS JOIN animal AS a INDEXED BY ix_animal_id_name "
    "ON a.id = animal_fts.rowid WHERE animal_fts MATCH :match AND a.archived_at IS NULL",
    "SELECT a.id, a.name FROM person_fts CROSS JOIN animal AS a INDEXED BY ix_animal_owner_name "
    "ON a.owner_id = person_fts.rowid WHERE person_fts MATCH :match AND a.archived_at IS NULL",
)


def _sqlite_matches(text_: str, tail: str, **params: int) -> TextClause:
    """Active animals matching ``text_`` (as ``_matching_ids``), each once, then ``tail``."""
    text_ = text_.strip()
    terms = search_terms(text_)
    ways = _SQLITE_WAYS + (_SQLITE_TEXT_WAYS if terms else ())
    statement = sql_text(f"SELECT id FROM ({' UNION '.join(ways)}) {tail}")
    values: dict[str, object] = {"code": text_.replace(" ", "").upper(), **params}
    if terms:
        values["match"] = fts5_query(terms)
    return statement.bindparams(**values)


def _count(conn: Connection, db: Database, text_: str) -> int:
    if db.dialect == "sqlite" and (text_ or "").strip():
        inner = _sqlite_matches(text_, "").columns(id=Integer).subquery()
        n: int = conn.execute(select(func.count()).select_from(inner)).scalar_one()
        return n
    return active_count(conn, Animal, _matching_ids(db, text_))


def count_animals(db: Database, text_: str = "") -> int:
    with reading(db) as s:
        return _count(s, db, text_)


def _sqlite_page(conn: Connection, db: Database, text_: str, offset: int, limit: int) -> Subquery:
    """A searched page's ids on SQLite: the matches by name and id (deep pages from the
    nearer end), the same rows in the same order as the old statement."""
    backwards, offset, limit = nearer_end(offset, limit, lambda: _count(conn, db, text_))
    way = " DESC" if backwards else ""
    tail = f"ORDER BY name{way}, id{way} LIMIT :limit OFFSET :offset"
    return _sqlite_matches(text_, tail, limit=limit, offset=offset).columns(id=Integer).subquery()


def animals_page_select(
    conn: Connection, db: Database, text_: str, offset: int, limit: int
) -> Select[*tuple[Any, ...]]:
    """One page of the animals found (as ``animals_page``), its columns those of
    ``AnimalRow`` in order, for a caller to add its own to (the animals list its fates)."""
    if db.dialect == "sqlite" and (text_ or "").strip():
        ids = _sqlite_page(conn, db, text_, offset, limit)
    else:
        ids = page_ids(
            db,
            Animal,
            ANIMAL_ORDER,
            "ix_animal_active_order",
            _matching_ids(db, text_),
            offset,
            limit,
            conn,
        )
    return animal_page_columns(ids)


def animal_page_columns(ids: Subquery) -> Select[*tuple[Any, ...]]:
    """The columns of ``AnimalRow`` for the animals whose ids ``ids`` selects, in the
    list's order."""
    return (
        select(
            Animal.id,
            Animal.name,
            Animal.species,
            Animal.breed,
            Animal.colour,
            func.coalesce(Animal.microchip, ""),
            func.coalesce(Animal.licence_number, ""),
            func.coalesce(Person.full_name, ""),
        )
        .join(ids, ids.c.id == Animal.id)
        .outerjoin(Person, Person.id == Animal.owner_id)
        .order_by(*ANIMAL_ORDER)
    )


def animals_page(db: Database, text_: str, offset: int, limit: int) -> Page[AnimalRow]:
    """Animals found by name, breed, colour, markings, microchip, licence or owner's name."""
    with reading(db) as conn:
        rows = conn.execute(animals_page_select(conn, db, text_, offset, limit)).all()
        return Page(offset=offset, rows=tuple(AnimalRow(*r) for r in rows))


def animal_history(db: Database, animal_id: int) -> tuple[HistoryEntry, ...]:
    """Every audited change to the animal, newest first (later modules add their events)."""
    return history(db, "animal", animal_id)
