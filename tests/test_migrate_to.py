"""``fieldops migrate-to URL``: a SQLite database copied whole into an empty PostgreSQL
one, verified by counts, rows and the audit chain; a failed copy leaves the target
empty (issue 13, "Several workstations").

Runs against the local PostgreSQL named by FIELDOPS_TEST_PG_URL (skipped without it).
Each test gets its own empty schema in that database (the target URL selects it with
``search_path``), so the suite's own PostgreSQL tables are never touched. The source
is a ``fieldops demo`` database, with a row added to each table the demo leaves empty,
so every table is copied with rows.
"""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.engine import make_url
from support import pg_url
from test_cli_errors import one_line_error, run

from fieldops import migrate_to as mt
from fieldops.db.engine import Database
from fieldops.db.models import (
    AppSetting,
    AuditChainHead,
    BiteReport,
    FeeScheduleEntry,
    Impoundment,
    ImpoundPhoto,
    QuarantineCorrection,
    SaveKey,
    ViciousStepDone,
)
from fieldops.errors import PermissionDeniedError
from fieldops.services.context import Actor, audit, os_username
from fieldops.services.staff import actor_for_os_user

PG_URL = pg_url()
pytestmark = pytest.mark.skipif(not PG_URL, reason="FIELDOPS_TEST_PG_URL is not set")

NAME = "O'Brien & <Sons> 🐕 \u05e9\u05dc\u05d5\u05dd"  # hostile, emoji, right-to-left


def _fill_what_the_demo_leaves_empty(path: Path) -> None:
    """A row in each table ``fieldops demo`` leaves empty (and a name to round-trip)."""
    from fieldops.db.models import Person, ViciousStep

    db = Database(f"sqlite:///{path}")
    at = datetime(2026, 11, 30, 15, 45, 12, 123456, tzinfo=UTC)
    try:
        with db.write() as s:
            imp = s.scalars(select(Impoundment).limit(1)).one()
            bite = s.scalars(select(BiteReport).limit(1)).one()
            step = s.scalars(select(ViciousStep).limit(1)).one()
            person = s.scalars(select(Person).limit(1)).one()
            old_name, person.full_name = person.full_name, NAME
            audit(
                s,
                Actor(username="demo-admin", role="admin"),
                "update",
                "person",
                person.id,
                before={"full_name": old_name},
                after={"full_name": NAME},
            )
            money = Decimal("12.34")
            s.add_all(
                [
                    FeeScheduleEntry(
                        resolution="R-2026-7",
                        effective_on=date(2026, 1, 1),
                        species="dog",
                        impound=money,
                        boarding_per_day=money,
                        adoption=money,
                        entered_by="demo-admin",
                        entered_at=at,
                    ),
                    ImpoundPhoto(
                        impoundment_id=imp.id,
                        filename="dog.jpg",
                        media_type="image/jpeg",
                        content=bytes(range(256)) * 8,
                        added_at=at,
                    ),
                    QuarantineCorrection(
                        bite_report_id=bite.id,
                        target="bite_report",
                        target_id=bite.id,
                        field="location",
                        old_value="",
                        new_value=NAME,
                        reason="typo",
                        recorded_at=at,
                        recorded_by="demo-supervisor",
                    ),
                    ViciousStepDone(
                        step_id=step.id,
                        done_on=date(2026, 11, 30),
                        result="done",
                        recorded_by="demo-officer",
                        recorded_at=at,
                    ),
                    AppSetting(key="idle_lock_minutes", value="15"),
                    SaveKey(
                        key=uuid.uuid4().hex,
                        entity="person",
                        entity_id=person.id,
                        actor="demo-admin",
                        created_at=at,
                    ),
                ]
            )
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("migrate_demo")
    path = folder / "demo.db"
    result = run("--db", str(path), "demo", "--seed", "3", "--people", "60", tmp=folder)
    assert result.returncode == 0, result.stderr
    _fill_what_the_demo_leaves_empty(path)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return path


@pytest.fixture
def source(demo_template, tmp_path) -> Path:
    path = tmp_path / "fieldops.db"
    shutil.copyfile(demo_template, path)
    return path


@pytest.fixture
def target():
    """An empty PostgreSQL schema of this test's own, as the URL a user would give."""
    assert PG_URL is not None
    schema = f"ws_target_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


def _tables(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return sorted(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def _counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {
                t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in mt.copied_tables()
            }
    finally:
        engine.dispose()


def _admin(path: Path) -> tuple[Database, Actor]:
    db = Database(f"sqlite:///{path}")
    actor = actor_for_os_user(db, os_username())
    assert actor is not None and actor.role == "admin"
    return db, actor


def test_every_table_is_copied_with_its_ids_and_verified(source, target):
    db, actor = _admin(source)
    try:
        result = mt.migrate_to(db, actor, target, batch=7)  # small batches: many of them
    finally:
        db.dispose()
    copied = {t.name: t.rows for t in result.tables}
    assert all(n > 0 for n in copied.values()), [k for k, n in copied.items() if not n]
    assert _counts(target) == copied == _counts(f"sqlite:///{source}")
    # the source's trail says who copied it where, and the copy ends at the same head
    engine = create_engine(target)
    with engine.connect() as conn:
        head = conn.execute(select(AuditChainHead.seq, AuditChainHead.hash)).one()
        last = conn.execute(
            text("SELECT action, entity FROM audit_event ORDER BY seq DESC")
        ).first()
        name = conn.execute(text("SELECT count(*) FROM person WHERE full_name = :n"), {"n": NAME})
        assert name.scalar_one() == 1
        photo = conn.execute(text("SELECT content FROM impound_photo")).scalar_one()
        assert bytes(photo) == bytes(range(256)) * 8
        counts = conn.execute(
            text("SELECT licence_year, status, n FROM dog_licence_count WHERE n > 0 ORDER BY 1, 2")
        ).all()
    engine.dispose()
    assert tuple(head) == (result.head_seq, result.head_hash)
    assert tuple(last) == ("copied_to_server", "database")
    src = sqlite3.connect(source)
    assert src.execute("SELECT seq, hash FROM audit_chain").fetchone() == tuple(head)
    # The licences' counts (not copied) counted by the target's triggers as the source's.
    kept = "SELECT licence_year, status, n FROM dog_licence_count WHERE n > 0 ORDER BY 1, 2"
    assert src.execute(kept).fetchall() == [tuple(r) for r in counts] != []
    src.close()


def test_the_copy_works_as_a_database_a_workstation_can_save_to(source, target):
    db, actor = _admin(source)
    try:
        mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    from fieldops.check import integrity_problems

    server = Database(target)
    try:
        assert integrity_problems(server) == []
        with server.engine.begin() as conn:  # every id sequence is past the copied ids
            for table in mt.copied_tables():
                if "id" not in table.c:
                    continue
                seq = conn.execute(
                    text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table.name}
                ).scalar()
                if seq is not None:
                    highest = conn.execute(text(f"SELECT max(id) FROM {table.name}")).scalar()
                    following = conn.execute(text("SELECT nextval(:s)"), {"s": seq}).scalar()
                    assert following == highest + 1, table.name
        with server.write() as s:
            audit(s, actor, "update", "person", 1, after={"note": "after the move"})
        assert integrity_problems(server) == []  # the chain continues from the copied head
    finally:
        server.dispose()


def test_a_database_that_is_not_empty_is_refused_untouched(source, target):
    engine = create_engine(target)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE their_table (x int)")
        conn.exec_driver_sql("INSERT INTO their_table VALUES (42)")
    engine.dispose()
    db, actor = _admin(source)
    events_before = _counts(f"sqlite:///{source}")["audit_event"]
    try:
        with pytest.raises(mt.MigrateTargetError, match="not empty") as refused:
            mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    assert "their_table" in str(refused.value) and "nothing was copied" in str(refused.value)
    assert _tables(target) == ["their_table"]
    assert _counts(f"sqlite:///{source}")["audit_event"] == events_before  # nothing recorded


def test_a_failure_while_copying_leaves_the_target_empty(monkeypatch, source, target):
    real = mt._copy_table

    def fails_at_vicious_case(src, dst, table, batch):
        if table.name == "vicious_case":
            raise OSError(28, "No space left on device")
        return real(src, dst, table, batch)

    monkeypatch.setattr(mt, "_copy_table", fails_at_vicious_case)
    db, actor = _admin(source)
    try:
        with pytest.raises(mt.MigrationFailedError) as failed:
            mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    message = str(failed.value)
    assert "vicious_case" in message and "as empty as before" in message
    assert _tables(target) == []


def test_a_copy_that_does_not_verify_is_rolled_back(monkeypatch, source, target):
    monkeypatch.setattr(
        mt, "chain_problems", lambda conn: ["the audit trail is broken at audit event #3"]
    )
    assert "broken at audit event #3" in _copy_that_fails_to_verify(source, target)
    assert _tables(target) == []


def _copy_that_fails_to_verify(source, target) -> str:
    """The message of a copy refused at its verification."""
    db, actor = _admin(source)
    try:
        with pytest.raises(mt.MigrationFailedError, match="verifying") as failed:
            mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    return str(failed.value)


def _keeping_app_setting(check):
    from fieldops.modules import Module

    return Module("settings", "Settings kept", kept_tables={"app_setting": check})


def test_a_modules_kept_table_is_left_to_the_target_and_checked_there(source, target, install):
    """A module's kept table is not copied (the target's triggers would fill it) and its
    check runs on the copy, inside the copy's transaction."""
    seen = []

    def check(conn):
        rows = conn.execute(text("SELECT count(*) FROM app_setting")).scalar_one()
        seen.append((conn.dialect.name, rows))
        return []

    install(_keeping_app_setting(check))
    db, actor = _admin(source)
    try:
        result = mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    assert "app_setting" not in {t.name for t in result.tables}
    assert seen == [("postgresql", 0)]  # the source's one setting was not copied
    assert "person_word" not in {t.name for t in result.tables}


def test_a_kept_table_whose_check_fails_on_the_copy_rolls_it_back(source, target, install):
    install(_keeping_app_setting(lambda conn: ["the kept settings differ from 1 setting"]))
    assert "the kept settings differ from 1 setting" in _copy_that_fails_to_verify(source, target)
    assert _tables(target) == []


def test_only_an_administrator_may_copy_the_database(source, target):
    from fieldops.services.staff import set_staff

    db, admin = _admin(source)
    try:
        set_staff(db, admin, "demo-supervisor", "supervisor", os_user="")
        supervisor = Actor(username="demo-supervisor", role="supervisor")
        with pytest.raises(PermissionDeniedError):
            mt.migrate_to(db, supervisor, target)
    finally:
        db.dispose()
    assert _tables(target) == []


def test_the_command_copies_and_says_where_each_workstation_points(source, target, tmp_path):
    result = run("--db", str(source), "migrate-to", target, tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    password = make_url(target).password
    assert password and f":{password}@" not in result.stdout  # never printed
    assert "FIELDOPS_DATABASE_URL=postgresql+psycopg://" in result.stdout
    assert "audit trail verifies" in result.stdout
    assert _counts(target) == _counts(f"sqlite:///{source}")


def test_the_command_refuses_a_non_empty_target_in_one_line(source, target, tmp_path):
    engine = create_engine(target)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x int)")
    engine.dispose()
    line = one_line_error(run("--db", str(source), "migrate-to", target, tmp=tmp_path))
    assert "not empty" in line and "nothing was copied" in line


def test_the_command_refuses_an_unreachable_server_in_one_line(source, tmp_path):
    url = "postgresql+psycopg://fieldops@127.0.0.1:1/nothing"
    line = one_line_error(run("--db", str(source), "migrate-to", url, tmp=tmp_path))
    assert "127.0.0.1" in line and "Traceback" not in line


def test_the_command_refuses_a_missing_source_and_creates_nothing(tmp_path, target):
    missing = tmp_path / "typo.db"
    line = one_line_error(run("--db", str(missing), "migrate-to", target, tmp=tmp_path))
    assert "no database" in line.lower()
    assert not missing.exists()


def test_copying_twice_is_refused_and_the_first_copy_is_kept(source, target):
    db, actor = _admin(source)
    try:
        mt.migrate_to(db, actor, target)
        first = _counts(target)
        with pytest.raises(mt.MigrateTargetError, match="already holds a FieldOps database"):
            mt.migrate_to(db, actor, target)
    finally:
        db.dispose()
    assert _counts(target) == first
