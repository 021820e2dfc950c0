"""What a record's view reads to warn the officer: every module's standing cautions on the
record's people or at its addresses (issue 16, officer safety)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.modules import Caution, cautions_for


def _merged(s: Session, people: tuple[int, ...], places: tuple[str, ...]) -> tuple[Caution, ...]:
    found: dict[tuple[str, str, int], Caution] = {}
    for i, address in enumerate(places or ("",)):
        for c in cautions_for(s, people if i == 0 else (), address):
            found.setdefault((c.module, c.kind, c.record_id), c)
    return tuple(sorted(found.values(), key=lambda c: (c.set_at, c.module, c.kind, c.record_id)))


def record_cautions(
    db: Database, person_ids: Sequence[int | None] = (), addresses: Sequence[str] = ()
) -> tuple[Caution, ...]:
    """The cautions standing on any of these people or at any of these addresses (an
    impoundment's owner, where the animal was found and where the owner lives), each flag
    once, oldest first. Unknown people (None) and blank addresses are skipped."""
    people = tuple(dict.fromkeys(p for p in person_ids if p is not None))
    places = tuple(dict.fromkeys(a.strip() for a in addresses if a and a.strip()))
    if not people and not places:
        return ()
    with db.read() as s:
        return _merged(s, people, places)


def address_cautions(db: Database, address: str) -> tuple[Caution, ...]:
    """The cautions at an address and on the people the registry has living there: what
    an officer reads before knocking (the address history)."""
    from fieldops.services.places import people_at

    address = address.strip()
    if not address:
        return ()
    with db.read() as s:
        return _merged(s, people_at(s, address), (address,))
