"""People: validation that names the field, audited changes, search in SQL."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from fieldops.db.models import AuditEvent, Person
from fieldops.errors import StaleRecordError, ValidationError
from fieldops.services.audit import history
from fieldops.services.people import (
    PersonInput,
    archive_person,
    count_people,
    create_person,
    get_person,
    people_page,
    update_person,
)


def _count(db, model) -> int:
    with db.read() as s:
        return s.execute(select(func.count()).select_from(model)).scalar_one()


def test_create_cleans_input_and_audits_who_and_what(db, operator):
    p = create_person(
        db,
        operator,
        PersonInput(
            full_name="  Ana   Ruiz ",
            address="12 Elm St",
            phone="(608) 555-0142",
            email="ANA@Example.org",
        ),
    )
    assert p.full_name == "Ana Ruiz" and p.email == "ana@example.org"
    (entry,) = history(db, "person", p.id)
    assert entry.actor == "opal" and entry.action == "create" and "Ana Ruiz" in entry.summary
    assert entry.at.utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("full_name", "   ", "Name is required"),
        ("email", "ana-at-example", "E-mail"),
        ("phone", "555", "Phone"),
        ("postal_code", "537", "ZIP"),
    ],
)
def test_invalid_input_names_the_field_and_saves_nothing(db, operator, field, value, message):
    data = {"full_name": "Ana Ruiz", field: value}
    events = _count(db, AuditEvent)  # the operator's account is already on the trail
    with pytest.raises(ValidationError) as exc:
        create_person(db, operator, PersonInput(**data))
    assert field in exc.value.by_field()
    assert message in exc.value.by_field()[field]
    assert _count(db, Person) == 0 and _count(db, AuditEvent) == events


def test_all_bad_fields_are_reported_at_once(db, operator):
    with pytest.raises(ValidationError) as exc:
        create_person(db, operator, PersonInput(full_name="", email="x", phone="1"))
    assert set(exc.value.by_field()) == {"full_name", "email", "phone"}


def test_edit_records_before_and_after_of_changed_fields_only(db, operator):
    p = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    edited = update_person(
        db,
        operator,
        p.id,
        PersonInput(**{**p.as_input().__dict__, "address": "14 Oak Ave"}),
        expected_version=p.version,
    )
    assert edited.address == "14 Oak Ave" and edited.version == p.version + 1
    latest = history(db, "person", p.id)[0]
    assert latest.action == "update" and "12 Elm St → 14 Oak Ave" in latest.summary
    assert "full_name" not in latest.summary


def test_a_stale_edit_is_refused_and_the_newer_data_kept(db, operator, supervisor):
    p = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    update_person(
        db,
        supervisor,
        p.id,
        PersonInput(full_name="Ana Ruiz", address="1 New Rd"),
        expected_version=p.version,
    )
    with pytest.raises(StaleRecordError, match="changed by someone else"):
        update_person(
            db,
            operator,
            p.id,
            PersonInput(full_name="Ana Ruiz", address="2 Old Rd"),
            expected_version=p.version,
        )
    assert get_person(db, p.id).address == "1 New Rd"


def test_archive_needs_a_reason_and_keeps_the_record(db, operator):
    p = create_person(db, operator, PersonInput(full_name="Ana Ruiz"))
    with pytest.raises(ValidationError) as exc:
        archive_person(db, operator, p.id, "  ")
    assert exc.value.field == "reason"
    archive_person(db, operator, p.id, "duplicate of #2")
    assert get_person(db, p.id).archived
    assert count_people(db, "Ruiz") == 0
    assert history(db, "person", p.id)[0].reason == "duplicate of #2"


@pytest.fixture
def town(db, operator):
    people = [
        PersonInput(full_name="Ana Ruiz", address="12 Elm Street", phone="608-555-0142"),
        PersonInput(
            full_name="Bob Stone",
            address="4 Oak Avenue",
            phone="608-555-9000",
            email="bob@stone.net",
        ),
        PersonInput(full_name="Cara Elmsworth", address="9 Pine Road"),
        PersonInput(full_name="O'Brien & <Sons>", address="1 Main St"),
    ]
    return [create_person(db, operator, p) for p in people]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("", ["Cara Elmsworth", "Ana Ruiz", "O'Brien & <Sons>", "Bob Stone"]),
        ("ruiz", ["Ana Ruiz"]),
        ("elm", ["Cara Elmsworth", "Ana Ruiz"]),  # name prefix and street prefix
        ("oak ave", ["Bob Stone"]),
        ("555-0142", ["Ana Ruiz"]),
        ("6085559000", ["Bob Stone"]),
        ("bob@stone", ["Bob Stone"]),
        ('"sons', ["O'Brien & <Sons>"]),  # FTS syntax in user text is just text
        ("nobody", []),
    ],
)
def test_search_by_name_address_phone_email(db, town, query, names):
    page = people_page(db, query, 0, 50)
    assert [r.full_name for r in page.rows] == names
    assert count_people(db, query) == len(names)


def test_pages_are_ordered_and_complete(db, town):
    first, second = people_page(db, "", 0, 3), people_page(db, "", 3, 3)
    assert len(first.rows) == 3 and len(second.rows) == 1
    assert second.offset == 3
