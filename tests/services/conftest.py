from __future__ import annotations

from datetime import date

import pytest
from due_support import sent_selects

from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, VaccinationInput, add_vaccination, create_animal
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.people import PersonInput, create_person


@pytest.fixture
def profile() -> Profile:
    return Profile.default()


@pytest.fixture
def clinic(db, supervisor):
    from fieldops.services import quarantine as qs

    return qs.create_clinic(
        db,
        supervisor,
        qs.ClinicInput("Eastside Veterinary Clinic", "100 Clinic Way", "608-555-0100"),
    )


@pytest.fixture
def owner(db, operator):
    return create_person(
        db,
        operator,
        PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison", postal_code="53703"),
    )


@pytest.fixture
def adopter(db, operator):
    return create_person(db, operator, PersonInput(full_name="Bea Quinn", address="4 Oak Ave"))


@pytest.fixture
def another_rex(db, operator, owner, today):
    """``another_rex()``: a new unlicensed, unvaccinated dog of the same owner, for a fuzz
    example of its own (an animal is in the pound once at a time, and not again at a
    time it was already held)."""

    def _rex():
        pet = AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=owner.id)
        return create_animal(db, operator, pet, today=today)

    return _rex


@pytest.fixture
def rex(another_rex):
    """An unlicensed, unvaccinated dog with a known owner."""
    return another_rex()


@pytest.fixture
def vaccinate(db, operator, today):
    def _v(animal_id, on=date(2026, 1, 10), until=date(2027, 1, 10), cert="RV-77"):
        return add_vaccination(
            db, operator, animal_id, VaccinationInput(on, until, cert, "Dr Vet"), today=today
        )

    return _v


@pytest.fixture
def impound(db, operator, profile):
    def _impound(animal_id, at, **kw):
        data = {"officer": "Off. Dana Lee", "reason": "at_large", "found_place": "Elm & 3rd"}
        data.update(kw)
        return intake(
            db, operator, IntakeInput(impounded_at=at, animal_id=animal_id, **data), profile
        )

    return _impound


@pytest.fixture
def escaped(db, operator, profile):
    """``escaped(impoundment_id, at)``: the impoundment ended, the animal ran off, so it can
    be impounded again (an animal in the pound is not logged in a second time)."""
    from fieldops.services.dispositions import record_escape

    def _escaped(impoundment_id, at):
        return record_escape(db, operator, impoundment_id, profile, at=at, notes="Dug out")

    return _escaped


@pytest.fixture
def selects(db):
    """The SELECT statements sent to the database while a test runs."""
    with sent_selects(db) as sent:
        yield sent
