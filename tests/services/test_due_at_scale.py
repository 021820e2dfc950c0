"""Today and the activity summary at a city's size (issue 14): the statements that read a
year of records read them from an index, and the answers are the ones the lists give,
at their edges (renewed late, renewed with a licence later voided, a tag replaced, a dog
archived, licensed the year before last only). On SQLite and PostgreSQL (``db``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from sqlalchemy import event, text, update

from fieldops.db.models import Animal
from fieldops.modules import activity_sections
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.due import today_items
from fieldops.services.licences import module as licence_module
from fieldops.services.licences.changes import replace_tag, void_licence
from fieldops.services.licences.issue import issue_licence
from fieldops.services.licences.renewals import renewals_due
from tests.services import test_licences_module as licence_tests

licensed = licence_tests.licensed  # Rex and Bo unrenewed for 2026, Max renewed
lic = licence_tests.lic


@pytest.fixture
def edges(db, licensed, operator, owner, supervisor, profile):
    """Beside Rex and Bo (unrenewed) and Max (renewed on time): a dog renewed after the
    late-fee day, one whose renewal was voided, one whose 2025 tag was replaced, one
    archived, one licensed for 2024 only; in 2026 one licensed anew (not a renewal)."""

    def dog(name: str) -> int:
        a = create_animal(
            db,
            operator,
            AnimalInput(species="dog", name=name, owner_id=owner.id),
            today=date(2024, 1, 1),
        )
        return a.id

    late, voided, replaced, gone, old, fresh = (
        dog(n) for n in ("Late", "Voided", "Replaced", "Gone", "Old", "Fresh")
    )
    issued = {}
    for n, a in enumerate((late, voided, replaced, gone)):
        issued[a] = issue_licence(db, operator, lic(a, f"25-e{n}", 2025, date(2025, 3, 1)), profile)
    two_years_back = replace(
        lic(old, "24-e", 2024, date(2024, 3, 1)), rabies_vaccinated_on=date(2024, 1, 5)
    )
    issue_licence(db, operator, two_years_back, profile)
    issue_licence(
        db,
        operator,
        lic(None, "26-late", None, date(2026, 5, 20), renews_id=issued[late].id),
        profile,
    )
    renewal = issue_licence(
        db,
        operator,
        lic(None, "26-void", None, date(2026, 1, 20), renews_id=issued[voided].id),
        profile,
    )
    void_licence(db, supervisor, renewal.id, "Issued to the wrong dog")
    replace_tag(db, operator, issued[replaced].id, "25-e2b", profile, paid_amount="0")
    issue_licence(db, operator, lic(fresh, "26-new", 2026, date(2026, 2, 1)), profile)
    with db.write() as s:
        s.execute(
            update(Animal).where(Animal.id == gone).values(archived_at=text("CURRENT_TIMESTAMP"))
        )
    return {"late": late, "voided": voided, "replaced": replaced, "gone": gone, "old": old}


DAYS = (date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 31), date(2026, 4, 1), date(2026, 12, 31))


def test_the_renewal_count_is_the_renewal_lists_length_at_its_edges(
    db, edges, profile, monkeypatch
):
    """The count, and Today's counted lines, against the renewal list itself."""
    for year in (2026, 2027):
        for day in DAYS:
            rows = renewals_due(db, year, day, profile)
            assert licence_module.unrenewed_count(db, year) == len(rows), (year, day)
    dogs = {r.animal_id for r in renewals_due(db, 2026, date(2026, 2, 1), profile)}
    assert edges["voided"] in dogs and edges["replaced"] in dogs  # still to renew
    assert not {edges["late"], edges["gone"], edges["old"]} & dogs
    monkeypatch.setattr(licence_module, "TODAY_EACH_UP_TO", 1)
    for day in DAYS:
        lines = [i for i in today_items(db, day, profile) if i.module == "licence"]
        counts = {i.category: i.count for i in lines}
        due = len(renewals_due(db, day.year, day, profile))
        assert sum(n for c, n in counts.items() if c != "licence.expiring") == due, day
        if day.month == 12:
            assert counts["licence.expiring"] == len(renewals_due(db, day.year + 1, day, profile))


def _plan(db, statement) -> str:
    with db.engine.connect() as conn:
        compiled = statement.compile(conn, compile_kwargs={"literal_binds": True})
        return "\n".join(r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}"))


def test_the_renewal_count_reads_the_unrenewed_dogs_alone(sqlite_db):
    """At 160,000 licences a year, asking each of last year's whether its dog has one this
    year was 80-100 ms at 1,000,000 impoundments (issue 14): the count is a range of the
    index of licences not renewed (the licence's copy, migration 0025), the archived dogs
    one list; no look-up a licence."""
    plan = _plan(sqlite_db, licence_module._count_statement(2026))
    assert "SEARCH dog_licence USING COVERING INDEX ix_dog_licence_unrenewed " in plan, plan
    assert "CORRELATED" not in plan and "SEARCH animal USING INTEGER PRIMARY KEY" not in plan, plan
    assert plan.count("LIST SUBQUERY") == 1, plan


def _activity_plans(db) -> list[str]:
    """Each statement of a year's activity summary with its plan (SQLite)."""
    seen: list[tuple[str, object]] = []

    def note(conn, cursor, statement, parameters, *rest):
        seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        activity_sections(db, date(2025, 1, 1), date(2025, 12, 31))
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    with db.engine.connect() as conn:
        return [
            "\n".join(r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params))
            for sql, params in seen
            if sql.lstrip().upper().startswith(("SELECT", "WITH"))
        ]


def test_a_years_activity_reads_its_periods_from_indexes_alone(sqlite_db):
    """A year and the year before of intakes, dispositions, fees and quarantine orders
    is 200,000 rows a statement at 1,000,000 impoundments: read from an index holding
    the codes counted (migration 0026), never the tables' rows, never a whole table."""
    plans = "\n".join(_activity_plans(sqlite_db))
    for table in ("impoundment", "payment", "payment_line", "quarantine", "call_dispatch"):
        assert f"SCAN {table}\n" not in plans + "\n", (table, plans)
    for index in (
        "ix_impoundment_custody_activity",
        "ix_impoundment_disposition_activity",
        "ix_payment_paid_at",
        "ix_payment_line_payment_id",
        "ix_quarantine_ordered_activity",
        "ix_field_call_received_activity",
        "ix_call_dispatch_call_arrived",
    ):
        assert f"USING COVERING INDEX {index} " in plans, (index, plans)


def test_minutes_to_arrive_take_each_calls_first_arrival(db, officer, profile):
    """Two officers sent, the second arriving first: the call's wait is to the first
    arrival; a call dispatched with no arrival yet is not among the arrivals; a year
    earlier the same. (SQLite reads each call's first arrival from the dispatches'
    index, PostgreSQL groups them: the same figures.)"""
    from datetime import datetime, time, timedelta

    from calls_support import call_input

    from fieldops.modules import year_earlier
    from fieldops.services.calls.activity import activity
    from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
    from fieldops.services.calls.records import create_call
    from fieldops.services.context import now

    tz = profile.timezone
    today = now().astimezone(tz).date()
    start = today - timedelta(days=20)

    def call(day, arrivals):
        at = datetime.combine(day, time(10), tz)
        v = create_call(db, officer, call_input(received_at=at, kind="noise", received_how="phone"))
        for minutes in arrivals:
            v = dispatch(db, officer, v.id, v.version, officer.username, sent_at=at)
            d = v.dispatches[-1]
            if minutes is not None:
                arrived = at + timedelta(minutes=minutes)
                update_dispatch(db, officer, d.id, d.version, DispatchUpdate(arrived, None, None))

    call(today - timedelta(days=5), (25, 8))  # the second officer there first: 8 minutes
    call(today - timedelta(days=4), (None, 30))  # the first never arrived: 30
    call(today - timedelta(days=3), (None,))  # sent, not arrived: not an arrival
    call(year_earlier(today - timedelta(days=5)), (40, None))
    glance = {
        f.label: (f.value, f.year_earlier)
        for s in activity(db, start, today, profile)
        for f in s.figures
    }
    assert glance["Calls with an arrival recorded"] == (2, 1)
    assert glance["Mean minutes from the call to the first arrival"] == (19.0, 40.0)
    assert glance["Median minutes from the call to the first arrival (whole minutes)"] == (19, 40)


def test_a_years_calls_are_read_from_the_index_of_the_day_received(sqlite_db):
    plans = "\n".join(_activity_plans(sqlite_db))
    assert "SCAN field_call\n" not in plans + "\n", plans


def test_each_period_is_its_own_range_of_the_index(sqlite_db):
    """ "In this period OR a year earlier" made SQLite gather and de-duplicate each row's
    id before counting it (a third of a statement at a year of a city): each period is
    read as its own range, one after the other."""
    for plan in _activity_plans(sqlite_db):
        if any(f" {t} " in plan for t in ("impoundment", "payment", "field_call")):
            assert "MULTI-INDEX OR" not in plan, plan


def test_today_builds_no_orm_object_a_quarantine_or_call(db, officer, supervisor, rex):
    """Today words each open quarantine and each waiting call from a few columns: at a
    city's size hundreds of each are open, and building every one as an ORM object was
    a quarter of those modules' time (issue 14). Its items are still there."""
    from calls_support import call_input
    from quarantine_support import bite_input, days_ago

    from fieldops import modules
    from fieldops.db.models import FieldCall, Quarantine
    from fieldops.rules import Profile
    from fieldops.services import quarantine as qs
    from fieldops.services.calls.records import create_call
    from fieldops.services.context import now

    profile = Profile.default()
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), profile
    ).quarantine_id
    call = create_call(db, officer, call_input(received_at=now(), kind="noise"))
    built: list[object] = []

    def note(target, context):
        built.append(target)

    for model in (Quarantine, FieldCall):
        event.listen(model, "load", note)
    try:
        items = modules.due_items(db, now().astimezone(profile.timezone).date(), profile)
    finally:
        for model in (Quarantine, FieldCall):
            event.remove(model, "load", note)
    assert ("quarantine", qid) in {(i.module, i.record_id) for i in items}
    assert ("call", call.id) in {(i.module, i.record_id) for i in items}
    assert built == []
