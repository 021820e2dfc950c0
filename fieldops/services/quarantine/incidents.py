"""The animal's bite reports as incidents on the seam, for the records that rest on them
(a vicious-animal declaration links them by (module, kind, id), never by this table).

The summary names no victim: it is printed on documents served on the owner."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.models import BiteReport
from fieldops.modules import Incident
from fieldops.services.quarantine.fixes import bitten_at_of, corrected, corrections_of

SPECIES_WORDS = {"dog": "a dog", "cat": "a cat", "other": "an animal"}


def bite_incidents(s: Session, animal_id: int) -> tuple[Incident, ...]:
    """Every bite report of the animal, earliest first, as corrected (fixes.py)."""
    rows = []
    for b in s.scalars(select(BiteReport).where(BiteReport.animal_id == animal_id)):
        fixes = corrections_of(s, b.id)
        place = corrected(fixes, "bite_report", b.id, "place", b.place)
        rows.append((b.id, bitten_at_of(fixes, b), place, b.species))
    rows.sort(key=lambda r: (r[1], r[0]))
    return tuple(
        Incident(
            module="quarantine",
            kind="bite",
            record_id=rid,
            when=at,
            place=place,
            summary=f"Bite report #{rid}: a person was bitten by "
            f"{SPECIES_WORDS.get(species, 'the animal')} (58-527).",
        )
        for rid, at, place, species in rows
    )
