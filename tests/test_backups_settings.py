"""The backup folder set in Administration, and the services the window calls."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from fieldops.backups import list_backups, newest_backup
from fieldops.db.engine import sqlite_file
from fieldops.db.models import AuditEvent
from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.services.backups import (
    NotSqliteError,
    back_up_now,
    backup_status,
    restore_database,
    set_backup_folder,
)


def _events(db) -> list[tuple[str, str, dict | None]]:
    with db.read() as s:
        rows = s.execute(
            select(AuditEvent.actor, AuditEvent.entity, AuditEvent.after).order_by(AuditEvent.seq)
        ).all()
    return [(r[0], r[1], r[2]) for r in rows if r[1] == "app_setting"]


def test_backups_go_to_the_folder_set_in_administration(sqlite_db, admin, tmp_path):
    path = sqlite_file(sqlite_db.url)
    elsewhere = tmp_path / "nas"
    elsewhere.mkdir()
    assert backup_status(sqlite_db).is_default_folder
    assert set_backup_folder(sqlite_db, admin, str(elsewhere)) == elsewhere
    made = back_up_now(sqlite_db, admin)
    assert made.path.parent == elsewhere
    assert newest_backup(path) == made.path  # what the damage report names
    status = backup_status(sqlite_db)
    assert status.folder == elsewhere and not status.is_default_folder
    assert status.last is not None and status.last.path == made.path and status.last.size > 0
    assert _events(sqlite_db) == [("ada", "app_setting", {"backup_folder": str(elsewhere)})]
    set_backup_folder(sqlite_db, admin, str(elsewhere))  # unchanged: no second event
    assert len(_events(sqlite_db)) == 1
    assert set_backup_folder(sqlite_db, admin, "") == tmp_path / "backups"  # back to default
    assert len(_events(sqlite_db)) == 2
    assert back_up_now(sqlite_db, admin).path.parent == tmp_path / "backups"
    assert not list_backups(tmp_path / "nowhere", "fieldops")


@pytest.mark.parametrize(
    ("folder", "words"),
    [
        ("relative/path", "whole path"),
        ("/no/such/folder/anywhere", "does not exist"),
        ("/tmp/a\x00b", "not a folder"),
    ],
)
def test_a_bad_folder_is_refused_naming_the_field(sqlite_db, admin, folder, words):
    with pytest.raises(ValidationError) as refused:
        set_backup_folder(sqlite_db, admin, folder)
    assert refused.value.field == "folder" and words in str(refused.value)
    assert _events(sqlite_db) == []


def test_the_databases_own_folder_is_refused(sqlite_db, admin, tmp_path):
    with pytest.raises(ValidationError, match="own folder"):
        set_backup_folder(sqlite_db, admin, str(tmp_path))


def test_only_an_administrator_backs_up_restores_or_moves_backups(sqlite_db, supervisor, tmp_path):
    for call in (
        lambda: back_up_now(sqlite_db, supervisor),
        lambda: set_backup_folder(sqlite_db, supervisor, str(tmp_path)),
        lambda: restore_database(sqlite_db, supervisor, tmp_path / "x.db"),
    ):
        with pytest.raises(PermissionDeniedError):
            call()
    assert not (tmp_path / "backups").exists()


def test_a_server_database_is_said_to_use_its_own_tools(db, admin):
    if db.dialect == "sqlite":
        pytest.skip("about a database server")
    with pytest.raises(NotSqliteError, match="pg_dump"):
        back_up_now(db, admin)
