"""Issue 13, "Found": input that passed validation and then failed in the database.

Each is refused at the edge as a ValidationError naming the field, on SQLite and
PostgreSQL alike, and nothing is written.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select
from support import count_rows, local, refused

from fieldops.db.models import Animal, AuditEvent, FeeScheduleEntry, Impoundment, Payment, Person
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.people import PersonInput, create_person

AT = local(2026, 11, 20)


# ----------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("full_name", "Ana\x00 Ruiz"),
        ("full_name", "Ana \ud800Ruiz"),  # a lone surrogate
        ("notes", "called\x00twice"),
        ("address", "12 Elm\x00 St"),
        ("email", ("a" * 190) + "@example.org"),  # longer than String(200)
        ("city", "Madison\x07"),  # a control character
    ],
)
def test_a_person_with_text_the_database_cannot_hold_is_refused(db, operator, field, value):
    fields = {"full_name": "Ana Ruiz", field: value}
    events = count_rows(db, AuditEvent)
    refused(lambda: create_person(db, operator, PersonInput(**fields)), field)
    assert count_rows(db, Person) == 0
    assert count_rows(db, AuditEvent) == events


def test_notes_keep_their_line_breaks_and_emoji_and_right_to_left_text(db, operator):
    notes = "first line\n\tsecond line 🐕 \u05e9\u05dc\u05d5\u05dd"
    p = create_person(db, operator, PersonInput(full_name="Ana Ruiz 🐈", notes=notes))
    with db.read() as s:
        row = s.get(Person, p.id)
        assert (row.full_name, row.notes) == ("Ana Ruiz 🐈", notes)


def test_a_line_break_in_a_one_line_field_is_folded_not_refused(db, operator):
    p = create_person(db, operator, PersonInput(full_name="Ana\nRuiz"))
    assert p.full_name == "Ana Ruiz"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("officer", "Off.\x00 Lee"),
        ("reason_detail", "x" * 301),
        ("notes", "bit\x00 the officer"),
        ("kennel", "K\ud83d"),
    ],
)
def test_an_intake_with_text_the_database_cannot_hold_is_refused(
    db, operator, profile, rex, field, value
):
    data = {"officer": "Off. Dana Lee", "reason": "other", "reason_detail": "stray", field: value}
    inp = IntakeInput(impounded_at=AT, animal_id=rex.id, found_place="Elm & 3rd", **data)
    refused(lambda: intake(db, operator, inp, profile), field)
    assert count_rows(db, Impoundment) == 0


# ---------------------------------------------------------------------- money


@pytest.fixture
def held(db, impound, rex):
    return impound(rex.id, AT)


@pytest.mark.parametrize(
    "amount",
    [
        "1e30",
        Decimal("1e30"),
        "99999999999999999999.99",
        Decimal("92000000000000000.00"),  # $92 quadrillion: fits BIGINT cents
        "1000000.01",
        "NaN",
        "Infinity",
        "-5.00",
        "12.345",
        "12,34x",
        12.5,  # a float is not an exact amount
    ],
)
def test_a_payment_amount_out_of_range_or_not_money_is_refused(db, operator, profile, held, amount):
    inp = PaymentInput((LineInput("impound", amount),), "cash", "R-1")
    refused(lambda: record_payment(db, operator, held.id, inp, profile), "lines.0.amount")
    assert count_rows(db, Payment) == 0


def test_a_payment_of_the_cap_and_with_a_thousands_comma_is_taken(db, operator, profile, held):
    lines = (LineInput("impound", "$1,000,000.00"), LineInput("boarding", Decimal("0.01")))
    record_payment(db, operator, held.id, PaymentInput(lines, "cash", "R-1"), profile)
    with db.read() as s:
        amounts = sorted(line.amount for p in s.scalars(select(Payment)) for line in p.lines)
    assert amounts == [Decimal("0.01"), Decimal("1000000.00")]


def test_an_over_long_payment_line_description_is_refused(db, operator, profile, held):
    inp = PaymentInput((LineInput("other", "5.00", "x" * 201),), "cash", "R-1")
    refused(lambda: record_payment(db, operator, held.id, inp, profile), "lines.0.description")
    assert count_rows(db, Payment) == 0


def test_a_receipt_number_with_a_nul_is_refused(db, operator, profile, held):
    inp = PaymentInput((LineInput("impound", "5.00"),), "cash", "R\x001")
    refused(lambda: record_payment(db, operator, held.id, inp, profile), "receipt_number")


@pytest.mark.parametrize("amount", ["1e30", "99999999999999999999.99", "1e-30"])
def test_a_fee_schedule_amount_out_of_range_is_refused(db, supervisor, amount):
    fees = {sp: SpeciesFees("40.00", "10.00", "25.00") for sp in ("dog", "cat", "other")}
    fees["cat"] = SpeciesFees(amount, "10.00", "25.00")
    inp = FeeScheduleInput("R-2026-14", date(2026, 1, 1), fees)
    refused(lambda: enter_fee_schedule(db, supervisor, inp), "cat.impound")
    assert count_rows(db, FeeScheduleEntry) == 0


# ------------------------------------------------------------------ datetimes


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("impounded_at", datetime(2026, 11, 20, 10, 0)),  # naive
        ("found_at", datetime(2026, 11, 20, 9, 0)),  # naive
        ("impounded_at", datetime(1, 1, 1, tzinfo=UTC)),  # year 1
        ("found_at", datetime(1, 1, 1, tzinfo=UTC)),
        ("impounded_at", "2026-11-20 10:00"),  # text
    ],
)
def test_an_intake_instant_naive_or_out_of_range_is_refused(
    db, operator, profile, rex, field, value
):
    data = {"impounded_at": AT, field: value}
    inp = IntakeInput(
        animal_id=rex.id, officer="Off. Lee", reason="at_large", found_place="Elm", **data
    )
    refused(lambda: intake(db, operator, inp, profile), field)
    assert count_rows(db, Impoundment) == 0


# ------------------------------------------------------------ dates and ids


@pytest.mark.parametrize("birth", ["2020-01-01", datetime(2020, 1, 1, tzinfo=UTC), date(1, 1, 1)])
def test_a_birth_date_that_is_not_a_date_is_refused(db, operator, today, birth):
    inp = AnimalInput(species="dog", name="Rex", birth_date=birth)
    refused(lambda: create_animal(db, operator, inp, today=today), "birth_date")
    assert count_rows(db, Animal) == 0


@pytest.mark.parametrize("clinic_id", [987654, 2**40, -1])
def test_a_clinic_that_does_not_exist_is_refused_naming_the_field(db, operator, clinic_id):
    inp = PersonInput(full_name="Dr Vet", is_veterinarian=True, clinic_id=clinic_id)
    refused(lambda: create_person(db, operator, inp), "clinic_id")
    assert count_rows(db, Person) == 0


def test_an_owner_that_does_not_exist_is_refused_naming_the_field(db, operator, today):
    inp = AnimalInput(species="dog", name="Rex", owner_id=987654)
    refused(lambda: create_animal(db, operator, inp, today=today), "owner_id")
    assert count_rows(db, Animal) == 0


def test_an_intake_of_an_animal_that_does_not_exist_is_refused(db, operator, profile):
    inp = IntakeInput(
        impounded_at=AT, animal_id=987654, officer="Off. Lee", reason="at_large", found_place="Elm"
    )
    refused(lambda: intake(db, operator, inp, profile), "animal_id")
    assert count_rows(db, Impoundment) == 0


def test_a_time_the_clocks_skipped_is_refused_not_moved_an_hour(db, operator, profile, rex):
    from zoneinfo import ZoneInfo

    skipped = datetime(2026, 3, 8, 2, 30, tzinfo=ZoneInfo("America/Chicago"))  # DST began
    inp = IntakeInput(
        impounded_at=skipped,
        animal_id=rex.id,
        officer="Off. Lee",
        reason="at_large",
        found_place="Elm",
    )
    refused(lambda: intake(db, operator, inp, profile), "impounded_at")
    assert count_rows(db, Impoundment) == 0
