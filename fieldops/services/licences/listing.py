"""The licences list: filtered, searched and sorted in SQL, a page of ids at a time.

Filters: this year's current licences; expired ones (a dog's last licence from an
earlier year); due for renewal (last year's, not renewed, before the late-fee day)
and late (the same after it). Search: the tag, the owner's name or address, the dog's
microchip, name or breed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, exists, false, func, or_, select
from sqlalchemy.orm import aliased

from fieldops.db.engine import Database
from fieldops.db.models import Animal, DogLicence, Person
from fieldops.rules import Profile
from fieldops.services import validate as v
from fieldops.services.licences.renewals import adult_quote
from fieldops.services.licences.views import STATUS_WORDS
from fieldops.services.listing import Page, fts_ids
from fieldops.services.people import format_address

FILTERS = {
    "current": "Current",
    "expired": "Expired",
    "due": "Due for renewal",
    "late": "Late (past the late-fee day)",
    "all": "All",
}

SORTS = {
    "tag": DogLicence.tag_number,
    "year": DogLicence.licence_year,
    "issued": DogLicence.issued_at,
    "animal": Animal.name,
    "owner": Person.sort_name,
    "status": DogLicence.status,
    "total": DogLicence.total,
}


@dataclass(frozen=True)
class LicenceFilter:
    show: str = "current"
    text: str = ""
    sort: str = "issued"
    descending: bool = True


@dataclass(frozen=True)
class LicenceRow:
    id: int
    licence_year: int
    tag: str
    status: str
    status_label: str
    animal: str
    owner: str
    address: str
    microchip: str
    total: Decimal
    late: bool
    applied_on: date


def _not_renewed(year: int) -> Any:
    this = aliased(DogLicence)
    return ~exists().where(
        and_(
            this.animal_id == DogLicence.animal_id,
            this.licence_year == year,
            this.status == "current",
        )
    )


def _where(db: Database, f: LicenceFilter, today: date, profile: Profile) -> list[Any]:
    year = today.year
    out: list[Any] = []
    if f.show == "current":
        out += [DogLicence.status == "current", DogLicence.licence_year == year]
    elif f.show == "expired":
        later = aliased(DogLicence)
        out += [
            DogLicence.status == "current",
            DogLicence.licence_year < year,
            ~exists().where(
                and_(
                    later.animal_id == DogLicence.animal_id,
                    later.licence_year > DogLicence.licence_year,
                    later.status == "current",
                )
            ),
        ]
    elif f.show in ("due", "late"):
        past = adult_quote(year, today, profile, True).late
        if past != (f.show == "late"):
            return [false()]
        out += [
            DogLicence.status == "current",
            DogLicence.licence_year == year - 1,
            Animal.archived_at.is_(None),
            _not_renewed(year),
        ]
    text = " ".join(v.searchable(f.text).split())
    if text:
        code = text.upper()
        cond: list[Any] = [
            DogLicence.tag_number == code,
            DogLicence.receipt_number == code,
            Animal.microchip == text,
        ]
        if (number := v.case_number(text.lstrip("#"))) is not None:
            cond.append(DogLicence.id == number)
        people = fts_ids(db, "person", text)
        if people is not None:
            cond.append(DogLicence.owner_id.in_(people))
        animals = fts_ids(db, "animal", text)
        if animals is not None:
            cond.append(DogLicence.animal_id.in_(animals))
        out.append(or_(*cond))
    return out


def _base(f: LicenceFilter, *, sorting: bool = False) -> Any:
    """The licences' ids, joined to the dog and the owner only when the filter, the search
    or the sort reads them: every licence has both (NOT NULL foreign keys), so the joins
    change no row, and at a city's scale they were most of a count's time (a lookup of
    each matching licence's dog and owner)."""
    q = select(DogLicence.id)
    if f.show in ("due", "late") or f.text.strip() or (sorting and f.sort == "animal"):
        q = q.join(Animal, Animal.id == DogLicence.animal_id)
    if sorting and f.sort == "owner":
        q = q.join(Person, Person.id == DogLicence.owner_id)
    return q


def count_licences(db: Database, f: LicenceFilter, today: date, profile: Profile) -> int:
    with db.read() as s:
        q = _base(f).where(*_where(db, f, today, profile)).subquery()
        return s.scalar(select(func.count()).select_from(q)) or 0


def licence_ids(
    db: Database, f: LicenceFilter, today: date, profile: Profile, offset: int = 0, limit: int = 200
) -> tuple[int, ...]:
    key = SORTS.get(f.sort, DogLicence.issued_at)
    order = (key.desc(), DogLicence.id.desc()) if f.descending else (key, DogLicence.id)
    with db.read() as s:
        return tuple(
            s.scalars(
                _base(f, sorting=True)
                .where(*_where(db, f, today, profile))
                .order_by(*order)
                .offset(offset)
                .limit(limit)
            )
        )


def licence_rows(db: Database, ids: tuple[int, ...]) -> dict[int, LicenceRow]:
    if not ids:
        return {}
    with db.read() as s:
        rows = s.execute(
            select(DogLicence, Animal, Person)
            .join(Animal, Animal.id == DogLicence.animal_id)
            .join(Person, Person.id == DogLicence.owner_id)
            .where(DogLicence.id.in_(ids))
        ).all()
    return {
        lic.id: LicenceRow(
            lic.id,
            lic.licence_year,
            lic.tag_number,
            lic.status,
            STATUS_WORDS[lic.status],
            " · ".join(x for x in (a.name or f"Dog #{a.id}", a.breed) if x),
            p.full_name,
            format_address(p.address, p.city, p.state, p.postal_code),
            a.microchip or "",
            lic.total,
            lic.late,
            lic.applied_on,
        )
        for lic, a, p in rows
    }


def licence_page(
    db: Database, f: LicenceFilter, today: date, profile: Profile, offset: int, limit: int
) -> Page[LicenceRow]:
    ids = licence_ids(db, f, today, profile, offset, limit)
    rows = licence_rows(db, ids)
    return Page(offset, tuple(rows[i] for i in ids))
