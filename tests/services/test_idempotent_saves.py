"""A retried save never duplicates (issue 13, "Idempotent saves").

A form makes one key when it opens and sends it with every attempt; when the
first attempt committed but its reply was lost, the retry must return the
record already made: one row, the same id, no second audit event. On SQLite
and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago
from sqlalchemy import func, select
from support import local
from vicious_cases import declaration

from fieldops.db.models import (
    Animal,
    AuditEvent,
    BiteReport,
    Clinic,
    Disposition,
    FeeScheduleEntry,
    Impoundment,
    Payment,
    Person,
    Quarantine,
    QuarantineEvent,
    QuarantineExam,
    RabiesVaccination,
    SaveKey,
    ViciousCase,
)
from fieldops.errors import ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, VaccinationInput, add_vaccination, create_animal
from fieldops.services.dispositions import record_escape, transfer
from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.people import PersonInput, PossibleDuplicateError, create_person
from fieldops.services.vicious.declaring import declare


def count(db, model) -> int:
    with db.read() as s:
        return int(s.scalar(select(func.count()).select_from(model)))


def key() -> str:
    return str(uuid.uuid4())


def twice(db, model, call):
    """Call ``call(k)`` twice with one key: the second returns the first's answer and
    writes nothing (no row, no audit event)."""
    k = key()
    rows, events = count(db, model), count(db, AuditEvent)
    first = call(k)
    events_after_first = count(db, AuditEvent)
    second = call(k)
    assert count(db, model) == rows + 1
    assert count(db, AuditEvent) == events_after_first > events
    return first, second


ANA = PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison", postal_code="53703")


def test_a_person_saved_twice_with_one_key_is_one_person(db, operator):
    first, second = twice(db, Person, lambda k: create_person(db, operator, ANA, client_key=k))
    assert second.id == first.id
    # Without a key the same name and address is a possible duplicate, asked about:
    # the retry above was answered before that question, as the record it made.
    with pytest.raises(PossibleDuplicateError):
        create_person(db, operator, ANA)


def test_without_a_key_two_saves_are_two_records(db, operator, today):
    inp = AnimalInput(species="dog", name="Rex")
    a = create_animal(db, operator, inp, today=today)
    b = create_animal(db, operator, inp, today=today)
    assert a.id != b.id and count(db, Animal) == 2


def test_an_animal_and_its_vaccination(db, operator, today):
    inp = AnimalInput(species="dog", name="Rex")
    a, b = twice(db, Animal, lambda k: create_animal(db, operator, inp, today=today, client_key=k))
    assert a.id == b.id
    vacc = VaccinationInput(date(2026, 1, 10), date(2027, 1, 10), "RV-77", "Dr Vet")
    twice(
        db,
        RabiesVaccination,
        lambda k: add_vaccination(db, operator, a.id, vacc, today=today, client_key=k),
    )


def test_an_intake_with_a_new_chipped_animal_is_logged_once(db, operator, profile):
    """The retry's microchip is on file by then (the first attempt registered it): the
    key is looked at before that check, so the retry is answered, not refused."""
    inp = IntakeInput(
        impounded_at=local(2026, 11, 2, 9, 30),
        new_animal=AnimalInput(
            species="dog", name="Chip", breed="Beagle", microchip="985112003456789"
        ),
        officer="Off. Dana Lee",
        reason="at_large",
        found_place="Elm & 3rd",
    )
    first, second = twice(
        db, Impoundment, lambda k: intake(db, operator, inp, profile, client_key=k)
    )
    assert second.id == first.id and second.animal.id == first.animal.id
    assert count(db, Animal) == 1


def test_a_payment_and_a_disposition(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2, 9, 30))
    pay = PaymentInput((LineInput("impound", Decimal("40.00")),), "cash", "R-100")
    a, b = twice(
        db, Payment, lambda k: record_payment(db, operator, imp.id, pay, profile, client_key=k)
    )
    assert a.paid == b.paid == Decimal("40.00")
    at = local(2026, 11, 3, 8)
    first, second = twice(
        db,
        Disposition,
        lambda k: record_escape(db, operator, imp.id, profile, at=at, notes="gate", client_key=k),
    )
    assert second.disposition is not None and second.disposition.id == first.disposition.id


def test_a_transfer_retried_is_not_refused_as_already_disposed(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 10, 1, 9, 30))
    at = local(2026, 11, 3, 8)
    first, second = twice(
        db,
        Disposition,
        lambda k: transfer(
            db, operator, imp.id, "Dane County Humane", profile, at=at, client_key=k
        ),
    )
    assert first.disposition.id == second.disposition.id


def test_a_bite_report_its_quarantine_an_exam_and_an_event(db, officer, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    inp = bite_input(days_ago(2), animal_id=rex.id, clinic_id=clinic.id)
    first, second = twice(
        db, BiteReport, lambda k: qs.report_bite(db, officer, inp, PROFILE, client_key=k)
    )
    assert second == first and first.quarantine_id is not None
    assert count(db, Quarantine) == 1
    qid = first.quarantine_id
    ex = qs.ExamInput(day(1), "Dr. Kim", "no_signs", Decimal("45.00"))
    twice(db, QuarantineExam, lambda k: qs.record_exam(db, officer, qid, ex, PROFILE, client_key=k))
    last = qs.get_quarantine(db, qid, PROFILE).last_day
    a, b = twice(
        db,
        QuarantineEvent,
        lambda k: qs.extend_period(
            db, officer, qid, last + timedelta(days=5), "Dr. Kim", PROFILE, client_key=k
        ),
    )
    assert (a.quarantine_id, a.bite_report_id) == (b.quarantine_id, b.bite_report_id)


def test_a_vicious_declaration(db, officer, rex, profile):
    first, second = twice(
        db,
        ViciousCase,
        lambda k: declare(db, officer, declaration(rex.id), profile, client_key=k),
    )
    assert second.id == first.id


def test_a_clinic_and_a_fee_schedule(db, supervisor):
    inp = qs.ClinicInput("Eastside Veterinary Clinic", "100 Clinic Way", "608-555-0100")
    a, b = twice(db, Clinic, lambda k: qs.create_clinic(db, supervisor, inp, client_key=k))
    assert a.id == b.id
    fees = {s: SpeciesFees("40.00", "15.00", "75.00") for s in ("dog", "cat", "other")}
    sched = FeeScheduleInput("2026-41", date(2026, 12, 1), fees)
    k = key()
    first = enter_fee_schedule(db, supervisor, sched, client_key=k)
    entries = count(db, FeeScheduleEntry)
    again = enter_fee_schedule(db, supervisor, sched, client_key=k)  # not "already takes effect"
    assert count(db, FeeScheduleEntry) == entries == 3
    assert (again.resolution, again.effective_on) == (first.resolution, first.effective_on)


def test_one_key_for_another_kind_of_record_or_another_person_is_refused(
    db, operator, supervisor, today
):
    k = key()
    made = create_person(db, operator, ANA, client_key=k)
    people, keys, events = count(db, Person), count(db, SaveKey), count(db, AuditEvent)
    with pytest.raises(ValidationError) as other_kind:
        create_animal(
            db, operator, AnimalInput(species="dog", name="Rex"), today=today, client_key=k
        )
    assert other_kind.value.field == "client_key"
    with pytest.raises(ValidationError) as other_person:
        create_person(db, supervisor, ANA, client_key=k, allow_duplicate=True)
    assert other_person.value.field == "client_key"
    assert (count(db, Person), count(db, SaveKey), count(db, AuditEvent)) == (people, keys, events)
    assert count(db, Animal) == 0 and made.id > 0


@pytest.mark.parametrize("bad", ["", "   ", "x" * 65])
def test_a_malformed_key_is_a_field_error_and_nothing_is_written(db, operator, bad):
    with pytest.raises(ValidationError) as exc:
        create_person(db, operator, ANA, client_key=bad)
    assert exc.value.field == "client_key"
    assert count(db, Person) == 0


def test_a_failed_save_leaves_its_key_free_for_the_corrected_retry(db, operator):
    """A refused save writes nothing, its key included: the corrected retry saves."""
    k = key()
    with pytest.raises(ValidationError):
        create_person(db, operator, PersonInput(full_name=""), client_key=k)
    assert count(db, SaveKey) == 0
    assert create_person(db, operator, ANA, client_key=k).id > 0
    assert count(db, Person) == 1


def test_two_attempts_of_one_save_committing_at_once_are_refused_plainly(db, operator):
    """On PostgreSQL two attempts with one key can both reach the key's insert; the
    second must be a sentence and save nothing, not a raw IntegrityError."""
    from fieldops.errors import UserError
    from fieldops.services.context import remember_save

    k = key()
    made = create_person(db, operator, ANA, client_key=k)
    people = count(db, Person)
    with pytest.raises(UserError, match="another attempt"), db.write() as s:
        s.add(Person(full_name="Ana Ruiz", sort_name="ruiz ana", address="12 Elm St"))
        s.flush()
        remember_save(s, k, "person", made.id + 1, operator)
    assert count(db, Person) == people and count(db, SaveKey) == 1
