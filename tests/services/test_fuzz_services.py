"""Hypothesis fuzzes the services' inputs (issue 13): only a ValidationError (or success)
comes out, and what is accepted reads back from the database unchanged, on SQLite and on
PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import itertools
from datetime import UTC, date, timedelta

import pytest
from fuzz_strategies import (
    FUZZ,
    good_amount,
    good_text,
    hostile_day,
    hostile_id,
    hostile_instant,
    hostile_money,
    hostile_text,
    only_validation_errors,
    past,
    records,
)
from hypothesis import given
from hypothesis import strategies as st
from quarantine_support import PROFILE
from sqlalchemy import select

from fieldops.db.models import (
    Animal,
    BiteReport,
    Disposition,
    FeeScheduleEntry,
    Impoundment,
    Payment,
    Person,
    StaffUser,
)
from fieldops.errors import Collector, ValidationError
from fieldops.services import validate as v
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import now
from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.people import PersonInput, create_person, people_page
from fieldops.services.signin import SignInError, sign_in
from fieldops.services.staff import set_staff


def _utc(at):
    """The instant, to compare exactly: Python never finds two zones' readings of a time in a
    daylight-saving fold equal (PEP 495), though they are the same instant."""
    return None if at is None else at.astimezone(UTC)


def _row(db, model, row_id):
    with db.read() as s:
        return s.get(model, row_id)


PERSON_TEXT = ("full_name", "address", "city", "phone", "email", "notes")


@FUZZ
@given(
    fields=records(
        {
            "full_name": good_text,
            "address": good_text,
            "city": good_text,
            "phone": st.sampled_from(["", "608-555-0142"]),
            "email": st.sampled_from(["", "ana@example.org"]),
            "notes": st.one_of(good_text, st.just("line one\n\tline two 🐕")),
            "clinic_id": st.none(),
        },
        {
            **dict.fromkeys(PERSON_TEXT, hostile_text),
            "email": st.one_of(hostile_text, st.just(("a" * 188) + "@example.org")),
            "clinic_id": hostile_id,
        },
    )
)
def test_a_person_is_refused_or_read_back_unchanged(db, operator, fields):
    inp = PersonInput(**fields)
    view = only_validation_errors(lambda: create_person(db, operator, inp, allow_duplicate=True))
    if view is None:
        return
    row = _row(db, Person, view.id)
    for f in (*PERSON_TEXT, "clinic_id"):
        assert getattr(row, f) == getattr(view, f), f
    assert row.full_name == v.clean(fields["full_name"])
    assert row.notes == fields["notes"].strip()


@FUZZ
@given(
    fields=records(
        {
            "name": good_text,
            "breed": good_text,
            "markings": good_text,
            "licence_number": st.just(""),
            "birth_date": st.one_of(st.none(), st.dates(date(2005, 1, 1), date(2026, 1, 1))),
            "owner_id": st.none(),
        },
        {
            "name": hostile_text,
            "breed": hostile_text,
            "markings": hostile_text,
            "licence_number": hostile_text,
            "birth_date": hostile_day,
            "owner_id": hostile_id,
        },
    )
)
def test_an_animal_is_refused_or_read_back_unchanged(db, operator, today, fields):
    year = 2026 if fields["licence_number"].strip() else None
    inp = AnimalInput(species="dog", licence_year=year, **fields)
    view = only_validation_errors(lambda: create_animal(db, operator, inp, today=today))
    if view is None:
        return
    row = _row(db, Animal, view.id)
    assert (row.name, row.breed, row.markings, row.birth_date) == (
        v.clean(fields["name"]),
        v.clean(fields["breed"]),
        fields["markings"].strip(),
        fields["birth_date"],
    )


@FUZZ
@given(
    fields=records(
        {
            "impounded_at": past,
            "found_at": st.none(),
            "officer": good_text,
            "notes": good_text,
            "reason_detail": good_text,
            "kennel": st.sampled_from(["", "K-7", "🐕 3"]),
        },
        {
            "impounded_at": hostile_instant,
            "found_at": hostile_instant,
            "officer": hostile_text,
            "notes": hostile_text,
            "reason_detail": hostile_text,
            "kennel": hostile_text,
        },
    )
)
def test_an_intake_is_refused_or_read_back_unchanged(db, operator, profile, another_rex, fields):
    inp = IntakeInput(animal_id=another_rex().id, reason="other", found_place="Elm & 3rd", **fields)
    view = only_validation_errors(lambda: intake(db, operator, inp, profile))
    if view is None:
        return
    row = _row(db, Impoundment, view.id)
    assert (_utc(row.impounded_at), _utc(row.found_at)) == (
        _utc(fields["impounded_at"]),
        _utc(fields["found_at"]),
    )
    assert (row.officer, row.notes, row.reason_detail, row.kennel) == (
        v.clean(fields["officer"]),
        fields["notes"].strip(),
        v.clean(fields["reason_detail"]),
        v.clean(fields["kennel"]),
    )


@pytest.fixture
def held(db, operator, impound, rex):
    return impound(rex.id, now() - timedelta(days=1))


def _payments(db):
    with db.read() as s:
        return sorted(
            (line.id, line.amount, line.description, p.receipt_number)
            for p in s.scalars(select(Payment))
            for line in p.lines
        )


@FUZZ
@given(
    fields=records(
        {
            "amount": good_amount,
            "description": good_text,
            "receipt": st.sampled_from(["R-1", "№ 42"]),
            "paid_at": st.none(),
        },
        {
            "amount": hostile_money,
            "description": hostile_text,
            "receipt": hostile_text,
            "paid_at": hostile_instant,
        },
    )
)
def test_a_payment_is_refused_or_read_back_unchanged(db, operator, profile, held, fields):
    line = LineInput("other", fields["amount"], fields["description"])
    inp = PaymentInput((line,), "cash", fields["receipt"], paid_at=fields["paid_at"])
    before = _payments(db)
    paid = only_validation_errors(lambda: record_payment(db, operator, held.id, inp, profile))
    after = _payments(db)
    if paid is None:
        assert after == before
        return
    (new,) = set(after) - set(before)
    assert new[1:] == (
        v.money(Collector(), "a", fields["amount"]),
        v.clean(fields["description"]),
        v.clean(fields["receipt"]),
    )


@FUZZ
@given(
    fields=records(
        {
            "impound": good_amount,
            "boarding": good_amount,
            "resolution": good_text,
            "on": st.dates(date(2000, 1, 1), date(2030, 1, 1)),
        },
        {
            "impound": hostile_money,
            "boarding": hostile_money,
            "resolution": hostile_text,
            "on": hostile_day,
        },
    )
)
def test_a_fee_schedule_is_refused_or_read_back_unchanged(db, supervisor, fields):
    impound, boarding = fields["impound"], fields["boarding"]
    fees = {sp: SpeciesFees(impound, boarding, "25.00") for sp in ("dog", "cat", "other")}
    inp = FeeScheduleInput(fields["resolution"], fields["on"], fees)
    view = only_validation_errors(lambda: enter_fee_schedule(db, supervisor, inp))
    if view is None:
        return
    with db.read() as s:
        rows = s.scalars(
            select(FeeScheduleEntry).where(FeeScheduleEntry.effective_on == fields["on"])
        ).all()
    assert {(r.resolution, r.impound, r.boarding_per_day) for r in rows} == {
        (
            v.clean(fields["resolution"]),
            v.money(Collector(), "a", impound),
            v.money(Collector(), "b", boarding),
        )
    }


@FUZZ
@given(
    fields=records(
        {"username": good_text, "full_name": good_text, "password": good_text},
        dict.fromkeys(("username", "full_name", "password"), hostile_text),
    )
)
def test_staff_and_sign_in_refuse_in_words_or_read_back(db, admin, fields):
    username = fields["username"]
    view = only_validation_errors(
        lambda: set_staff(db, admin, username, "operator", full_name=fields["full_name"])
    )
    if view is not None:
        with db.read() as s:
            row = s.scalars(select(StaffUser).where(StaffUser.username == view.username)).one()
        assert (row.username, row.full_name) == (v.clean(username), view.full_name)
    with pytest.raises((SignInError, ValidationError)):
        sign_in(db, username, fields["password"])


@FUZZ
@given(text=hostile_text)
def test_a_search_of_anything_lists_or_finds_nothing_but_never_fails(db, operator, text):
    create_person(db, operator, PersonInput(full_name="Zoë שלום 🐕"), allow_duplicate=True)
    page = people_page(db, text, 0, 10)
    assert len(page.rows) <= 10


@FUZZ
@given(
    fields=records(
        {
            "bitten_at": past,
            "victim_name": good_text,
            "notes": good_text,
            "rabies_certificate": st.just(""),
            "rabies_vaccinated_on": st.none(),
        },
        {
            "bitten_at": hostile_instant,
            "victim_name": hostile_text,
            "notes": hostile_text,
            "rabies_certificate": hostile_text,
            "rabies_vaccinated_on": hostile_day,
        },
    )
)
def test_a_bite_report_is_refused_or_read_back_unchanged(db, officer, fields):
    from fieldops.services import quarantine as qs

    inp = qs.BiteInput(
        place="Tenney Park",
        reported_by="the person bitten",
        reported_at=fields["bitten_at"],
        officer="Off. Lee",
        species="other",
        animal_description="a raccoon",
        owner_unknown=True,
        rabies_expires_on=fields["rabies_vaccinated_on"],
        **fields,
    )
    done = only_validation_errors(lambda: qs.report_bite(db, officer, inp, PROFILE))
    if done is None:
        return
    row = _row(db, BiteReport, done.bite_report_id)
    assert (_utc(row.bitten_at), row.victim_name, row.notes, row.rabies_certificate) == (
        _utc(fields["bitten_at"]),
        v.clean(fields["victim_name"]),
        fields["notes"].strip(),
        v.clean(fields["rabies_certificate"]),
    )


@FUZZ
@given(
    fields=records(
        {"at": st.none(), "transfer_to": good_text, "notes": good_text},
        {"at": hostile_instant, "transfer_to": hostile_text, "notes": hostile_text},
    )
)
def test_a_transfer_is_refused_or_read_back_unchanged(db, supervisor, profile, another_rex, fields):
    from fieldops.services.dispositions import transfer

    imp = intake(
        db,
        supervisor,
        IntakeInput(
            impounded_at=now() - timedelta(days=30),
            animal_id=another_rex().id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm",
        ),
        profile,
    )
    view = only_validation_errors(
        lambda: transfer(
            db,
            supervisor,
            imp.id,
            fields["transfer_to"],
            profile,
            at=fields["at"],
            notes=fields["notes"],
        )
    )
    if view is None:
        return
    with db.read() as s:
        row = s.scalars(select(Disposition).where(Disposition.impoundment_id == imp.id)).one()
    assert (row.transfer_to, row.notes) == (v.clean(fields["transfer_to"]), fields["notes"].strip())


_OWNERS = itertools.count()  # one owner per example: the same name and address is a duplicate


@FUZZ
@given(
    fields=records(
        {"officer": good_text, "notes": good_text, "decided_at": st.none(), "place": good_text},
        {
            "officer": hostile_text,
            "notes": hostile_text,
            "decided_at": hostile_instant,
            "place": hostile_text,
        },
    )
)
def test_a_vicious_declaration_is_refused_or_read_back_unchanged(
    db, officer, profile, today, fields
):
    from dataclasses import replace

    from vicious_cases import declaration, owner_and_dog

    from fieldops.db.models import ViciousDeclaration, ViciousIncident
    from fieldops.services.vicious.declaring import declare

    n = next(_OWNERS)
    _owner, dog = owner_and_dog(db, officer, today, owner_name=f"Ana Ruiz{'i' * n}")
    base = declaration(dog.id, decided_at=now() - timedelta(hours=1))
    incident = replace(base.incidents[0], place=fields["place"])
    inp = replace(
        base,
        officer=fields["officer"],
        notes=fields["notes"],
        decided_at=fields["decided_at"] or base.decided_at,
        incidents=(incident,),
    )
    view = only_validation_errors(lambda: declare(db, officer, inp, profile))
    if view is None:
        return
    with db.read() as s:
        d = s.scalars(select(ViciousDeclaration).where(ViciousDeclaration.case_id == view.id)).one()
        places = s.scalars(select(ViciousIncident.place).where(ViciousIncident.case_id == view.id))
        assert (d.officer, d.notes, _utc(d.decided_at)) == (
            v.clean(fields["officer"]),
            fields["notes"].strip(),
            _utc(inp.decided_at),
        )
        assert list(places) == [v.clean(fields["place"])]
