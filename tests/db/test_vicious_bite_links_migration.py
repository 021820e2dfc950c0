"""Migration 0012 adds the incident's link columns in place: the append-only triggers of
migration 0010 survive the upgrade and the downgrade (a batch operation would drop them)."""

from __future__ import annotations

import sqlite3

import pytest
from support import downgrade_to

from fieldops.db.engine import Database
from fieldops.db.migrate import upgrade


def triggers(path) -> set[str]:
    raw = sqlite3.connect(path)
    try:
        rows = raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'vicious_incident'"
        ).fetchall()
    finally:
        raw.close()
    return {r[0] for r in rows}


def columns(path) -> set[str]:
    raw = sqlite3.connect(path)
    try:
        return {r[1] for r in raw.execute("PRAGMA table_info(vicious_incident)")}
    finally:
        raw.close()


def test_the_link_columns_come_and_go_and_the_rows_stay_append_only(tmp_path):
    path = tmp_path / "m.db"
    url = f"sqlite:///{path}"
    db = Database(url)
    upgrade(db.engine, url)
    expected = {"vicious_incident_no_update", "vicious_incident_no_delete"}
    assert triggers(path) == expected
    assert {"source_module", "source_kind", "source_id"} <= columns(path)
    downgrade_to(db, "0011")
    assert triggers(path) == expected
    assert not {"source_module", "source_kind", "source_id"} & columns(path)
    upgrade(db.engine, url)
    assert triggers(path) == expected
    db.dispose()
    raw = sqlite3.connect(path)  # foreign keys off: no case needed for the row
    try:
        raw.execute(
            "INSERT INTO vicious_incident (case_id, occurred_at, place, what, source_module, "
            "source_kind, source_id) VALUES (1, '2026-11-01 10:00:00', 'p', 'w', "
            "'quarantine', 'bite', 7)"
        )
        raw.commit()
        with pytest.raises(sqlite3.IntegrityError, match="never changed"):
            raw.execute("UPDATE vicious_incident SET source_id = 8")
    finally:
        raw.close()
