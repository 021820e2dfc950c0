"""Every edit carries the version it was made on (issue 13, "Stale checks everywhere").

Two workstations are two ``Database`` objects on one SQLite file (or one
PostgreSQL database, the ``db`` fixture): both read a record, the first saves,
the second's save from what it read is refused with ``StaleRecordError`` and
the first's value stays. A save that changes nothing writes nothing: no audit
event, no new version."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from support import local

from fieldops.db.engine import Database
from fieldops.db.models import AuditEvent, Disposition
from fieldops.errors import StaleRecordError
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, get_animal, update_animal
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import get_impoundment
from fieldops.services.intake_corrections import move_kennel
from fieldops.services.people import PersonInput, get_person, update_person
from fieldops.services.staff import idle_lock_minutes, list_staff, set_idle_lock_minutes, set_staff


@pytest.fixture
def other(db):
    """A second workstation on the same database."""
    second = Database(db.url)
    yield second
    second.dispose()


def events(db) -> int:
    with db.read() as s:
        return int(s.scalar(select(func.count()).select_from(AuditEvent)))


def test_a_kennel_move_from_a_stale_screen_is_refused(db, other, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2, 9, 30), kennel="K-1")
    seen_here = get_impoundment(db, imp.id, profile)
    seen_there = get_impoundment(other, imp.id, profile)
    assert seen_here.version == seen_there.version
    move_kennel(db, operator, imp.id, "K-2", expected_version=seen_here.version)
    before = events(db)
    with pytest.raises(StaleRecordError):
        move_kennel(other, operator, imp.id, "K-3", expected_version=seen_there.version)
    now_on = get_impoundment(other, imp.id, profile)
    assert now_on.kennel == "K-2" and events(db) == before
    # From the screen reloaded, the move is saved.
    move_kennel(other, operator, imp.id, "K-3", expected_version=now_on.version)
    assert get_impoundment(db, imp.id, profile).kennel == "K-3"


def test_moving_to_the_kennel_it_is_in_writes_nothing(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2, 9, 30), kennel="K-1")
    before = events(db)
    move_kennel(db, operator, imp.id, " K-1 ", expected_version=imp.version)
    after = get_impoundment(db, imp.id, profile)
    assert (after.kennel, after.version, events(db)) == ("K-1", imp.version, before)


def test_a_person_edit_from_a_stale_screen_is_refused(db, other, operator, owner):
    mine = PersonInput(full_name=owner.full_name, address="14 Elm St")
    theirs = PersonInput(full_name=owner.full_name, address="99 Oak Ave")
    update_person(db, operator, owner.id, mine, expected_version=owner.version)
    with pytest.raises(StaleRecordError):
        update_person(other, operator, owner.id, theirs, expected_version=owner.version)
    assert get_person(other, owner.id).address == "14 Elm St"


def test_an_unchanged_person_or_animal_save_writes_nothing(db, operator, owner, rex, today):
    before = events(db)
    p = get_person(db, owner.id)
    same = PersonInput(
        full_name=p.full_name,
        address=p.address,
        city=p.city,
        state=p.state,
        postal_code=p.postal_code,
        phone=p.phone,
        email=p.email,
    )
    saved = update_person(db, operator, owner.id, same, expected_version=p.version)
    a = get_animal(db, rex.id)
    inp = AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=owner.id)
    kept = update_animal(db, operator, rex.id, inp, expected_version=a.version, today=today)
    assert (saved.version, kept.version, events(db)) == (p.version, a.version, before)


def test_an_animal_edit_from_a_stale_screen_is_refused(db, other, operator, owner, rex, today):
    update_animal(
        db,
        operator,
        rex.id,
        AnimalInput(species="dog", name="Rexy", breed="Beagle", owner_id=owner.id),
        expected_version=rex.version,
        today=today,
    )
    with pytest.raises(StaleRecordError):
        update_animal(
            other,
            operator,
            rex.id,
            AnimalInput(species="dog", name="Max", breed="Beagle", owner_id=owner.id),
            expected_version=rex.version,
            today=today,
        )
    assert get_animal(other, rex.id).name == "Rexy"


def test_a_staff_edit_from_a_stale_list_is_refused(db, other, admin):
    set_staff(db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    read_here = {u.username: u for u in list_staff(db)}["sam"]
    read_there = {u.username: u for u in list_staff(other)}["sam"]
    set_staff(db, admin, "sam", "officer", expected_version=read_here.version)
    before = events(db)
    with pytest.raises(StaleRecordError):
        set_staff(other, admin, "sam", "operator", expected_version=read_there.version)
    sam = {u.username: u for u in list_staff(other)}["sam"]
    assert sam.role == "officer" and events(db) == before


def test_an_unchanged_staff_or_setting_save_writes_nothing(db, admin):
    set_staff(db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    sam = {u.username: u for u in list_staff(db)}["sam"]
    set_idle_lock_minutes(db, admin, 15)
    before = events(db)
    again = set_staff(db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    set_idle_lock_minutes(db, admin, 15)
    assert (again.version, events(db), idle_lock_minutes(db)) == (sam.version, before, 15)


def test_a_clinic_edit_from_a_stale_screen_is_refused(db, other, supervisor):
    c = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    qs.update_clinic(db, supervisor, c.id, c.version, qs.ClinicInput(c.name, phone="608-555-0100"))
    with pytest.raises(StaleRecordError):
        qs.update_clinic(other, supervisor, c.id, c.version, qs.ClinicInput(c.name, licensed=False))
    (now_on,) = qs.list_clinics(other)
    assert now_on.licensed and now_on.phone == "608-555-0100"


def test_a_disposition_correction_from_a_stale_screen_is_refused(
    db, other, operator, supervisor, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2, 9, 30))
    done = record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3, 8), notes="gate")
    read = done.disposition.id
    correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="escaped",
        at=local(2026, 11, 3, 7),
        reason="The clock was read wrong",
        profile=profile,
        corrects_id=read,
    )
    with pytest.raises(StaleRecordError):
        correct_disposition(
            other,
            supervisor,
            imp.id,
            kind="died",
            at=local(2026, 11, 3, 9),
            reason="Found dead, not escaped",
            profile=profile,
            corrects_id=read,
        )
    with other.read() as s:
        kinds = s.scalars(
            select(Disposition.kind).where(Disposition.impoundment_id == imp.id)
        ).all()
    assert sorted(kinds) == ["escaped", "escaped"]
    assert get_impoundment(other, imp.id, profile).disposition.at == local(2026, 11, 3, 7)
