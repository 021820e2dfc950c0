"""Renewals: the dogs licensed last year and not yet this year, grouped into the
households a reminder letter goes to, and, after the late-fee day, the non-compliance
list (the same dogs, now owing the late fee).

A dog counts when its last year's licence ended current (a replaced or transferred
licence is followed by the current one; a void one counts for nothing) and it has no
current licence for the year. Archived dogs (died, moved away) are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlalchemy import and_, exists, select
from sqlalchemy.orm import Session, aliased

from fieldops.db.engine import Database
from fieldops.db.models import Animal, DogLicence, Person
from fieldops.rules import LicenceQuote, Profile, licence_quote
from fieldops.services.people import format_address


@dataclass(frozen=True)
class RenewalRow:
    """One dog to renew: last year's licence and what this year's costs if bought today."""

    licence_id: int  # last year's
    animal_id: int
    animal_name: str
    breed: str
    microchip: str
    owner_id: int
    owner_name: str
    owner_address: str
    last_tag: str
    altered: bool
    amount: Decimal  # this year's licence if bought on the day asked
    due_by: date
    late: bool


@dataclass(frozen=True)
class Household:
    """The owner a reminder letter is addressed to, and every dog of theirs on it."""

    owner_id: int
    owner_name: str
    address: str
    dogs: tuple[RenewalRow, ...]


def adult_quote(year: int, day: date, profile: Profile, altered: bool) -> LicenceQuote:
    """This year's quote for a dog licensed last year (an adult, owned all year)."""
    return licence_quote(year, day, profile, birth_date=None, altered=altered)


def unrenewed_query(year: int):  # type: ignore[no-untyped-def]
    """Last year's current licences whose dog has no current licence for ``year``."""
    this = aliased(DogLicence)
    return (
        select(DogLicence, Animal, Person)
        .join(Animal, Animal.id == DogLicence.animal_id)
        .join(Person, Person.id == DogLicence.owner_id)
        .where(
            DogLicence.licence_year == year - 1,
            DogLicence.status == "current",
            Animal.archived_at.is_(None),
            ~exists().where(
                and_(
                    this.animal_id == DogLicence.animal_id,
                    this.licence_year == year,
                    this.status == "current",
                )
            ),
        )
        .order_by(Person.sort_name, Person.id, Animal.name, Animal.id)
    )


def _rows(s: Session, year: int, day: date, profile: Profile) -> list[RenewalRow]:
    quotes = {a: adult_quote(year, day, profile, a) for a in (True, False)}
    out = []
    for lic, animal, owner in s.execute(unrenewed_query(year)):
        altered = lic.altered if animal.altered is None else animal.altered
        q = quotes[altered]
        out.append(
            RenewalRow(
                licence_id=lic.id,
                animal_id=animal.id,
                animal_name=animal.name or f"Dog #{animal.id}",
                breed=animal.breed,
                microchip=animal.microchip or "",
                owner_id=owner.id,
                owner_name=owner.full_name,
                owner_address=format_address(
                    owner.address, owner.city, owner.state, owner.postal_code
                ),
                last_tag=lic.tag_number,
                altered=altered,
                amount=q.total,
                due_by=q.due_by,
                late=q.late,
            )
        )
    return out


def renewals_due(db: Database, year: int, day: date, profile: Profile) -> tuple[RenewalRow, ...]:
    """Every dog licensed in ``year - 1`` and not in ``year``, owners in name order,
    priced as if bought on ``day``."""
    with db.read() as s:
        return tuple(_rows(s, year, day, profile))


def non_compliance(db: Database, year: int, day: date, profile: Profile) -> tuple[RenewalRow, ...]:
    """After the late-fee day: the dogs still not licensed for ``year`` (each now owes
    the late fee). Before it, nobody is late and the list is empty."""
    return tuple(r for r in renewals_due(db, year, day, profile) if r.late)


def households(rows: tuple[RenewalRow, ...]) -> tuple[Household, ...]:
    """One household a letter: the dogs of one owner together, in the rows' order."""
    by: dict[int, list[RenewalRow]] = {}
    for r in rows:
        by.setdefault(r.owner_id, []).append(r)
    return tuple(
        Household(dogs[0].owner_id, dogs[0].owner_name, dogs[0].owner_address, tuple(dogs))
        for dogs in by.values()
    )


CSV_COLUMNS = (
    "Owner",
    "Address",
    "Dog",
    "Breed",
    "Microchip",
    "Last year's tag",
    "Licence fee",
    "Due by",
    "Late",
)


def csv_rows(rows: tuple[RenewalRow, ...]) -> list[tuple[str, ...]]:
    return [
        (
            r.owner_name,
            r.owner_address,
            r.animal_name,
            r.breed,
            r.microchip,
            r.last_tag,
            f"{r.amount:.2f}",
            r.due_by.isoformat(),
            "yes" if r.late else "no",
        )
        for r in rows
    ]
