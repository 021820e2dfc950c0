"""An animal in the pound now, or recorded dead, is not logged in again: the intake is
refused beside the animal, with the record to open instead, and nothing is written."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select
from support import local

from fieldops.db.models import Impoundment
from fieldops.errors import ValidationError
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.dispositions import destroy, record_escape
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.people import PersonInput, create_person


def _intake(animal_id: int, day: int) -> IntakeInput:
    return IntakeInput(
        impounded_at=local(2026, 11, 2, 9) + timedelta(days=day),
        animal_id=animal_id,
        officer="Off. Lee",
        reason="at_large",
        found_place="Elm & 3rd",
    )


@pytest.fixture
def dog(db, operator):
    owner = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="1 Elm St"))

    def make(name: str) -> int:
        pet = AnimalInput(species="dog", name=name, owner_id=owner.id)
        return create_animal(db, operator, pet, today=date(2026, 11, 1)).id

    return make


def _count(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Impoundment))


def test_an_animal_in_the_pound_is_not_impounded_a_second_time(db, operator, profile, dog):
    rex = dog("Rex")
    first = intake(db, operator, _intake(rex, 0), profile)
    with pytest.raises(ValidationError) as e:
        intake(db, operator, _intake(rex, 1), profile)
    errors = e.value.by_field()
    assert set(errors) == {"animal"}
    assert f"#{first.id}" in errors["animal"] and "Rex" in errors["animal"]
    assert _count(db) == 1


def test_a_dead_animal_is_not_impounded_again_but_an_escaped_one_is(db, operator, profile, dog):
    bo, max_ = dog("Bo"), dog("Max")
    put_down = intake(db, operator, _intake(bo, 0), profile).id
    destroy(
        db,
        operator,
        put_down,
        profile,
        at=local(2026, 11, 12, 15),
        basis="hold_ended",
        decided_by="Off. Lee",
    )
    with pytest.raises(ValidationError) as e:
        intake(db, operator, _intake(bo, 12), profile)
    why = e.value.by_field()["animal"]
    assert "euthanized" in why and f"#{put_down}" in why
    assert _count(db) == 1
    # An impoundment from before the euthanasia, entered late from paper, is still taken.
    assert intake(db, operator, _intake(bo, -20), profile).id
    ran_off = intake(db, operator, _intake(max_, 0), profile).id
    record_escape(db, operator, ran_off, profile, at=local(2026, 11, 3, 10), notes="Dug out")
    assert intake(db, operator, _intake(max_, 5), profile).id  # found again: a new intake
