"""Issue 13, "Found", through the other services: dispositions, corrections, staff and
sign-in, quarantines, vicious-animal cases, kennel moves and report files. Each bad value
is a ValidationError naming its field (never a ValueError, TypeError, OverflowError or a
PostgreSQL error), and nothing is written."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, days_ago
from sqlalchemy import select
from support import count_rows, local, refused
from vicious_cases import declaration, owner_and_dog

from fieldops.db.models import (
    AuditEvent,
    Disposition,
    Impoundment,
    Person,
    QuarantineExam,
    StaffUser,
    ViciousCase,
    ViciousNotice,
)
from fieldops.services import quarantine as qs
from fieldops.services.context import now
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import ReleaseRequest, record_escape, release, transfer
from fieldops.services.intake_corrections import correct_intake, move_kennel
from fieldops.services.people import PersonInput, archive_person, create_person
from fieldops.services.signin import SignInError, create_first_admin, sign_in
from fieldops.services.staff import set_staff
from fieldops.services.vicious.declaring import declare
from fieldops.services.vicious.notices import NoticeInput, serve_notice

AT = local(2026, 11, 20)
NAIVE = datetime(2026, 11, 21, 10, 0)
YEAR_ONE = datetime(1, 1, 1, tzinfo=UTC)


@pytest.fixture
def held(impound, rex):
    return impound(rex.id, AT)


# --------------------------------------------------------------- dispositions


@pytest.mark.parametrize("at", [NAIVE, YEAR_ONE, "2026-11-21"])
def test_a_disposition_time_naive_or_out_of_range_is_refused(db, supervisor, profile, held, at):
    refused(lambda: record_escape(db, supervisor, held.id, profile, at=at, notes="gate"), "at")
    assert count_rows(db, Disposition) == 0


@pytest.mark.parametrize(
    ("field", "kw"),
    [
        ("transfer_to", {"transfer_to": "Dane County\x00 Humane"}),
        ("transfer_to", {"transfer_to": "x" * 301}),
        ("notes", {"transfer_to": "Dane County Humane", "notes": "ok\ud800"}),
    ],
)
def test_a_transfer_with_text_no_column_holds_is_refused(db, supervisor, profile, held, field, kw):
    kw = dict(kw)
    to = kw.pop("transfer_to")
    refused(lambda: transfer(db, supervisor, held.id, to, profile, **kw), field)
    assert count_rows(db, Disposition) == 0


@pytest.mark.parametrize(
    ("field", "req"),
    [
        ("recipient_id", ReleaseRequest(True, 987654)),
        ("recipient_id", ReleaseRequest(True, 2**40)),
        ("rabies_certificate", ReleaseRequest(True, None, rabies_certificate="RV\x0077")),
        ("notes", ReleaseRequest(True, None, notes="n\x00")),
    ],
)
def test_a_release_to_nobody_on_file_or_with_bad_text_is_refused(
    db, supervisor, profile, held, field, req
):
    refused(lambda: release(db, supervisor, held.id, req, profile), field)
    assert count_rows(db, Disposition) == 0


def test_a_correction_with_a_naive_time_or_a_nul_reason_is_refused(db, supervisor, profile, held):
    record_escape(db, supervisor, held.id, profile, at=local(2026, 11, 21), notes="gate")
    for kw, field in (
        ({"at": NAIVE, "reason": "typo"}, "at"),
        ({"at": local(2026, 11, 21, 11), "reason": "typo\x00"}, "reason"),
    ):
        refused(
            lambda kw=kw: correct_disposition(
                db, supervisor, held.id, kind="escaped", profile=profile, **kw
            ),
            field,
        )
    assert count_rows(db, Disposition) == 1


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("impounded_at", {"impounded_at": NAIVE}),
        ("found_at", {"found_at": YEAR_ONE}),
        ("officer", {"officer": "Off.\x00 Lee"}),
    ],
)
def test_an_intake_correction_with_bad_values_is_refused(
    db, supervisor, profile, held, field, change
):
    from dataclasses import replace

    from fieldops.services.intake_corrections import IntakeDetails

    details = IntakeDetails.of(held)
    refused(
        lambda: correct_intake(
            db, supervisor, held.id, details, replace(details, **change), "typo", profile
        ),
        field,
    )


def test_a_kennel_move_is_refused_not_cut_short_or_stored_with_a_nul(db, operator, held):
    for kennel in ("K" * 51, "K-\x007"):
        refused(
            lambda kennel=kennel: move_kennel(
                db, operator, held.id, kennel, expected_version=held.version
            ),
            "kennel",
        )
    with db.read() as s:
        assert s.get(Impoundment, held.id).kennel == ""


# -------------------------------------------------------- accounts and audit


def test_a_staff_login_with_a_nul_or_too_long_is_refused(db, admin):
    for username, field in (("ed\x00", "username"), ("e" * 101, "username")):
        refused(lambda u=username: set_staff(db, admin, u, "operator"), field)
    refused(lambda: set_staff(db, admin, "ed", "operator", full_name="Ed\ud800"), "full_name")
    assert count_rows(db, StaffUser) == 1  # the admin only


def test_signing_in_with_a_nul_or_a_surrogate_is_a_wrong_login_not_a_crash(db, admin):
    for username, password in (("ad\x00a", "whatever12"), ("ada", "pass\udc00word12")):
        with pytest.raises(SignInError) as info:
            sign_in(db, username, password)
        assert info.value.code == "wrong" or info.value.code == "no_password"


def test_a_first_administrator_with_a_nul_password_or_long_name_is_refused(db):
    refused(lambda: create_first_admin(db, "ada", "Ada", "secret\x00secret"), "password")
    refused(lambda: create_first_admin(db, "ada", "A" * 201, "secretsecret"), "full_name")


def test_an_archive_reason_with_a_nul_is_refused_and_nothing_is_audited(db, operator, owner):
    events = count_rows(db, AuditEvent)
    refused(lambda: archive_person(db, operator, owner.id, "moved\x00away"), "reason")
    assert count_rows(db, AuditEvent) == events


# ---------------------------------------------------------------- quarantine


@pytest.fixture
def pound(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("City Pound", is_pound=True))


@pytest.mark.parametrize(
    ("field", "kw"),
    [
        ("bitten_at", {"bitten_at": datetime(2026, 11, 20, 9, 0)}),
        ("reported_at", {"reported_at": YEAR_ONE}),
        ("victim_name", {"victim_name": "Jack\x00"}),
        ("rabies_vaccinated_on", {"rabies_vaccinated_on": "2026-01-01"}),
        ("clinic_id", {"clinic_id": 2**40}),
        ("owner_id", {"owner_id": 2**40}),
    ],
)
def test_a_bite_report_with_bad_values_is_refused(db, supervisor, rex, pound, field, kw):
    data = {"animal_id": rex.id, "clinic_id": pound.id, **kw}  # a copy: kw is shared
    bitten = data.pop("bitten_at", days_ago(3))
    refused(lambda: qs.report_bite(db, supervisor, bite_input(bitten, **data), PROFILE), field)


@pytest.mark.parametrize(
    "fee", [Decimal("1e30"), Decimal("NaN"), Decimal("99999999999999999999.99")]
)
def test_an_exam_fee_out_of_range_is_refused(db, supervisor, rex, pound, fee):
    r = qs.report_bite(
        db, supervisor, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qs.record_delivery(db, supervisor, r.quarantine_id, days_ago(3, 12), PROFILE)
    inp = qs.ExamInput(days_ago(2).date(), "Dr. Kim", "no_signs", fee, pound.id)
    refused(lambda: qs.record_exam(db, supervisor, r.quarantine_id, inp, PROFILE), "fee")
    assert count_rows(db, QuarantineExam) == 0


def test_a_fee_correction_of_1e30_is_refused(db, supervisor, rex, pound):
    r = qs.report_bite(
        db, supervisor, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qs.record_delivery(db, supervisor, r.quarantine_id, days_ago(3, 12), PROFILE)
    inp = qs.ExamInput(days_ago(2).date(), "Dr. Kim", "no_signs", Decimal("45.00"), pound.id)
    qs.record_exam(db, supervisor, r.quarantine_id, inp, PROFILE)
    with db.read() as s:
        exam_id = s.scalars(select(QuarantineExam.id)).one()
    refused(
        lambda: qs.correct_record(
            db, supervisor, r.bite_report_id, "exam", exam_id, "fee", "1e30", "typo", PROFILE
        ),
        "new_value",
    )


# -------------------------------------------------------------------- vicious


def test_a_declaration_or_notice_with_a_naive_time_is_refused(db, officer, profile, today):
    _owner, dog = owner_and_dog(db, officer, today)
    refused(
        lambda: declare(db, officer, declaration(dog.id, decided_at=NAIVE), profile), "decided_at"
    )
    assert count_rows(db, ViciousCase) == 0
    case = declare(db, officer, declaration(dog.id), profile)
    for inp, field in (
        (NoticeInput("in_person", NAIVE, "Off. Lee", "12 Elm St"), "served_at"),
        (NoticeInput("in_person", YEAR_ONE, "Off. Lee", "12 Elm St"), "served_at"),
        (NoticeInput("in_person", local(2026, 11, 3, 9), "Off.\x00Lee", "12 Elm"), "served_by"),
        (NoticeInput("posted", local(2026, 11, 3, 9), "Off. Lee", "x" * 401), "place"),
    ):
        refused(lambda inp=inp: serve_notice(db, officer, case.id, inp, profile), field)
    assert count_rows(db, ViciousNotice) == 0


# -------------------------------------------------------------------- reports


@pytest.mark.parametrize(
    "name", ["/tmp/r\x00eport.pdf", "/tmp/re\nport.pdf", "/tmp/" + "r" * 300 + ".pdf"]
)
def test_a_report_file_name_no_file_system_keeps_is_refused(db, supervisor, tmp_path, name):
    from fieldops.services import reports_run

    produced = reports_run.produce(
        db, supervisor, "impound-register", date(2026, 11, 1), date(2026, 11, 30), PROFILE
    )
    events = count_rows(db, AuditEvent)
    refused(lambda: reports_run.export(db, supervisor, produced, name), "file")
    assert count_rows(db, AuditEvent) == events


@pytest.mark.parametrize("start", ["2026-11-01", datetime(2026, 11, 1, tzinfo=UTC), date(1, 1, 1)])
def test_a_report_period_that_is_not_dates_is_refused(db, supervisor, start):
    from fieldops.services import reports_run

    refused(
        lambda: reports_run.produce(
            db, supervisor, "impound-register", start, date(2026, 11, 30), PROFILE
        ),
        "period_start",  # the field ReportKind's contract and the Reports page name
    )


def test_a_report_period_past_2199_is_refused_on_the_period_fields(db, supervisor):
    from fieldops.errors import ValidationError
    from fieldops.services import reports_run

    with pytest.raises(ValidationError) as exc:
        reports_run.produce(
            db, supervisor, "impound-register", date(2200, 1, 1), date(2200, 1, 31), PROFILE
        )
    assert set(exc.value.by_field()) == {"period_start", "period_end"}


# ------------------------------------------------------------------ searches

SEARCHES = ["Rex\x00", "\ud800", "99999999999", "²", "#99999999999", "x" * 10_000, "1"]


def test_searching_any_list_for_anything_never_fails(db, operator, profile, held):
    from fieldops.services.impound_list import ImpoundFilter, impounds_page
    from fieldops.services.quarantine.listing import QuarantineFilter, count_quarantines
    from fieldops.services.vicious.listing import CaseFilter, cases_page

    for text in SEARCHES:
        impounds_page(db, ImpoundFilter(status="all", text=text), 0, 10, now(), profile)
        count_quarantines(db, QuarantineFilter(text=text), date(2026, 11, 30))
        cases_page(db, CaseFilter(text=text), 0, 10, now())
    found = impounds_page(db, ImpoundFilter(status="all", text=str(held.id)), 0, 10, now(), profile)
    assert [r.id for r in found.rows] == [held.id]  # a number alone is still the record number


def test_a_full_length_two_part_name_saves_its_sort_key_cut_to_the_column(db, operator):
    name = "a" * 99 + " " + "b" * 100  # 200: the column's length; "b…, a…" would be 201
    person = create_person(db, operator, PersonInput(full_name=name))
    with db.read() as s:
        row = s.get(Person, person.id)
    assert row.full_name == name and row.sort_name.startswith("b" * 100 + ", a")


def test_a_declaration_for_nobody_on_file_or_an_address_too_long_to_keep_is_refused(
    db, officer, profile, today
):
    from fieldops.services.people import update_person

    refused(lambda: declare(db, officer, declaration(987654), profile), "animal_id")
    owner, dog = owner_and_dog(db, officer, today)
    refused(
        lambda: declare(db, officer, replace(declaration(dog.id), owner_id=2**40), profile),
        "owner_id",
    )
    long = replace(owner.as_input(), address="1" * 300, city="M" * 100, postal_code="53703")
    update_person(db, officer, owner.id, long, expected_version=owner.version)
    refused(lambda: declare(db, officer, declaration(dog.id), profile), "owner_id")
    assert count_rows(db, ViciousCase) == 0
