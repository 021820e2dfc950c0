"""A person's address has a state, is written one way, and a second record of the same
person is offered the first one before it is made."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from fieldops.db.models import Person
from fieldops.errors import ValidationError
from fieldops.services.people import (
    PersonInput,
    PossibleDuplicateError,
    archive_person,
    create_person,
    format_address,
    get_person,
    matching_people,
)

ANA = PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison", postal_code="53703")


def _people(db) -> int:
    with db.read() as s:
        return s.execute(select(func.count()).select_from(Person)).scalar_one()


def test_an_address_is_written_one_way():
    assert format_address("12 Elm St", "Madison", "WI", "53703") == "12 Elm St, Madison, WI 53703"
    assert format_address("12 Elm St", "", "WI", "") == "12 Elm St, WI"
    assert format_address("", "Rockford", "IL", "61101") == "Rockford, IL 61101"
    # Every record has a state; a state alone is no address.
    assert format_address("", "", "WI", "") == ""


def test_the_state_defaults_to_the_citys_and_may_be_another(db, operator):
    here = create_person(db, operator, ANA)
    assert here.state == "WI"
    assert here.mailing_address == "12 Elm St, Madison, WI 53703"
    away = create_person(
        db,
        operator,
        PersonInput(
            full_name="Cy Vance",
            address="3 Main St",
            city="Rockford",
            state="il.",
            postal_code="61101",
        ),
    )
    assert get_person(db, away.id).state == "IL"
    assert get_person(db, away.id).mailing_address == "3 Main St, Rockford, IL 61101"


def test_a_state_that_is_not_a_postal_abbreviation_is_refused(db, operator):
    with pytest.raises(ValidationError) as exc:
        create_person(db, operator, PersonInput(full_name="Di Wu", state="Wisconsin"))
    assert exc.value.errors[0].field == "state"
    assert "two-letter" in exc.value.errors[0].message
    assert _people(db) == 0


def test_the_same_name_and_address_is_offered_before_a_second_record(db, operator):
    ana = create_person(db, operator, ANA)
    again = PersonInput(full_name="ana  ruiz", address="12 Elm St.", city="madison")
    (match,) = matching_people(db, again)
    assert (match.id, match.address) == (ana.id, "12 Elm St, Madison, WI 53703")
    with pytest.raises(PossibleDuplicateError) as exc:
        create_person(db, operator, again)
    assert [m.id for m in exc.value.matches] == [ana.id]
    assert "An existing record matches: Ana Ruiz" in str(exc.value)
    assert _people(db) == 1


def test_saving_anyway_is_deliberate_and_makes_a_second_record(db, operator):
    ana = create_person(db, operator, ANA)
    twin = create_person(db, operator, ANA, allow_duplicate=True)
    assert twin.id != ana.id and _people(db) == 2


def test_other_people_are_not_offered(db, operator):
    ana = create_person(db, operator, ANA)
    assert matching_people(db, PersonInput(full_name="Ana Ruiz", address="14 Elm St")) == ()
    assert matching_people(db, PersonInput(full_name="Ana Ruis", address="12 Elm St")) == ()
    assert (
        matching_people(db, PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Verona"))
        == ()
    )
    archive_person(db, operator, ana.id, "moved")
    assert matching_people(db, ANA) == ()
    create_person(db, operator, ANA)  # an archived record does not block a new one


def test_a_person_archived_once_keeps_that_archive(db, operator):
    """Archiving again would overwrite the first archive's day and reason without a word."""
    ana = create_person(db, operator, ANA)
    archive_person(db, operator, ana.id, "moved")
    with db.read() as s:
        first = s.get(Person, ana.id).archived_at
    with pytest.raises(ValidationError) as exc:
        archive_person(db, operator, ana.id, "deceased")
    assert {e.field for e in exc.value.errors} == {"reason"}
    with db.read() as s:
        p = s.get(Person, ana.id)
        assert (p.archived_at, p.archive_reason) == (first, "moved")
