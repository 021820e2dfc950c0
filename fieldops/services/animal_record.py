"""What became of an animal: its impoundments, and whether it is still alive and owned.

The registry keeps an animal's owner as a fact of record (who owned it, who
paid, who was notified), so a euthanasia or a transfer does not erase it.
But a screen must not present a dead animal as someone's current pet with a
"Current" rabies vaccination: these views say what the pound's records say
happened, for the screens to show as "Deceased (euthanized Tue 1 Dec 2026)"
and "former owner".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import BindParameter, Connection, Select, bindparam, case, func, select
from sqlalchemy.orm import Session, aliased

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Disposition, Impoundment, Person
from fieldops.rules import Profile, boarding_days, format_day
from fieldops.rules.release import RELEASE_KINDS
from fieldops.services.animals import ANIMAL_ORDER, animal_page_columns, animals_page_select
from fieldops.services.context import now
from fieldops.services.impound_views import DISPOSITIONS
from fieldops.services.listing import (
    Page,
    Rows,
    active_count,
    kept_page_ids,
    nearer_end,
    reading,
)

# Endings after which the animal is no longer its owner's: it is dead, or the
# owner's claim lapsed and it went to a shelter. (A release goes back to an
# owner or a new one; an escaped animal is still its owner's, at large.)
DEAD = frozenset({"euthanized", "died"})
NO_LONGER_OWNED = DEAD | {"transferred"}


@dataclass(frozen=True)
class AnimalFate:
    """How the animal's latest impoundment ended, or that it is in the pound now."""

    impoundment_id: int
    kind: str | None  # disposition code; None: in the pound now
    at: datetime | None
    transfer_to: str = ""

    @property
    def dead(self) -> bool:
        return self.kind in DEAD

    @property
    def owner_is_former(self) -> bool:
        return self.kind in NO_LONGER_OWNED

    def status(self, zone: tzinfo) -> str:
        """ "Deceased (euthanized Tue 1 Dec 2026)", "In the pound (#4)"; the word that
        matters first, so a narrow column still says it."""
        if self.kind is None or self.at is None:
            return f"In the pound (#{self.impoundment_id})"
        day = format_day(self.at.astimezone(zone).date())
        if self.kind == "euthanized":
            return f"Deceased (euthanized {day})"
        if self.kind == "died":
            return f"Deceased (died in the pound {day})"
        if self.kind == "transferred":
            return f"Transferred to {self.transfer_to or 'a shelter or rescue'} {day}"
        if self.kind == "escaped":
            return f"Escaped from the pound {day}"
        return f"{DISPOSITIONS.get(self.kind, self.kind)} {day}"


@dataclass(frozen=True)
class AnimalImpoundment:
    """A row of the animal's Impoundments tab."""

    id: int
    impounded_at: datetime
    status: str  # "On hold", "Adoptable", or the disposition's label
    disposition_at: datetime | None
    released_to: str  # the person, or where it was transferred
    days_held: int  # boarding days, as the fees count them
    kennel: str


@dataclass(frozen=True)
class AnimalListRow:
    """A row of the animals list: the registry's row and what became of the animal."""

    id: int
    name: str
    species: str
    breed: str
    colour: str
    microchip: str
    licence_number: str
    owner_name: str
    owner_is_former: bool
    status: str  # "" for an animal at home


def _current_dispositions(s: Session, impoundment_ids: list[int]) -> dict[int, Disposition]:
    """The disposition in force per impoundment: a correction is always the newest row."""
    if not impoundment_ids:
        return {}
    latest = (
        select(func.max(Disposition.id))
        .where(Disposition.impoundment_id.in_(impoundment_ids))
        .group_by(Disposition.impoundment_id)
    )
    rows = s.scalars(select(Disposition).where(Disposition.id.in_(latest))).all()
    return {d.impoundment_id: d for d in rows}


# The latest impoundment of each animal asked about (the latest intake; ties by number),
# with the copy of its disposition in force that the impoundment row keeps (migration
# 0004's triggers; a correction is always the newest disposition) and, for a transfer,
# where it went. One statement built once: a page of 200 animals sent as bound values
# into three built each time cost four times the statements' own time.
_ASKED: BindParameter[int] = bindparam("animal_ids", expanding=True)
_LAST_AT = (
    select(Impoundment.animal_id, func.max(Impoundment.impounded_at).label("at"))
    .where(Impoundment.animal_id.in_(_ASKED))
    .group_by(Impoundment.animal_id)
    .subquery()
)
_LATEST = (
    select(func.max(Impoundment.id))
    .join(
        _LAST_AT,
        (_LAST_AT.c.animal_id == Impoundment.animal_id)
        & (_LAST_AT.c.at == Impoundment.impounded_at),
    )
    .group_by(Impoundment.animal_id)
    .correlate(None)
)


def _transferred_to(imp: Any) -> Any:
    """Where the impoundment ``imp`` (the table or an alias of it) was transferred to:
    its newest disposition's, as a correction is always the newest."""
    return (
        select(Disposition.transfer_to)
        .where(Disposition.impoundment_id == imp.id)
        .order_by(Disposition.id.desc())
        .limit(1)
        .correlate(imp)
        .scalar_subquery()
    )


_TRANSFERRED_TO = _transferred_to(Impoundment)
_FATES = select(
    Impoundment.animal_id,
    Impoundment.id,
    Impoundment.disposition_kind,
    Impoundment.disposition_at,
    case((Impoundment.disposition_kind == "transferred", _TRANSFERRED_TO), else_=""),
).where(Impoundment.id.in_(_LATEST))


def animal_fates(s: Session | Connection, animal_ids: list[int]) -> dict[int, AnimalFate]:
    """The fate of each animal that has been impounded, from its latest impoundment."""
    if not animal_ids:
        return {}
    return {
        animal_id: AnimalFate(imp_id, kind, at, transfer_to or "")
        for animal_id, imp_id, kind, at, transfer_to in s.execute(
            _FATES, {"animal_ids": animal_ids}
        )
    }


def animal_fate(db: Database, animal_id: int) -> AnimalFate | None:
    """The animal's fate, or None when it was never impounded."""
    with db.read() as s:
        return animal_fates(s, [animal_id]).get(animal_id)


# Each listed animal's latest impoundment (as ``_LATEST``: the latest intake, ties by
# number), joined to the page's own statement: one statement for the page, where a second
# sent the page's 200 ids back as 200 bound values and built each fate from its own row.
_LISTED = aliased(Impoundment, name="latest")
_LISTED_LATEST = (
    select(Impoundment.id)
    .where(Impoundment.animal_id == Animal.id)
    .order_by(Impoundment.impounded_at.desc(), Impoundment.id.desc())
    .limit(1)
    .correlate(Animal)
    .scalar_subquery()
)
_LISTED_TRANSFERRED_TO = _transferred_to(_LISTED)


def _list_row(zone: tzinfo, r: Sequence[Any]) -> AnimalListRow:
    animal_id, name, species, breed, colour, chip, licence, owner = r[:8]
    imp_id, kind, at, transfer_to = r[8:]
    fate = AnimalFate(imp_id, kind, at, transfer_to or "") if imp_id is not None else None
    released = fate is not None and fate.kind in RELEASE_KINDS
    return AnimalListRow(
        animal_id,
        name,
        species,
        breed,
        colour,
        chip,
        licence,
        owner,
        bool(fate and fate.owner_is_former),
        fate.status(zone) if fate is not None and not released else "",
    )


def _with_fates(page: Select[*tuple[Any, ...]]) -> Select[*tuple[Any, ...]]:
    return page.add_columns(
        _LISTED.id,
        _LISTED.disposition_kind,
        _LISTED.disposition_at,
        case((_LISTED.disposition_kind == "transferred", _LISTED_TRANSFERRED_TO)),
    ).outerjoin(_LISTED, _LISTED.id == _LISTED_LATEST)


@lru_cache(maxsize=4)
def _kept_list_page(dialect: str, backwards: bool) -> Select[*tuple[Any, ...]]:
    """The unsearched list's page, built once (its walk's offset and limit parameters)."""
    ids = kept_page_ids(dialect, Animal, ANIMAL_ORDER, "ix_animal_active_order", backwards)
    return _with_fates(animal_page_columns(ids))


def animal_list_page(
    db: Database, text_: str, offset: int, limit: int, *, zone: tzinfo
) -> Page[AnimalListRow]:
    """The animals list with each animal's fate: a dead one's owner is its former owner.
    Each row is built when first read (``Rows``)."""
    with reading(db) as conn:
        if (text_ or "").strip():
            page = _with_fates(animals_page_select(conn, db, text_, offset, limit))
            rows = conn.execute(page).all()
        else:
            backwards, start, n = nearer_end(
                offset, limit, lambda: active_count(conn, Animal, None)
            )
            kept = _kept_list_page(db.dialect, backwards)
            rows = conn.execute(kept, {"offset": start, "limit": n}).all()
    return Page(offset=offset, rows=Rows(rows, partial(_list_row, zone)))


def animal_impoundments(
    db: Database, animal_id: int, profile: Profile, at: datetime | None = None
) -> tuple[AnimalImpoundment, ...]:
    """Every impoundment of the animal, newest first, with how each ended."""
    at = at or now()
    with db.read() as s:
        imps = s.scalars(
            select(Impoundment)
            .where(Impoundment.animal_id == animal_id)
            .order_by(Impoundment.impounded_at.desc(), Impoundment.id.desc())
        ).all()
        disp = _current_dispositions(s, [i.id for i in imps])
        out = []
        for imp in imps:
            d = disp.get(imp.id)
            if d is not None:
                status = DISPOSITIONS.get(d.kind, d.kind)
                person = s.get(Person, d.recipient_id) if d.recipient_id is not None else None
                to = person.full_name if person else d.transfer_to
                end = d.at
            else:
                status = "Adoptable" if at >= imp.release_to_others_from else "On hold"
                to, end = "", max(at, imp.impounded_at)
            out.append(
                AnimalImpoundment(
                    imp.id,
                    imp.impounded_at,
                    status,
                    d.at if d else None,
                    to,
                    boarding_days(imp.impounded_at, end, profile),
                    imp.kennel,
                )
            )
        return tuple(out)


__all__ = [
    "AnimalFate",
    "AnimalImpoundment",
    "AnimalListRow",
    "animal_fate",
    "animal_fates",
    "animal_impoundments",
    "animal_list_page",
]
