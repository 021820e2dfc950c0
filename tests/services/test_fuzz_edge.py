"""Hypothesis fuzzes every validator and service input (issue 13): only a ValidationError
(or success) comes out, and what is accepted reads back from the database unchanged, on
SQLite and on PostgreSQL (the ``db`` fixture).

Text mixes NUL, every other control character, lone surrogates, emoji (astral and
joined), right-to-left text and marks, combining marks, and 10,000-character runs;
money mixes huge, tiny, negative, NaN, infinite, float and text amounts; instants
mix naive, aware in several zones, and the ends of Python's calendar.
"""

from __future__ import annotations

import itertools
import os
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from quarantine_support import PROFILE
from sqlalchemy import select

from fieldops.db.flush_net import BIGINT_MAX, bad_character
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
from fieldops.db.types import to_cents
from fieldops.errors import Collector, ValidationError
from fieldops.rules import Profile, to_local
from fieldops.services import validate as v
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import now
from fieldops.services.dispositions import record_escape
from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.people import PersonInput, create_person, people_page
from fieldops.services.signin import SignInError, sign_in
from fieldops.services.staff import set_staff

# Each service test's examples write to a database (the fixture's, shared by them): a
# modest count keeps the file under a minute on both back ends. Validators are cheap.
FUZZ = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
FUZZ_PURE = settings(max_examples=100, deadline=None, database=None)

PIECES = [
    "",
    " ",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\n",
    "\t",
    "\r\n",
    "\ud800",
    "\udfff",
    "🐕",
    "👩‍⚕️",
    "🇺🇸",
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew
    "\u0645\u0631\u062d\u0628\u0627",  # Arabic
    "\u202e",  # right-to-left override
    "\u200f",  # right-to-left mark
    "e\u0301",  # e + combining acute
    "\ufeff",
    "O'Brien & <Sons>",
    "Zoë",
    "x" * 10_000,
    "y" * 199,
    "z" * 201,
    "=1+1",
]

# Any code point, surrogates and control characters included.
ANY_CHAR = st.characters(codec=None, categories=None)

hostile_text = st.one_of(
    st.text(ANY_CHAR, max_size=40),
    st.sampled_from(PIECES),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(ANY_CHAR, max_size=8)), max_size=4).map(
        "".join
    ),
)

# What a person could type that must be kept exactly: printable, any script, emoji.
printable_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=60
)

ZONES = [UTC, ZoneInfo("America/Chicago"), ZoneInfo("Asia/Kolkata"), timezone(timedelta(hours=14))]

hostile_instant = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),  # naive
    st.datetimes(
        min_value=datetime(1, 1, 2),
        max_value=datetime(9999, 12, 30),
        timezones=st.sampled_from(ZONES),
    ),
    st.datetimes(
        min_value=datetime(2020, 1, 1),
        max_value=datetime(2026, 11, 1),
        timezones=st.sampled_from(ZONES),
    ),
    st.sampled_from(
        [
            datetime(1, 1, 1, tzinfo=UTC),
            datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
            datetime(1899, 12, 31, 23, 59, tzinfo=UTC),
            datetime(2200, 1, 1, tzinfo=UTC),
        ]
    ),
    st.just("2026-11-20 10:00"),
    st.just(date(2026, 11, 20)),
)

hostile_day = st.one_of(
    st.none(),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)),
    st.dates(min_value=date(2000, 1, 1), max_value=date(2026, 11, 1)),
    st.datetimes(timezones=st.just(UTC)),
    st.sampled_from(["2020-01-01", "", "yesterday", 20200101]),
)

hostile_money = st.one_of(
    st.decimals(allow_nan=True, allow_infinity=True),
    st.decimals(min_value=0, max_value=Decimal("1000000.00"), places=2),
    st.decimals(min_value=0, max_value=Decimal("1000"), places=3),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
    st.sampled_from(
        [
            "1e30",
            "99999999999999999999.99",
            "92000000000000000.00",
            "1e-30",
            "$40.00",
            "1,000,000.00",
            "1,000,000.01",
            "-0.00",
            "0",
            "40",
            " 12.50 ",
            "NaN",
            "sNaN",
            "Infinity",
            "-Infinity",
        ]
    ),
)

hostile_id = st.one_of(
    st.none(),
    st.integers(min_value=-5, max_value=5),
    st.integers(min_value=2**31 - 2, max_value=2**70),
    st.just(True),
)


def _only_validation_errors(call):
    """Run ``call``: its result, or None after a ValidationError (anything else fails)."""
    try:
        result = call()
    except ValidationError as exc:
        refused = exc
    else:
        event("accepted")
        return result
    event("refused")
    assert refused.errors and all(e.field and e.message for e in refused.errors)
    return None


# ------------------------------------------------------------------ validators

LIMITS = st.sampled_from([Person.__table__.c.full_name, Person.__table__.c.state, 1, 4000])


@FUZZ_PURE
@given(value=st.one_of(hostile_text, st.integers(), st.none()), limit=LIMITS)
def test_text_accepts_only_what_every_column_and_pdf_keeps(value, limit):
    c = Collector()
    ok = v.text(c, "f", value, "Field", limit)
    most, multiline = (limit, True) if isinstance(limit, int) else (limit.type.length, False)
    if not ok:
        with pytest.raises(ValidationError) as info:
            c.raise_if_any()
        assert info.value.field == "f"
        return
    c.raise_if_any()
    assert ok and isinstance(value, str) and len(value) <= most
    assert bad_character(value, multiline=multiline) is None
    value.encode("utf-8")  # no lone surrogate
    assert "\x00" not in value
    if not multiline:
        assert not any(ch in value for ch in "\n\r\t")


@FUZZ_PURE
@given(value=hostile_money)
def test_money_is_finite_in_range_to_the_cent_or_refused(value):
    c = Collector()
    amount = v.money(c, "amount", value)
    if amount is None:
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    c.raise_if_any()
    assert isinstance(amount, Decimal) and amount.is_finite()
    assert Decimal(0) <= amount <= v.MONEY_CAP
    assert amount == amount.quantize(Decimal("0.01"))
    assert to_cents(amount) <= BIGINT_MAX
    assert not isinstance(value, float)


@FUZZ_PURE
@given(value=hostile_instant)
def test_an_accepted_instant_is_aware_in_range_and_the_rules_can_use_it(value):
    c = Collector()
    if not v.instant(c, "at", value, "When"):
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    c.raise_if_any()
    if value is not None:
        assert isinstance(value, datetime) and value.utcoffset() is not None
        to_local(value, Profile.default())  # no overflow at either end
        back = value.astimezone(UTC).astimezone(value.tzinfo)  # as read back from the database
        assert back.replace(tzinfo=None, fold=0) == value.replace(tzinfo=None, fold=0)


@FUZZ_PURE
@given(value=hostile_day)
def test_an_accepted_day_is_a_date_in_range(value):
    c = Collector()
    if not v.day(c, "on", value, "The day"):
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    assert value is None or (type(value) is date and 1900 <= value.year < 2200)
    if value is not None:
        value + timedelta(days=400)  # the rules' periods do not overflow


@FUZZ_PURE
@given(name=st.one_of(hostile_text, printable_text.map(lambda t: f"/tmp/{t}.pdf")))
def test_a_report_file_name_accepted_can_be_made_by_the_os(name):
    if not _accepted(name):
        return
    os.fsencode(name)  # no NUL, no surrogate: the OS takes it
    assert "\x00" not in name and "\n" not in name


def _accepted(name: str) -> bool:
    from fieldops.services.reports_run import check_file_name

    try:
        check_file_name(name)
    except ValidationError:
        return False
    return True


# -------------------------------------------------------------------- services

good_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
    min_size=1,
    max_size=30,
)
past = st.datetimes(
    min_value=datetime(2020, 1, 1),
    max_value=datetime(2026, 10, 1),
    timezones=st.sampled_from(ZONES),
)
good_amount = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5000"), places=2).map(str)


def records(good: dict[str, st.SearchStrategy], bad: dict[str, st.SearchStrategy]):
    """A form's fields: each good, except up to two (often none) drawn from ``bad``."""

    @st.composite
    def build(draw):
        hostile = draw(st.sets(st.sampled_from(sorted(bad)), max_size=2))
        event("all fields good" if not hostile else "hostile: " + ", ".join(sorted(hostile)))
        return {k: draw(bad[k] if k in hostile else good[k]) for k in good}

    return build()


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
    view = _only_validation_errors(lambda: create_person(db, operator, inp, allow_duplicate=True))
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
    view = _only_validation_errors(lambda: create_animal(db, operator, inp, today=today))
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
def test_an_intake_is_refused_or_read_back_unchanged(db, operator, profile, rex, fields):
    inp = IntakeInput(animal_id=rex.id, reason="other", found_place="Elm & 3rd", **fields)
    view = _only_validation_errors(lambda: intake(db, operator, inp, profile))
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
    # Free the animal for the next example's intake.
    record_escape(db, operator, view.id, profile, at=now() - timedelta(minutes=1), notes="gate")


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
    paid = _only_validation_errors(lambda: record_payment(db, operator, held.id, inp, profile))
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
    view = _only_validation_errors(lambda: enter_fee_schedule(db, supervisor, inp))
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
    view = _only_validation_errors(
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
    done = _only_validation_errors(lambda: qs.report_bite(db, officer, inp, PROFILE))
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
def test_a_transfer_is_refused_or_read_back_unchanged(db, supervisor, profile, rex, fields):
    from fieldops.services.dispositions import transfer

    imp = intake(
        db,
        supervisor,
        IntakeInput(
            impounded_at=now() - timedelta(days=30),
            animal_id=rex.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm",
        ),
        profile,
    )
    view = _only_validation_errors(
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
        record_escape(db, supervisor, imp.id, profile, notes="gate")  # free the animal
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
    view = _only_validation_errors(lambda: declare(db, officer, inp, profile))
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
