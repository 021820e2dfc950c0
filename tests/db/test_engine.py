"""The SQLite settings that keep legal records safe, checked on real pooled connections."""

from __future__ import annotations

import sqlite3
import stat
from datetime import date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from fieldops.db.engine import Database, describe_url, resolve_url
from fieldops.db.models import FeeScheduleEntry
from fieldops.services.context import Actor, audit


def test_every_pooled_sqlite_connection_is_configured(sqlite_db):
    conns = [sqlite_db.engine.connect() for _ in range(3)]  # three distinct pooled connections
    try:
        for conn in conns:
            q = conn.exec_driver_sql
            assert q("PRAGMA journal_mode").scalar() == "wal"
            assert q("PRAGMA synchronous").scalar() == 2  # FULL
            assert q("PRAGMA foreign_keys").scalar() == 1
            assert q("PRAGMA busy_timeout").scalar() >= 5000
            conn.rollback()
    finally:
        for conn in conns:
            conn.close()


def test_write_units_take_the_write_lock_at_begin(sqlite_db):
    path = sqlite_db.engine.url.database
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with sqlite_db.write() as s:
            s.execute(select(1))  # a read only: BEGIN IMMEDIATE already holds the lock
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # released at commit
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_read_units_do_not_block_a_writer(sqlite_db):
    path = sqlite_db.engine.url.database
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with sqlite_db.read() as s:
            s.execute(select(1))
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
    finally:
        other.close()


def test_foreign_keys_are_enforced(sqlite_db):
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError), sqlite_db.write() as s:
        s.execute(select(1))
        s.connection().exec_driver_sql(
            "INSERT INTO animal (name, species, species_detail, breed, colour, sex, markings, "
            "owner_id, notes, created_at, updated_at, version) VALUES "
            "('x', 'dog', '', '', '', 'male', '', 999, '', '2026-01-01', '2026-01-01', 1)"
        )


def test_new_database_file_is_private(tmp_path):
    db = Database(resolve_url(tmp_path / "sub" / "new.db"))
    with db.engine.connect():
        pass
    mode = stat.S_IMODE((tmp_path / "sub" / "new.db").stat().st_mode)
    assert mode & 0o077 == 0
    db.dispose()


def _fee_entry(entered_at: datetime) -> FeeScheduleEntry:
    # Any UTCDateTime column will do; audit events take their time from audit() itself.
    money = Decimal("1.00")
    return FeeScheduleEntry(
        resolution="r",
        effective_on=date(2026, 1, 1),
        species="dog",
        impound=money,
        boarding_per_day=money,
        adoption=money,
        entered_by="a",
        entered_at=entered_at,
    )


def test_naive_datetimes_are_refused_and_aware_ones_come_back_in_utc(db):
    from datetime import UTC, timedelta, timezone

    with pytest.raises(Exception, match="naive"), db.write() as s:
        s.add(_fee_entry(datetime(2026, 1, 1, 12)))
        s.flush()
    central = timezone(timedelta(hours=-6))
    with db.write() as s:
        s.add(_fee_entry(datetime(2026, 1, 1, 12, tzinfo=central)))
    with db.read() as s:
        at = s.scalars(select(FeeScheduleEntry.entered_at)).one()
    assert at == datetime(2026, 1, 1, 18, tzinfo=UTC)
    assert at.utcoffset().total_seconds() == 0


def test_money_is_exact_cents():
    from fieldops.db.types import Money, to_cents

    assert to_cents(Decimal("40.10")) == 4010
    assert Money().process_result_value(4010, None) == Decimal("40.10")
    with pytest.raises(TypeError):
        to_cents(40.1)  # type: ignore[arg-type]


def test_resolve_url_order(monkeypatch, tmp_path):
    monkeypatch.setenv("FIELDOPS_DATABASE_URL", "postgresql+psycopg://u:secret@h/db")
    assert resolve_url(None).startswith("postgresql")
    assert resolve_url(tmp_path / "x.db") == f"sqlite:///{tmp_path / 'x.db'}"
    assert "secret" not in describe_url(resolve_url(None))
    monkeypatch.delenv("FIELDOPS_DATABASE_URL")
    assert resolve_url(None).endswith("fieldops.db")


@pytest.mark.parametrize(
    "table", ["audit_event", "disposition", "payment", "payment_line", "release_evidence"]
)
def test_legal_records_cannot_be_changed_or_deleted(db, table):
    from sqlalchemy import text
    from sqlalchemy.exc import DatabaseError

    for statement in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):
        if table == "audit_event":
            with db.write() as s:
                audit(s, Actor("a"), "x", "e", 1)
            with pytest.raises(DatabaseError, match="never changed"), db.write() as s:
                s.execute(text(statement))
        else:
            # Triggers fire per row; an empty table proves only that they exist.
            with db.engine.connect() as conn:
                if db.dialect == "sqlite":
                    names = {
                        r[0]
                        for r in conn.exec_driver_sql(
                            "SELECT name FROM sqlite_master WHERE type='trigger' AND tbl_name=?",
                            (table,),
                        )
                    }
                    assert {f"{table}_no_update", f"{table}_no_delete"} <= names
                else:
                    names = {
                        r[0]
                        for r in conn.execute(
                            text(
                                "SELECT tgname FROM pg_trigger WHERE tgrelid = CAST(:t AS regclass)"
                            ),
                            {"t": table},
                        )
                    }
                    assert f"{table}_immutable" in names
