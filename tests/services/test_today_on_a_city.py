"""Today on a generated city (bench/generate.py, a small size) across a year of days,
on SQLite and on PostgreSQL (the same city copied there by ``migrate-to``): what it lists
is what ``fieldops due`` lists, except the dog licences it counts; the counts and the
calls' follow-ups are the ones the earlier statements gave (issue 14: the renewal count
now reads the licence's own "renewed", the follow-ups the call's own copy, 0027)."""

from __future__ import annotations

import shutil
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import date, datetime, timedelta

import pytest
from due_support import query_plans
from sqlalchemy import create_engine, exists, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import aliased
from support import pg_url

from bench import generate
from bench.city import TODAY
from fieldops import migrate_to as mt
from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    BiteReport,
    CallFollowUp,
    DogLicence,
    FieldCall,
    Quarantine,
    ViciousDeclaration,
)
from fieldops.modules import due_items
from fieldops.rules import Profile
from fieldops.services.context import Actor
from fieldops.services.due import today_items
from fieldops.services.licences import module as licence_module
from fieldops.services.quarantine.to_send import stale_bites_to_send
from tests.accounts_support import enrol

SIZE = 2000
PG_URL = pg_url()

# The year around the city's "today": the licence year's turn, the late-fee day, summer,
# the days about "today" (holds ending, calls waiting, follow-ups), December's expiring.
DAYS = (
    date(2026, 1, 1),
    date(2026, 1, 15),
    date(2026, 3, 31),
    date(2026, 4, 1),
    date(2026, 7, 1),
    *(TODAY + timedelta(days=n) for n in range(-10, 4)),
    date(2026, 12, 15),
    date(2026, 12, 31),
    date(2027, 1, 4),
)
# The follow-ups added to the city (a follow-up date cannot be before its dispatch: from
# the day the test runs), and the days they come due.
# From tomorrow: one dated today is refused in the evening (the dispatch's UTC day).
NOW = datetime.now(Profile.default().timezone).date()
FOLLOW_UP_DAYS = tuple(NOW + timedelta(days=n) for n in range(1, 5))


@pytest.fixture(scope="module")
def city_file(tmp_path_factory, sqlite_template) -> str:
    path = tmp_path_factory.mktemp("today_city") / "city.db"
    shutil.copyfile(sqlite_template, path)
    generate.fill(path, SIZE)
    db = Database(f"sqlite:///{path}")
    try:
        _add_follow_ups(db)
    finally:
        db.dispose()
    return str(path)


def _add_follow_ups(db: Database) -> None:
    """Follow-ups still to do on the coming days, beside one done and one rechecked (the
    generated city's are done or rechecked, but a rare few at 100,000 impoundments)."""
    from datetime import UTC

    from fieldops.services.calls.followups import record_follow_up
    from fieldops.services.calls.records import open_recheck
    from tests.services.test_call_follow_up_copy import _call

    officer = enrol(db, Actor("olly", role="officer", full_name="Olly Officer"))
    for n, day in enumerate(FOLLOW_UP_DAYS):
        calls = [_call(db, officer, day) for _ in range(3)]
        done = calls[n % 3]
        record_follow_up(
            db,
            officer,
            done.id,
            done.version,
            done_at=datetime.now(UTC) - timedelta(minutes=5),
            done_by=officer.username,
            note="Done.",
        )
        open_recheck(db, officer, calls[(n + 1) % 3].id)


@pytest.fixture(scope="module", params=["sqlite"] + (["postgresql"] if PG_URL else []))
def city(request, city_file) -> Iterator[Database]:
    source = Database(f"sqlite:///{city_file}")
    if request.param == "sqlite":
        yield source
        source.dispose()
        return
    assert PG_URL is not None
    schema = f"today_city_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    target = url.render_as_string(hide_password=False)
    try:
        mt.migrate_to(source, enrol(source, Actor("copier", role="admin")), target)
        source.dispose()
        db = Database(target)
        yield db
        db.dispose()
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def _old_unrenewed_count(db: Database, year: int) -> int:
    """The renewal count as it was asked before the licence's copy: each of last year's
    licences, its dog not archived and no current licence of the dog this year."""
    this = aliased(DogLicence)
    with db.read() as s:
        return int(
            s.execute(
                select(func.count())
                .select_from(DogLicence)
                .join(Animal, Animal.id == DogLicence.animal_id)
                .where(
                    DogLicence.licence_year == year - 1,
                    DogLicence.status == "current",
                    Animal.archived_at.is_(None),
                    ~exists().where(
                        this.animal_id == DogLicence.animal_id,
                        this.licence_year == year,
                        this.status == "current",
                    ),
                )
            ).scalar_one()
        )


def _old_follow_ups(db: Database, day: date) -> set[int]:
    """The calls Today listed for a follow-up before the call's copy: a past follow-up
    date, closed, no recheck opened from it, no follow-up of that date done."""
    rechecked = select(FieldCall.recheck_of_id).where(FieldCall.recheck_of_id.is_not(None))
    done = exists().where(
        CallFollowUp.call_id == FieldCall.id, CallFollowUp.due_on == FieldCall.follow_up_on
    )
    with db.read() as s:
        return set(
            s.scalars(
                select(FieldCall.id).where(
                    FieldCall.follow_up_on.is_not(None),
                    FieldCall.follow_up_on <= day,
                    FieldCall.status == "closed",
                    FieldCall.id.not_in(rechecked),
                    ~done,
                )
            )
        )


def _old_officers(db: Database, items) -> dict[tuple[str, str, int], str]:
    """Each quarantine and vicious item's officer as it was read before the items' own
    statements joined it: looked up by the items' records once they were built (the
    quarantine's bite report's, the bite's own, the case's declaration's; "" without)."""
    lookups = {
        ("quarantine", "quarantine"): select(Quarantine.id, BiteReport.officer).join(
            BiteReport, BiteReport.id == Quarantine.bite_report_id
        ),
        ("quarantine", "bite"): select(BiteReport.id, BiteReport.officer),
        ("vicious", "case"): select(ViciousDeclaration.case_id, ViciousDeclaration.officer),
    }
    found: dict[tuple[str, str, int], str] = {}
    with db.read() as s:
        for (module, kind), query in lookups.items():
            ids = {i.record_id for i in items if (i.module, i.kind) == (module, kind)}
            for rid, officer in s.execute(query):
                if rid in ids:
                    found[(module, kind, rid)] = officer
    return {
        (i.module, i.kind, i.record_id): found.get((i.module, i.kind, i.record_id), "")
        for i in items
        if i.module in ("quarantine", "vicious")
    }


def test_the_city_has_what_the_comparison_needs(city):
    """Follow-ups to do and done, rechecks, licences to renew: else the test proves little."""
    profile = Profile.default()
    assert (
        len(_old_follow_ups(city, FOLLOW_UP_DAYS[-1])) >= len(FOLLOW_UP_DAYS)
        and _old_unrenewed_count(city, TODAY.year) > 10
    )
    with city.read() as s:
        assert s.scalar(select(func.count()).where(FieldCall.recheck_of_id.is_not(None)))
    due = due_items(city, TODAY, profile)
    assert len({i.module for i in due}) >= 5
    for module in ("quarantine", "vicious"):  # items with an officer, to compare
        assert any(i.officer for i in due if i.module == module), module


@pytest.mark.parametrize("day", DAYS + FOLLOW_UP_DAYS, ids=str)
def test_today_is_fieldops_due_with_the_licences_counted(city, day):
    profile = Profile.default()
    due = due_items(city, day, profile)
    today = today_items(city, day, profile)
    assert [i for i in today if i.module != "licence"] == [i for i in due if i.module != "licence"]
    per_dog = Counter(i.category for i in due if i.module == "licence")
    counted = Counter()
    for i in today:
        if i.module == "licence":
            counted[i.category] += getattr(i, "count", 1)
    assert counted == per_dog
    for year in (day.year, day.year + 1):
        assert licence_module.unrenewed_count(city, year) == _old_unrenewed_count(city, year)
    follow_ups = {i.record_id for i in due if i.category == "call.follow_up_due"}
    assert follow_ups == _old_follow_ups(city, day)
    officers = {(i.module, i.kind, i.record_id): i.officer for i in due}
    assert {k: officers[k] for k in _old_officers(city, due)} == _old_officers(city, due)


def _todays_plans(db: Database) -> str:
    """SQLite's plan of every statement Today sends on ``db``, one line a step."""
    return "\n".join(query_plans(db, lambda: today_items(db, TODAY, Profile.default()), "\n"))


def test_todays_statements_read_the_open_rows_from_their_indexes(sqlite_db):
    """The statements Today sends read what is open from an index, never a module's
    history (issue 14, migration 0027). On a file without planner statistics: the
    generated city's are those of a small town, where SQLite rightly reads a small
    table whole (the 100,000 city's plans are bench/today.py's)."""
    plans = _todays_plans(sqlite_db)
    for index in (
        "ix_field_call_follow_up_due_on",
        "ix_call_citation_unpaid_court_on",
        "ix_quarantine_status_certificate",
        "ix_quarantine_status_bite",
        "ix_dog_licence_unrenewed",
    ):
        assert f" INDEX {index} " in plans, (index, plans)
    for table in ("field_call", "call_citation", "quarantine", "dog_licence", "impoundment"):
        assert f"SCAN {table}\n" not in plans + "\n", (table, plans)


def test_referrals_and_specimens_to_send_are_read_from_what_is_kept(city_file, tmp_path):
    """The referred bites and dead animals still to send are read from ``bite_to_send``
    (migration 0032), with or without planner statistics: never each referred bite's or
    dead animal's events, which read the cases' whole history on every Today."""
    path = tmp_path / "analyzed.db"
    shutil.copyfile(city_file, path)
    db = Database(f"sqlite:///{path}")
    try:
        for analyzed in (False, True):
            if analyzed:
                with db.engine.begin() as conn:
                    conn.exec_driver_sql("ANALYZE")
            plans = _todays_plans(db)
            assert "bite_to_send" in plans, plans
            for index in ("ix_quarantine_event_referral_sent", "ix_quarantine_event_specimen_sent"):
                assert index not in plans, (analyzed, index, plans)
            with db.engine.connect() as conn:
                assert stale_bites_to_send(conn) == []  # the generator's fill is the sources'
    finally:
        db.dispose()
