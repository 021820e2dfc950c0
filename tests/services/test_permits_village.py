"""A chicken permit under the village's profile (ch. 12 (d), (i)): the distance from a
neighbouring residence and the state premises registration are required and checked."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from fieldops.db.models import AuditEvent, Permit
from fieldops.errors import ValidationError
from fieldops.rules import Profile
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import ChickenInput, apply_chicken

VILLAGE = Profile.named("village")


@pytest.fixture
def holder(db, operator):
    return create_person(
        db, operator, PersonInput(full_name="Ana Ruiz", address="4 Elm St", city="Village")
    )


def _form(**kw: object) -> ChickenInput:
    data: dict[str, object] = {
        "applied_on": date(2026, 3, 2),
        "year": 2026,
        "hens": 4,
        "setback_feet": 10,
        "residence_setback_feet": 30,
        "state_registered_on": date(2024, 5, 1),
    }
    return ChickenInput(**(data | kw))  # type: ignore[arg-type]


def _permits(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Permit)) or 0


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"residence_setback_feet": None}, "residence_setback_feet"),  # not answered
        ({"residence_setback_feet": 20}, "residence_setback_feet"),  # under 25 feet
        ({"state_registered_on": None}, "state_registered_on"),  # not answered
        ({"state_registered_on": date(2023, 3, 1)}, "state_registered_on"),  # over 3 years
    ],
)
def test_the_village_refuses_beside_the_field_and_writes_nothing(db, operator, holder, kw, field):
    with pytest.raises(ValidationError) as e:
        apply_chicken(db, operator, holder.id, holder.address, _form(**kw), VILLAGE)
    assert set(e.value.by_field()) == {field}
    assert _permits(db) == 0


def test_a_good_village_application_is_applied_with_its_answers_on_record(db, operator, holder):
    view = apply_chicken(db, operator, holder.id, holder.address, _form(), VILLAGE)
    assert view.status == "applied"
    with db.read() as s:
        after = s.scalars(
            select(AuditEvent.after).where(AuditEvent.action == "permit_applied")
        ).one()
    assert after["residence_setback_feet"] == 30
    assert after["state_registered_on"] == "2024-05-01"
    # ... and on the application the record and the printed permit show
    assert view.application.residence_setback_feet == 30
    assert view.application.state_registered_on == date(2024, 5, 1)


def test_a_short_residence_distance_may_be_recorded_as_refused(db, operator, holder):
    form = _form(residence_setback_feet=12)
    view = apply_chicken(db, operator, holder.id, holder.address, form, VILLAGE, refuse=True)
    assert view.status == "refused"
    assert [p.code for p in view.application.problems] == ["residence_setback_too_short"]


def test_the_city_asks_neither(db, operator, holder):
    form = _form(residence_setback_feet=None, state_registered_on=None, setback_feet=60)
    form = ChickenInput(**{**form.__dict__, "hoa_exists": False})
    view = apply_chicken(db, operator, holder.id, holder.address, form, Profile.default())
    assert view.status == "applied"
    assert view.application.residence_setback_feet is None
    assert view.application.state_registered_on is None
