"""The one map (fieldops/failures.py): each failure the environment can raise has its
kind, its exit status, and words saying what happened and what to do."""

from __future__ import annotations

import errno
import os
import sqlite3
from datetime import UTC, datetime

import pytest
import sqlalchemy.exc

from fieldops import failures as f
from fieldops.backups import backup_name
from fieldops.db.migrate import SchemaTooNewError, SchemaTooOldError
from fieldops.errors import UserError, ValidationError


def sqlite_error(kind: str, tmp_path) -> sqlite3.Error:
    """A real error from SQLite, not one made up with a message."""
    path = tmp_path / f"x{len(list(tmp_path.iterdir()))}.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TABLE t (x)")
    try:
        if kind == "full":
            con.execute("PRAGMA max_page_count = 2")
            con.execute("INSERT INTO t VALUES (randomblob(100000))")
        elif kind == "busy":
            con.execute("BEGIN IMMEDIATE")
            sqlite3.connect(path, timeout=0, isolation_level=None).execute("BEGIN IMMEDIATE")
        elif kind == "notadb":
            text = path.with_suffix(".txt")
            text.write_text("hello\n" * 200)
            sqlite3.connect(text).execute("SELECT * FROM sqlite_master")
        elif kind == "integrity":
            con.execute("CREATE TABLE u (x UNIQUE)")
            con.execute("INSERT INTO u VALUES (1)")
            con.execute("INSERT INTO u VALUES (1)")
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("SQLite did not fail")


def wrapped(orig: BaseException) -> sqlalchemy.exc.DBAPIError:
    return sqlalchemy.exc.DBAPIError.instance("INSERT ...", {}, orig, sqlite3.Error)


@pytest.mark.parametrize(
    ("kind", "expected", "gist"),
    [
        ("full", f.DISK_FULL, "disk is full"),
        ("busy", f.LOCKED, "busy"),
        ("notadb", f.NOT_A_DATABASE, "not a FieldOps database"),
    ],
)
def test_sqlite_failures_are_known_by_their_result_code(tmp_path, kind, expected, gist):
    for exc in (sqlite_error(kind, tmp_path), wrapped(sqlite_error(kind, tmp_path))):
        said = f.describe(exc, tmp_path / "x.db")
        assert said.kind == expected and said.exit_code == f.EXIT_CODES[expected]
        assert gist in said.message and said.what_to_do


def test_a_constraint_the_database_refused_is_a_bug_not_the_environment(tmp_path):
    said = f.describe(wrapped(sqlite_error("integrity", tmp_path)))
    assert said.kind == f.BUG and said.exit_code == 70


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        (errno.ENOSPC, f.DISK_FULL),
        (errno.EROFS, f.READ_ONLY),
        (errno.EACCES, f.PERMISSION),
        (errno.ENOENT, f.MISSING),
        (errno.EIO, f.UNAVAILABLE),
    ],
)
def test_operating_system_failures_are_known_by_errno(number, expected):
    said = f.describe(OSError(number, os.strerror(number)))
    assert said.kind == expected
    assert os.strerror(number) in said.message


class FakePgError(Exception):
    def __init__(self, sqlstate: str | None) -> None:
        super().__init__("server said no")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("sqlstate", "expected"),
    [
        ("53100", f.DISK_FULL),
        ("55P03", f.LOCKED),
        ("42501", f.PERMISSION),
        ("25006", f.READ_ONLY),
        ("XX001", f.DAMAGED),
        ("08006", f.UNAVAILABLE),
        ("23505", None),  # a unique violation: a bug, not the environment
    ],
)
def test_postgresql_failures_are_known_by_sqlstate(sqlstate, expected):
    assert f.environment_kind(FakePgError(sqlstate)) == expected


def test_user_errors_and_schema_refusals_keep_their_words():
    assert f.describe(ValidationError({"name": "missing"})).kind == f.USER
    assert f.describe(UserError("Nothing to do.")).line() == "Nothing to do."
    assert f.describe(SchemaTooNewError("newer")).exit_code == f.EXIT_CODES[f.TOO_NEW]
    assert f.describe(SchemaTooOldError("older")).exit_code == f.EXIT_CODES[f.TOO_OLD]


def test_a_read_only_failure_says_whether_file_or_folder(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere: tests/test_failures_cli.py drops that")
    path = tmp_path / "x.db"
    path.write_bytes(b"")
    path.chmod(0o444)
    assert "file" in (f.read_only_reason(path) or "")
    path.chmod(0o644)
    tmp_path.chmod(0o555)
    try:
        assert "folder" in (f.read_only_reason(path) or "")
    finally:
        tmp_path.chmod(0o755)


def test_damage_names_the_newest_backup(tmp_path):
    path = tmp_path / "fieldops.db"
    (tmp_path / "backups").mkdir()
    backup = tmp_path / "backups" / backup_name("fieldops", datetime(2026, 12, 1, 9, tzinfo=UTC))
    backup.write_bytes(b"")
    said = f.damage_failure(path, "SQLite's integrity check: page 9")
    assert said.kind == f.DAMAGED and str(backup) in said.what_to_do
    assert "no backup" in f.damage_failure(tmp_path / "other.db", "x").what_to_do
