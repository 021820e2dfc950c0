"""The lists read their dates and instants as stored and convert them when a row is built
(issue 14: SQLAlchemy's conversion of every row of a page was a third of its time). A row
must show the very values the record holds: aware instants in UTC, dates as dates, a
missing one as None, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import insert, select
from support import local
from vicious_cases import declared, owner_and_dog

from fieldops.db.models import FieldCall, Impoundment, Quarantine, ViciousCase
from fieldops.rules import boarding_days
from fieldops.services import quarantine as qs
from fieldops.services.calls.listing import CallFilter, calls_page
from fieldops.services.dispositions import record_escape
from fieldops.services.impound_list import ImpoundFilter, impounds_page
from fieldops.services.vicious.listing import CaseFilter, cases_page
from fieldops.services.vicious.notices import NoticeInput, serve_notice


def _stored(db, model, *columns):
    """Each record's columns as the ORM reads them, by id."""
    with db.read() as s:
        return {r[0]: tuple(r[1:]) for r in s.execute(select(model.id, *columns))}


def _utc(moment: datetime | None) -> bool:
    return moment is None or (moment.tzinfo is not None and moment.utcoffset() == timedelta(0))


def test_an_impounds_row_shows_its_records_instants_and_days(db, operator, rex, impound, profile):
    from fieldops.services.animals import AnimalInput, create_animal

    tom = create_animal(
        db, operator, AnimalInput(species="cat", name="Tom"), today=date(2026, 11, 1)
    )
    held = impound(rex.id, local(2026, 11, 20, 9))
    gone = impound(tom.id, local(2026, 11, 2, 9))
    record_escape(db, operator, gone.id, profile, at=local(2026, 11, 3, 8), notes="gate")
    at = local(2026, 11, 24, 12)
    rows = {
        r.id: r for r in impounds_page(db, ImpoundFilter(status="all"), 0, 10, at, profile).rows
    }
    stored = _stored(db, Impoundment, Impoundment.impounded_at, Impoundment.last_claim_day)
    assert set(rows) == {held.id, gone.id}
    for i, row in rows.items():
        assert (row.impounded_at, row.last_claim_day) == stored[i]
        assert _utc(row.impounded_at) and type(row.last_claim_day) is date
    # The rules' boarding days, from the converted instants: to the escape, and to now.
    escaped = boarding_days(local(2026, 11, 2, 9), local(2026, 11, 3, 8), profile)
    assert rows[gone.id].days_held == escaped and rows[gone.id].status_code == "escaped"
    kept = boarding_days(local(2026, 11, 20, 9), at, profile)
    assert rows[held.id].days_held == kept and rows[held.id].status_code == "on_hold"


def test_a_vicious_row_shows_its_cases_instants_and_days(db, officer, profile, today):
    operator = officer  # vicious cases are an officer's work
    _, rex = owner_and_dog(db, operator, today)
    _, bo = owner_and_dog(db, operator, today, "Cy Dunn", "Bo")
    served = declared(db, operator, profile, rex.id)
    plain = declared(db, operator, profile, bo.id)
    serve_notice(
        db,
        operator,
        served.id,
        NoticeInput("in_person", local(2026, 11, 20, 9), "Off. L", "12 Elm St"),
        profile,
    )
    at = local(2026, 11, 27, 15)
    rows = {r.id: r for r in cases_page(db, CaseFilter(status="all"), 0, 50, at).rows}
    stored = _stored(
        db,
        ViciousCase,
        ViciousCase.opened_at,
        ViciousCase.notice_deadline,
        ViciousCase.next_step_due,
    )
    assert set(rows) == {served.id, plain.id}
    for i, row in rows.items():
        assert (row.opened_at, row.notice_deadline, row.next_step_due) == stored[i]
        assert _utc(row.opened_at) and _utc(row.notice_deadline)
    assert rows[served.id].notice_deadline is not None and rows[served.id].overdue
    assert rows[plain.id].notice_deadline is None and not rows[plain.id].overdue


def test_a_calls_row_shows_its_calls_instant_and_follow_up_day(db):
    at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    common = {
        "received_how": "phone",
        "kind": "noise",
        "priority": 2,
        "status": "closed",
        "officer": "",
        "recorded_by": "olly",
        "created_at": at,
        "updated_at": at,
        "version": 1,
    }
    with db.write() as s:
        s.execute(
            insert(FieldCall.__table__),
            [
                {
                    **common,
                    "id": 1,
                    "received_at": at - timedelta(hours=3, microseconds=250),
                    "address": "1 Oak Ave",
                    "address_key": "1 oak ave",
                    "search_text": "1 oak ave",
                    "follow_up_on": date(2026, 12, 4),
                },
                {
                    **common,
                    "id": 2,
                    "received_at": at - timedelta(days=2),
                    "address": "2 Oak Ave",
                    "address_key": "2 oak ave",
                    "search_text": "2 oak ave",
                    "follow_up_on": None,
                },
            ],
        )
    rows = {r.id: r for r in calls_page(db, CallFilter(show="all"), 0, 10, at).rows}
    stored = _stored(db, FieldCall, FieldCall.received_at, FieldCall.follow_up_on)
    for i, row in rows.items():
        assert (row.received_at, row.follow_up_on) == stored[i]
        assert _utc(row.received_at)
    assert rows[1].received_at == at - timedelta(hours=3, microseconds=250)
    assert rows[1].follow_up_on == date(2026, 12, 4) and rows[2].follow_up_on is None


def test_a_quarantines_row_shows_its_orders_days(db, officer, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    made = [
        qs.report_bite(
            db, officer, bite_input(days_ago(n), animal_id=rex.id, clinic_id=clinic.id), PROFILE
        )
        for n in (3, 20)
    ]
    today = local_today()
    page = qs.quarantine_page(db, qs.QuarantineFilter(show="all"), today, PROFILE, 0, 100)
    rows = {r.id: r for r in page.rows}
    stored = _stored(db, Quarantine, Quarantine.certificate_due)
    old = qs.quarantine_rows(db, tuple(rows), today)  # columns converted by SQLAlchemy
    assert set(rows) == {r.quarantine_id for r in made}
    for i, row in rows.items():
        assert (row.certificate_due,) == stored[i] and type(row.certificate_due) is date
        assert (row.next_exam, row.next_exam_overdue, row.certificate_overdue) == (
            old[i].next_exam,
            old[i].next_exam_overdue,
            old[i].certificate_overdue,
        )
