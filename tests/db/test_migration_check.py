"""The start-up's migration check on an up-to-date database is one read (issue 14)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from fieldops.db.engine import Database
from fieldops.db.migrate import current_revision, head_revision, upgrade


def _statements(db: Database) -> list[str]:
    said: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        said.append(" ".join(statement.split()))

    event.listen(db.engine, "before_cursor_execute", seen)
    return said


def test_an_up_to_date_database_is_checked_by_one_select(db: Database) -> None:
    said = _statements(db)
    result = upgrade(db.engine, db.url)
    assert result.before == result.after == head_revision() and result.backup is None
    assert [s for s in said if not s.startswith("BEGIN")] == [
        "SELECT version_num FROM alembic_version"
    ]
    assert "BEGIN IMMEDIATE" not in said  # a read: no write lock taken on SQLite


def test_a_new_database_has_no_revision(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path}/new.db")
    try:
        assert current_revision(db.engine) is None
    finally:
        db.dispose()


def test_a_failure_other_than_a_missing_version_table_is_raised(sqlite_db: Database) -> None:
    with sqlite_db.engine.begin() as conn:  # a version table FieldOps cannot read
        conn.exec_driver_sql("ALTER TABLE alembic_version RENAME COLUMN version_num TO other")
    with pytest.raises(Exception, match="version_num"):
        current_revision(sqlite_db.engine)
