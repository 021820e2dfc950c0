"""The fancier's list of animals (58-533(a)): a change noted (the list is then due within
30 days, ``fancier_list_update_due``), and the list updated."""

from __future__ import annotations

from datetime import date

from fieldops.db.engine import Database
from fieldops.db.models import (
    PermitAnimalList,
)
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, fancier_list_update_due
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, jsonable, now
from fieldops.services.permits.applying import _animals
from fieldops.services.permits.enforcing import _TEXT, _day, _fancier, _finish, _open
from fieldops.services.permits.records import (
    change_summary,
)
from fieldops.services.permits.views import AnimalLine, PermitView


@requires(Permission.RECORDS)
def note_animal_change(
    db: Database,
    actor: Actor,
    permit_id: int,
    changed_on: date | None,
    note: str,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """A change in the animals kept, seen or reported before the list is updated: the list
    is then due by ``fancier_list_update_due`` (30 days), and overdue after."""
    c = Collector()
    _day(c, "changed_on", changed_on, "The day of the change", profile)
    v.required(c, "note", (note or "").strip(), "What changed", _TEXT)
    c.raise_if_any()
    assert changed_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        _fancier(permit)
        due = fancier_list_update_due(changed_on, profile)
        s.add(
            PermitAnimalList(
                permit_id=permit.id,
                kind="change",
                changed_on=changed_on,
                due_by=due,
                animals=[],
                note=note.strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        audit(
            s,
            actor,
            "permit_animals_changed",
            "permit",
            permit.id,
            after=jsonable({"changed_on": changed_on, "due_by": due, "note": note.strip()}),
        )
        earliest = min(d for d in (permit.list_update_due, due) if d is not None)
        change_summary(s, actor, permit, "animal list update due", list_update_due=earliest)
        return _finish(s, actor, permit, client_key, profile)


@requires(Permission.RECORDS)
def update_animal_list(
    db: Database,
    actor: Actor,
    permit_id: int,
    changed_on: date | None,
    updated_on: date | None,
    animals: tuple[AnimalLine, ...],
    profile: Profile,
    *,
    note: str = "",
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The whole list as it stands after a change on ``changed_on``: settles the changes
    noted; an update after its due day is recorded and marked late."""
    c = Collector()
    _day(c, "changed_on", changed_on, "The day of the change", profile)
    _day(c, "updated_on", updated_on, "The day the list was updated", profile)
    lines = _animals(c, animals)
    v.optional_len(c, "note", (note or "").strip(), "Note", _TEXT)
    if changed_on and updated_on and updated_on < changed_on:
        c.add("updated_on", "The list cannot be updated before the change it lists.")
    c.raise_if_any()
    assert changed_on is not None and updated_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        _fancier(permit)
        due = fancier_list_update_due(changed_on, profile)
        s.add(
            PermitAnimalList(
                permit_id=permit.id,
                kind="update",
                changed_on=changed_on,
                updated_on=updated_on,
                due_by=due,
                animals=lines,
                note=(note or "").strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        audit(
            s,
            actor,
            "permit_list_updated",
            "permit",
            permit.id,
            after=jsonable(
                {
                    "changed_on": changed_on,
                    "updated_on": updated_on,
                    "due_by": due,
                    "late": updated_on > due,
                    "animals": lines,
                }
            ),
        )
        change_summary(s, actor, permit, "animal list updated", list_update_due=None)
        return _finish(s, actor, permit, client_key, profile)
