"""The net at the flush: what a service forgot to check never reaches the database."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from fieldops.db.models import Animal, Person
from fieldops.errors import ValidationError


def _people(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Person))


@pytest.mark.parametrize(
    ("attribute", "value"),
    [
        ("full_name", "Ana\x00Ruiz"),
        ("full_name", "Ana\udc00Ruiz"),
        ("email", "x" * 201),  # String(200)
        ("notes", "a note\x00"),  # Text: no length, but no NUL either
        ("archived_at", datetime(2026, 1, 1, 12, 0)),  # naive
        ("archived_at", datetime(1, 1, 1, tzinfo=UTC)),
        ("archived_at", datetime(9999, 12, 31, tzinfo=UTC)),
    ],
)
def test_a_new_row_with_a_value_no_column_can_hold_is_refused_naming_it(db, attribute, value):
    fields = {"full_name": "Ana Ruiz", "sort_name": "ruiz, ana", attribute: value}
    with pytest.raises(ValidationError) as info, db.write() as s:
        s.add(Person(**fields))
        s.flush()
    assert attribute in info.value.by_field()
    assert _people(db) == 0


def test_a_changed_row_is_checked_too_and_nothing_is_written(db):
    with db.write() as s:
        s.add(Person(full_name="Ana Ruiz", sort_name="ruiz, ana"))
    with pytest.raises(ValidationError) as info, db.write() as s:
        person = s.scalars(select(Person)).one()
        person.city = "Madison\x00"
    assert info.value.field == "city"
    with db.read() as s:
        assert s.scalars(select(Person.city)).one() == ""


@pytest.mark.parametrize(
    ("attribute", "value"),
    [("birth_date", "2020-01-01"), ("birth_date", datetime(2020, 1, 1, tzinfo=UTC))],
)
def test_a_date_column_takes_only_a_date(db, attribute, value):
    with pytest.raises(ValidationError) as info, db.write() as s:
        s.add(Animal(species="dog", **{attribute: value}))
    assert info.value.field == attribute


def test_money_must_be_a_finite_decimal_whose_cents_fit_the_column(db):
    from fieldops.db.models import FeeScheduleEntry

    def entry(amount):
        return FeeScheduleEntry(
            resolution="R-1",
            effective_on=date(2026, 1, 1),
            species="dog",
            impound=amount,
            boarding_per_day=Decimal("1.00"),
            adoption=Decimal("1.00"),
            entered_by="sam",
            entered_at=datetime(2026, 1, 1, tzinfo=UTC),
        )

    for bad in (Decimal("Infinity"), Decimal("99999999999999999999.99"), 12.5):
        with pytest.raises(ValidationError) as info, db.write() as s:
            s.add(entry(bad))
        assert info.value.field == "impound"
    with db.write() as s:
        s.add(entry(Decimal("92233720368547758.07")))  # the largest the cents column holds


def test_values_a_column_can_hold_pass_unchanged(db):
    name = "Zoë 🐕 \u0634\u0627\u062f\u06cc " + "x" * 180
    with db.write() as s:
        s.add(Person(full_name=name[:200], sort_name="z", notes="line\n\ttab\r\n" + "y" * 10_000))
    with db.read() as s:
        person = s.scalars(select(Person)).one()
    assert person.full_name == name[:200]
    assert person.notes.startswith("line\n\ttab\r\n") and len(person.notes) == 10_011
