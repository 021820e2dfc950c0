"""Possible registry matches for an animal being taken in (no Qt: runs in a task).

At the counter the animal in front of the operator may already be in the
registry. A microchip or licence number identifies it; a name or a
description (breed and colour) only suggests it. Each answer says which it
was, so the operator knows how far to trust it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fieldops.db.engine import Database
from fieldops.services.animals import AnimalRow, animals_page
from ui.common.table_models import Column

LIMIT = 8


@dataclass(frozen=True)
class MatchQuery:
    species: str = ""
    microchip: str = ""
    licence: str = ""
    name: str = ""
    breed: str = ""
    colour: str = ""

    def is_empty(self) -> bool:
        return not any(
            (
                self.microchip.strip(),
                self.licence.strip(),
                self.name.strip(),
                self.breed.strip(),
                self.colour.strip(),
            )
        )


@dataclass(frozen=True)
class AnimalMatch:
    animal: AnimalRow
    matched_by: str  # "Microchip", "Licence", "Name", "Description"


def _code(text: str) -> str:
    return text.replace(" ", "").upper()


def find_matches(db: Database, q: MatchQuery) -> tuple[AnimalMatch, ...]:
    """Registry animals that may be this one: identifiers first, then name and description."""
    found: dict[int, AnimalMatch] = {}

    def add(text: str, by: str, keep: Callable[[AnimalRow], bool]) -> None:
        if not text.strip():
            return
        for row in animals_page(db, text, 0, LIMIT).rows:
            if row.id not in found and keep(row):
                found[row.id] = AnimalMatch(row, by)

    same_kind = (lambda r: r.species == q.species) if q.species else (lambda r: True)
    chip, licence = _code(q.microchip), _code(q.licence)
    add(chip, "Microchip", lambda r: _code(r.microchip) == chip)
    add(licence, "Licence", lambda r: _code(r.licence_number) == licence)
    add(q.name, "Name", lambda r: same_kind(r) and q.name.strip().lower() in r.name.lower())
    description = " ".join(x.strip() for x in (q.breed, q.colour) if x.strip())
    add(description, "Description", same_kind)
    return tuple(found.values())


# How the intake lists the matches.
IDENTIFIERS = ("Microchip", "Licence")  # matches that identify the animal, not suggest it

MATCH_COLUMNS = (
    Column("Matched by", lambda m: m.matched_by, 94),
    Column("Name", lambda m: m.animal.name or "(no name)", 74),
    Column("Breed", lambda m: m.animal.breed, 96),
    Column("Colour", lambda m: m.animal.colour, 72),
    Column("Microchip", lambda m: m.animal.microchip),  # widths: always whole (see below)
    Column("Licence", lambda m: m.animal.licence_number),
    Column("Owner", lambda m: m.animal.owner_name),
)


WHOLE_COLUMNS = ("Microchip", "Licence")  # the very fields matched: never clipped
