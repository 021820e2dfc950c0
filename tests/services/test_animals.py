"""Animals in the registry."""

from __future__ import annotations

from datetime import date

import pytest

from fieldops.errors import ValidationError
from fieldops.services.animals import (
    AnimalInput,
    VaccinationInput,
    add_vaccination,
    animal_history,
    animals_page,
    count_animals,
    create_animal,
    get_animal,
    update_animal,
)
from fieldops.services.people import PersonInput, create_person


@pytest.fixture
def owner(db, operator):
    return create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))


def test_create_with_owner_and_vaccination(db, operator, owner, today):
    a = create_animal(
        db,
        operator,
        AnimalInput(
            species="dog",
            name="Rex",
            breed="Beagle",
            microchip="985 112 003 456 789",
            owner_id=owner.id,
            licence_number="d-1234",
            licence_year=2026,
        ),
        today=today,
    )
    assert a.microchip == "985112003456789" and a.licence_number == "D-1234"
    assert a.owner_name == "Ana Ruiz" and a.licensed_for(2026) and not a.licensed_for(2027)
    a = add_vaccination(
        db,
        operator,
        a.id,
        VaccinationInput(date(2025, 5, 1), date(2028, 5, 1), "RV-77", "Dr Vet"),
        today=today,
    )
    assert a.rabies_current_on(today).certificate_number == "RV-77"
    assert a.rabies_current_on(date(2028, 5, 2)) is None
    actions = [h.action for h in animal_history(db, a.id)]
    assert actions == ["add_vaccination", "create"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"species": "horse"}, "species"),
        ({"species": "other"}, "species_detail"),
        ({"species": "dog", "microchip": "12-34"}, "microchip"),
        ({"species": "dog", "birth_date": date(2027, 1, 1)}, "birth_date"),
        ({"species": "dog", "licence_number": "D-1"}, "licence_year"),
        ({"species": "dog", "licence_year": 2026}, "licence_number"),
        ({"species": "dog", "sex": "m"}, "sex"),
    ],
)
def test_invalid_animal_names_the_field(db, operator, today, data, field):
    with pytest.raises(ValidationError) as exc:
        create_animal(db, operator, AnimalInput(**data), today=today)
    assert field in exc.value.by_field()
    assert count_animals(db) == 0


def test_vaccination_expiry_before_date_is_refused(db, operator, today):
    a = create_animal(db, operator, AnimalInput(species="cat"), today=today)
    with pytest.raises(ValidationError) as exc:
        add_vaccination(
            db, operator, a.id, VaccinationInput(date(2026, 5, 1), date(2026, 4, 1)), today=today
        )
    assert exc.value.field == "expires_on"
    assert get_animal(db, a.id).vaccinations == ()


def test_a_microchip_belongs_to_one_animal(db, operator, today):
    create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", microchip="985112003456789"),
        today=today,
    )
    with pytest.raises(ValidationError, match="already registered"):
        create_animal(
            db, operator, AnimalInput(species="dog", microchip="985112003456789"), today=today
        )


def test_unknown_owner_is_refused(db, operator, today):
    # Issue 13: an id that does not exist is a validation error naming the field.
    with pytest.raises(ValidationError) as info:
        create_animal(db, operator, AnimalInput(species="dog", owner_id=4242), today=today)
    assert info.value.field == "owner_id"
    assert count_animals(db) == 0


def test_edit_is_audited(db, operator, today):
    a = create_animal(db, operator, AnimalInput(species="dog", name="Rex"), today=today)
    b = update_animal(
        db,
        operator,
        a.id,
        AnimalInput(species="dog", name="Rex", colour="tan"),
        expected_version=a.version,
        today=today,
    )
    assert b.colour == "tan"
    assert "colour:  → tan" in animal_history(db, a.id)[0].summary


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("rex", ["Rex"]),
        ("985112003456789", ["Rex"]),
        ("D-99", ["Tom"]),
        ("d-99", ["Tom"]),
        ("ruiz", ["Rex", "Tom"]),
        ("tabby", ["Tom"]),
        ("", ["Max", "Rex", "Tom"]),
    ],
)
def test_search_animals_by_name_chip_licence_owner(db, operator, owner, today, query, names):
    create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", owner_id=owner.id, microchip="985112003456789"),
        today=today,
    )
    create_animal(
        db,
        operator,
        AnimalInput(
            species="cat",
            name="Tom",
            colour="tabby",
            owner_id=owner.id,
            licence_number="D-99",
            licence_year=2026,
        ),
        today=today,
    )
    create_animal(db, operator, AnimalInput(species="dog", name="Max"), today=today)
    assert [r.name for r in animals_page(db, query, 0, 50).rows] == names
    assert count_animals(db, query) == len(names)
