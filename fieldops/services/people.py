"""People: owners, adopters, bitten persons, veterinarians."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Integer, Row, Select, String, Subquery, bindparam, select, tuple_
from sqlalchemy import func as sql_func
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Clinic, Person, PersonWord
from fieldops.db.search import fts5_query, phone_search_text, search_terms
from fieldops.errors import (
    Collector,
    NotFoundError,
    StaleRecordError,
    UserError,
    ValidationError,
)
from fieldops.permissions import Permission, requires
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    changed_only,
    existing_save,
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

# The jurisdiction's state: the city is in Wisconsin. A person may live elsewhere.
HOME_STATE = "WI"

# USPS two-letter codes: the states, DC, the territories and the military post offices.
_STATE_CODES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM AA AE AP"
)
STATES = frozenset(_STATE_CODES.split(" "))


def format_address(
    address: str = "", city: str = "", state: str = "", postal_code: str = ""
) -> str:
    """The one way an address is written: "12 Elm St, Madison, WI 53703".

    Missing parts are left out with their commas; a state alone (every record
    has one) is not an address, so a person with nothing else on file reads "".
    """
    if not any(x.strip() for x in (address, city, postal_code)):
        return ""
    region = " ".join(x for x in (state.strip(), postal_code.strip()) if x)
    return ", ".join(x for x in (address.strip(), city.strip(), region) if x)


@dataclass(frozen=True)
class PersonInput:
    full_name: str
    address: str = ""
    city: str = ""
    state: str = HOME_STATE
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
class PersonMatch:
    """A person already on file who may be the one being entered."""

    id: int
    full_name: str
    address: str  # formatted
    phone: str


class PossibleDuplicateError(UserError):
    """Refused: someone with the same name and address is already on file.

    ``matches`` are offered to use instead; saving anyway is a deliberate
    second call with ``allow_duplicate=True``.
    """

    def __init__(self, matches: tuple[PersonMatch, ...]) -> None:
        self.matches = matches
        first = matches[0]
        more = f" (and {len(matches) - 1} more)" if len(matches) > 1 else ""
        super().__init__(
            f"An existing record matches: {first.full_name}, "
            f"{first.address or 'no address recorded'} (person #{first.id}){more}. "
            "Use that record, or save this one as a different person."
        )


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
    state: str = HOME_STATE

    @property
    def mailing_address(self) -> str:
        return format_address(self.address, self.city, self.state, self.postal_code)

    def as_input(self) -> PersonInput:
        return PersonInput(
            full_name=self.full_name,
            address=self.address,
            city=self.city,
            state=self.state,
            postal_code=self.postal_code,
            in_city=self.in_city,
            phone=self.phone,
            email=self.email,
            is_veterinarian=self.is_veterinarian,
            clinic_id=self.clinic_id,
            notes=self.notes,
        )


FIELDS = tuple(f for f in PersonInput.__dataclass_fields__)


def normalise(inp: PersonInput) -> PersonInput:
    return PersonInput(
        full_name=v.clean(inp.full_name),
        address=v.clean(inp.address),
        city=v.clean(inp.city),
        state=v.clean(inp.state).upper().replace(".", ""),
        postal_code=v.clean(inp.postal_code),
        in_city=bool(inp.in_city),
        phone=v.clean(inp.phone),
        email=v.clean(inp.email).lower(),
        is_veterinarian=bool(inp.is_veterinarian),
        clinic_id=inp.clinic_id,
        notes=(inp.notes or "").strip(),
    )


def validate_person(inp: PersonInput) -> PersonInput:
    """Clean and check a person's fields; raises ValidationError naming each bad field."""
    inp = normalise(inp)
    c = Collector()
    col = Person.__table__.c
    v.required(c, "full_name", inp.full_name, "Name", col.full_name)
    v.optional_len(c, "address", inp.address, "Address", col.address)
    v.optional_len(c, "city", inp.city, "City", col.city)
    if inp.state not in STATES:
        c.add("state", "Give the state as its two-letter postal abbreviation, e.g. WI.")
    v.postal_code(c, "postal_code", inp.postal_code)
    if v.text(c, "phone", inp.phone, "Phone", col.phone):
        v.phone(c, "phone", inp.phone)
    if v.text(c, "email", inp.email, "E-mail", col.email):
        v.email(c, "email", inp.email)
    v.optional_len(c, "notes", inp.notes, "Notes", 4000)
    c.raise_if_any()
    return inp


def _check_ids(s: Session, inp: PersonInput) -> None:
    """The clinic named must be on file, in the unit of work that saves the person."""
    c = Collector()
    v.exists(c, s, Clinic, inp.clinic_id, "clinic_id", "The clinic")
    c.raise_if_any()


_SORT_NAME_LIMIT = v.column_length(Person.__table__.c.sort_name)


def sort_name(full_name: str) -> str:
    """ "Family, given" in lower case, without punctuation, for ordering lists."""
    parts = [re.sub(r"[^\w' -]", "", p) for p in full_name.lower().split()]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return " ".join(parts)[:_SORT_NAME_LIMIT]
    # "Family, given" is a character longer than the name: a sort key, cut to its column.
    return f"{parts[-1]}, {' '.join(parts[:-1])}"[:_SORT_NAME_LIMIT]


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
        id=p.id,
        version=p.version,
        full_name=p.full_name,
        address=p.address,
        city=p.city,
        state=p.state,
        postal_code=p.postal_code,
        in_city=p.in_city,
        phone=p.phone,
        email=p.email,
        is_veterinarian=p.is_veterinarian,
        clinic_id=p.clinic_id,
        notes=p.notes,
        created_at=p.created_at,
        archived=p.archived_at is not None,
        animals=tuple(OwnedAnimal(*a) for a in animals),
    )


def load_person(session: Session, person_id: int) -> Person:
    person = session.get(Person, person_id)
    if person is None:
        raise NotFoundError(f"There is no person #{person_id}.")
    return person


def _match_key(text: str) -> str:
    """Name or street line compared loosely: case, punctuation and spacing ignored."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _matches(
    s: Session, inp: PersonInput, exclude_id: int | None = None
) -> tuple[PersonMatch, ...]:
    name, street = _match_key(inp.full_name), _match_key(inp.address)
    if not name:
        return ()
    # Same sort name narrows on the index; the loose comparison decides.
    rows = s.execute(
        select(
            Person.id,
            Person.full_name,
            Person.address,
            Person.city,
            Person.state,
            Person.postal_code,
            Person.phone,
        )
        .where(
            Person.sort_name == sort_name(inp.full_name),
            Person.archived_at.is_(None),
            Person.id != (exclude_id or -1),
        )
        .order_by(Person.id)
    ).all()
    return tuple(
        PersonMatch(
            r.id, r.full_name, format_address(r.address, r.city, r.state, r.postal_code), r.phone
        )
        for r in rows
        if _match_key(r.full_name) == name
        and _match_key(r.address) == street
        and (not inp.city or not r.city or _match_key(r.city) == _match_key(inp.city))
    )


def matching_people(db: Database, inp: PersonInput) -> tuple[PersonMatch, ...]:
    """People on file with the same name and address (loosely compared), to offer first."""
    inp = normalise(inp)
    with db.read() as s:
        return _matches(s, inp)


@requires(Permission.RECORDS)
def create_person(
    db: Database,
    actor: Actor,
    inp: PersonInput,
    *,
    allow_duplicate: bool = False,
    client_key: str | None = None,
) -> PersonView:
    """Add a person; refuses with ``PossibleDuplicateError`` when someone with the same
    name and address is on file, unless the user chose to save anyway. A retry with
    the same ``client_key`` returns the person already added."""
    inp = validate_person(inp)
    with db.write() as s:
        if (done := existing_save(s, client_key, "person", actor)) is not None:
            return _view(s, load_person(s, done))
        _check_ids(s, inp)
        if not allow_duplicate:
            matches = _matches(s, inp)
            if matches:
                raise PossibleDuplicateError(matches)
        person = Person()
        _apply(person, inp)
        s.add(person)
        s.flush()
        audit(s, actor, "create", "person", person.id, after=snapshot(person, FIELDS))
        remember_save(s, client_key, "person", person.id, actor)
        return _view(s, person)


@requires(Permission.RECORDS)
def update_person(
    db: Database, actor: Actor, person_id: int, inp: PersonInput, *, expected_version: int
) -> PersonView:
    """Save an edit; refuses if the record changed since the form was opened."""
    inp = validate_person(inp)
    try:
        with db.write() as s:
            person = load_person(s, person_id)
            _check_ids(s, inp)
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


@requires(Permission.RECORDS)
def archive_person(db: Database, actor: Actor, person_id: int, reason: str) -> None:
    c = Collector()
    c.check(bool(v.clean(reason)), "reason", "Say why the record is archived.")
    v.optional_len(c, "reason", v.clean(reason), "The reason", 2000)
    c.raise_if_any()
    with db.write() as s:
        person = s.get(Person, person_id, with_for_update=True) or load_person(s, person_id)
        if person.archived_at is not None:  # the first archive's day and reason stay
            raise ValidationError(
                {
                    "reason": f"{person.full_name} is already archived "
                    f"({person.archive_reason}); that record stays as it was made."
                }
            )
        person.archived_at = now()
        person.archive_reason = v.clean(reason)
        audit(s, actor, "archive", "person", person_id, reason=v.clean(reason))


def get_person(db: Database, person_id: int) -> PersonView:
    with db.read() as s:
        return _view(s, load_person(s, person_id))


PEOPLE_ORDER = (Person.sort_name, Person.id)
_COLUMNS = (Person.id, Person.full_name, Person.address, Person.city, Person.phone, Person.email)


# The active people matching a search on SQLite: each match, in the id order the
# full-text index gives it, joined to its archived check and sort key on
# ``ix_person_id_sort`` (0028), never its row.
_SQLITE_MATCHES = (
    "FROM person_fts CROSS JOIN person AS p INDEXED BY ix_person_id_sort "
    "ON p.id = person_fts.rowid WHERE person_fts MATCH :match AND p.archived_at IS NULL"
)


def _sqlite_count(conn: Connection, text_: str) -> int:
    match = fts5_query(search_terms(text_))
    n: int = conn.execute(
        sql_text(f"SELECT count(*) {_SQLITE_MATCHES}").bindparams(match=match)
    ).scalar_one()
    return n


def count_people(db: Database, text: str = "") -> int:
    with reading(db) as s:
        matching = fts_ids(db, "person", text)
        if matching is not None and db.dialect == "sqlite":
            return _sqlite_count(s, text)
        return active_count(s, Person, matching)


def _matches_in_order(conn: Connection, text_: str, offset: int, limit: int) -> Subquery:
    """A searched page's ids on SQLite, in the list's order.

    The same rows and order as "active people whose id is among the matches, by
    sort name and id", which looked up each match's row for its key and archived
    check: 36,752 rows for a common surname at 1,000,000 (bench/registry.py).
    """
    backwards, offset, limit = nearer_end(offset, limit, lambda: _sqlite_count(conn, text_))
    way = " DESC" if backwards else ""
    return (
        sql_text(
            f"SELECT p.id {_SQLITE_MATCHES} "
            f"ORDER BY p.sort_name{way}, p.id{way} LIMIT :limit OFFSET :offset"
        )
        .bindparams(match=fts5_query(search_terms(text_)), limit=limit, offset=offset)
        .columns(id=Integer)
        .subquery()
    )


# A one-word search's first pages read ``person_word`` (migration 0030): the rows of the
# word's first four characters in the list's order, up to ``_WALK`` of them for each row
# wanted, from which the matches come already sorted. A page past ``_FIRST_ROWS``, or one
# whose matches are sparser than that among its head's rows, is the search index's.
_HEAD = 4
_FIRST_ROWS = 1_000
_WALK = 25


def _one_word(text_: str) -> str | None:
    """The search's one word as the search index holds it, when it has four characters
    or more, all ASCII letters and digits (which both indexes keep as typed, in lower
    case); None for any other search."""
    terms = search_terms(text_)
    if len(terms) != 1:
        return None
    word = terms[0].lower()
    if len(word) < _HEAD or not (word.isascii() and word.isalnum()):
        return None
    return word


_KEY = (PersonWord.sort_name, PersonWord.person_id)
_OF_HEAD = PersonWord.head == bindparam("head", type_=String)
# The row ``walk`` rows into a head's, in the list's order: where the walk stops.
_BOUND = (
    select(*_KEY).where(_OF_HEAD).order_by(*_KEY).offset(bindparam("walk", type_=Integer)).limit(1)
)
_MATCHING = sql_func.substr(PersonWord.word, 1, bindparam("length", type_=Integer)) == bindparam(
    "word", type_=String
)
_BEFORE = tuple_(*_KEY) < tuple_(
    bindparam("bound_name", type_=String), bindparam("bound_id", type_=Integer)
)


def _found_page(bounded: bool) -> Select[int, str, str, str, str, str]:
    """The page's rows: the head's matches (before the bound), each person once."""
    found = select(PersonWord.person_id).where(_OF_HEAD, _MATCHING, *([_BEFORE] if bounded else []))
    found_ = found.group_by(*_KEY).order_by(*_KEY).limit(bindparam("wanted", type_=Integer))
    ids = found_.subquery()
    return select(*_COLUMNS).join(ids, ids.c.person_id == Person.id).order_by(*PEOPLE_ORDER)


# Built once: building them again for each page cost as much as running them.
_FOUND = {bounded: _found_page(bounded) for bounded in (False, True)}


def _first_page(
    conn: Connection, word: str, offset: int, limit: int
) -> Sequence[Row[int, str, str, str, str, str]] | None:
    """A one-word search's page from ``person_word``, or None when its rows are not all
    among the first rows of the word's head (then the search index answers).

    Every match up to the bound row is read in order, so when ``offset + limit`` of them
    are found before it they are the list's first; with no bound, every row was read."""
    wanted = offset + limit
    if wanted > _FIRST_ROWS:
        return None
    head = word[:_HEAD]
    bound = conn.execute(_BOUND, {"head": head, "walk": _WALK * wanted}).first()
    params: dict[str, Any] = {"head": head, "length": len(word), "word": word, "wanted": wanted}
    if bound is not None:
        params |= {"bound_name": bound[0], "bound_id": bound[1]}
    rows = conn.execute(_FOUND[bound is not None], params).all()
    if len(rows) < wanted and bound is not None:
        return None
    return rows[offset:]


def people_page(db: Database, text: str, offset: int, limit: int) -> Page[PersonRow]:
    """One page of people, ordered by family name, found by name, address, phone or e-mail."""
    with reading(db) as s:
        word = _one_word(text)
        rows = None if word is None else _first_page(s, word, offset, limit)
        if rows is None:
            matching = fts_ids(db, "person", text)
            if matching is not None and db.dialect == "sqlite":
                ids = _matches_in_order(s, text, offset, limit)
            else:
                ids = page_ids(
                    db, Person, PEOPLE_ORDER, "ix_person_active_order", matching, offset, limit, s
                )
            rows = s.execute(
                select(*_COLUMNS).join(ids, ids.c.id == Person.id).order_by(*PEOPLE_ORDER)
            ).all()
        return Page(offset=offset, rows=tuple(PersonRow(*r) for r in rows))
