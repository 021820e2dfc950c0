"""The people and animals involved in a call beyond its caller (and its main owner and
animal, which stay on the call): each a registry record or described, in a role.

They are checked, saved and audited with the call itself (``records.create_call`` and
``update_call``); a field error names the row, as ``parties.1.role``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.models import Animal, CallParty, Person
from fieldops.errors import Collector
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.views import PartyView

#: More than this on one call is a slip (a held-down key), not a call.
MOST_PARTIES = 30
PARTY_FIELDS = ("kind", "role", "person_id", "animal_id", "description", "notes")


@dataclass(frozen=True)
class PartyInput:
    """One row of "People and animals involved": a person or an animal, in a role."""

    kind: str  # "person" or "animal"
    role: str
    person_id: int | None = None
    animal_id: int | None = None
    description: str = ""
    notes: str = ""


def validate_parties(c: Collector, parties: Sequence[PartyInput]) -> tuple[PartyInput, ...]:
    """Each row checked, its errors named ``parties.<row>.<field>`` (rows from 0)."""
    if not isinstance(parties, Sequence) or isinstance(parties, str):
        c.add("parties", "The people and animals involved are not a list; reopen the form.")
        return ()
    if len(parties) > MOST_PARTIES:
        c.add("parties", f"A call lists at most {MOST_PARTIES} people and animals involved.")
        return ()
    cols = CallParty.__table__.c
    out: list[PartyInput] = []
    seen: dict[tuple[str, int], int] = {}
    for i, p in enumerate(parties):
        f = f"parties.{i}"
        row = f"Row {i + 1}"
        if not isinstance(p, PartyInput):
            c.add(f"{f}.kind", f"{row}: not a person or an animal; reopen the form.")
            continue
        if p.kind not in rules.PARTY_ROLES:
            c.add(f"{f}.kind", f"{row}: say whether it is a person or an animal.")
            continue
        roles = rules.PARTY_ROLES[p.kind]
        what = "person" if p.kind == "person" else "animal"
        c.check(p.role in roles, f"{f}.role", f"{row}: choose what the {what} is to the call.")
        record = p.person_id if p.kind == "person" else p.animal_id
        other = p.animal_id if p.kind == "person" else p.person_id
        if other is not None:
            wrong = "animal" if p.kind == "person" else "person"
            c.add(f"{f}.{wrong}_id", f"{row}: a {what} row cannot name a registry {wrong}.")
        description = v.clean(p.description)
        notes = v.clean(p.notes)
        v.optional_len(c, f"{f}.description", description, f"{row}'s description", cols.description)
        v.optional_len(c, f"{f}.notes", notes, f"{row}'s notes", cols.notes)
        if record is None and not description:
            c.add(
                f"{f}.description",
                f"{row}: choose the {what} in the registry or describe the {what}.",
            )
        if record is not None:
            if not v.row_id_fits(record):
                c.add(f"{f}.{p.kind}_id", f"{row}: there is no {what} #{record} in the registry.")
            elif (p.kind, record) in seen:
                c.add(
                    f"{f}.{p.kind}_id",
                    f"{row}: this {what} is already listed in row {seen[p.kind, record] + 1}.",
                )
            else:
                seen[p.kind, record] = i
        out.append(replace(p, description=description, notes=notes))
    return tuple(out)


def check_party_links(s: Session, c: Collector, parties: Sequence[PartyInput]) -> None:
    """A registry id that names no record is refused, naming the row."""
    for i, p in enumerate(parties):
        model: type[Person] | type[Animal] = Person if p.kind == "person" else Animal
        record = p.person_id if p.kind == "person" else p.animal_id
        if record is not None and v.row_id_fits(record) and s.get(model, record) is None:
            c.add(
                f"parties.{i}.{p.kind}_id",
                f"Row {i + 1}: there is no {p.kind} #{record} in the registry.",
            )


def party_rows(s: Session, call_id: int) -> list[CallParty]:
    return list(
        s.scalars(
            select(CallParty).where(CallParty.call_id == call_id).order_by(CallParty.position)
        )
    )


def parties_snapshot(rows: Sequence[CallParty] | Sequence[PartyInput]) -> list[dict[str, Any]]:
    """The rows as the audit trail keeps them (only what each row says)."""
    return [
        {k: getattr(r, k) for k in PARTY_FIELDS if getattr(r, k) not in (None, "")} for r in rows
    ]


def save_parties(s: Session, call_id: int, parties: Sequence[PartyInput]) -> bool:
    """Make the call's rows these, in this order; True when anything changed. Rows are
    rewritten in place by position (no delete and insert of the same position)."""
    rows = party_rows(s, call_id)
    if parties_snapshot(rows) == parties_snapshot(parties):
        return False
    for i, p in enumerate(parties):
        if i < len(rows):
            row = rows[i]
        else:
            row = CallParty(call_id=call_id, position=i)
            s.add(row)
        for k in PARTY_FIELDS:
            value = getattr(p, k)
            if getattr(row, k) != value:
                setattr(row, k, value)
    for row in rows[len(parties) :]:
        s.delete(row)
    return True


def party_name(s: Session, row: CallParty) -> str:
    if row.person_id is not None:
        person = s.get(Person, row.person_id)
        return person.full_name if person else f"person #{row.person_id}"
    if row.animal_id is not None:
        a = s.get(Animal, row.animal_id)
        if a is None:
            return f"animal #{row.animal_id}"
        detail = ", ".join(x for x in (a.species_detail or a.species, a.breed, a.colour) if x)
        return f"{a.name or '(no name)'} ({detail})"
    return row.description


def party_views(s: Session, call_id: int) -> tuple[PartyView, ...]:
    return tuple(
        PartyView(
            r.position,
            r.kind,
            r.role,
            rules.party_role_label(r.kind, r.role),
            r.person_id,
            r.animal_id,
            party_name(s, r),
            r.description,
            r.notes,
        )
        for r in party_rows(s, call_id)
    )


def as_inputs(views: Sequence[PartyView]) -> tuple[PartyInput, ...]:
    """A call's parties as the form would send them again (a recheck copies them)."""
    return tuple(
        PartyInput(p.kind, p.role, p.person_id, p.animal_id, p.description, p.notes) for p in views
    )
