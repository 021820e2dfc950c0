"""Every file FieldOps writes is its owner's only: the data folder 0700; the database,
its -wal and -shm, logs and exported documents 0600 (issue 13, "Files").

Each test stats the files themselves, under the permissive umask a shared machine
often has (0o002, or none at all), where the old code made them group- or
world-readable.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from test_cli_errors import run

from fieldops import cli_guard, files
from fieldops.db import engine
from fieldops.db.engine import Database, resolve_url

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o022, 0o002, 0o000], ids=lambda m: f"umask{m:03o}")
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def test_an_exported_document_is_owner_only_whatever_the_umask(umask, tmp_path):
    out = files.write_whole_file(tmp_path / "register.pdf", b"%PDF-1.4 names and addresses")
    assert mode(out) == 0o600


def test_replacing_a_readable_document_leaves_it_owner_only(umask, tmp_path):
    out = tmp_path / "register.csv"
    out.write_bytes(b"old")
    out.chmod(0o644)
    files.write_whole_file(out, b"new")
    assert mode(out) == 0o600 and out.read_bytes() == b"new"


def test_folders_fieldops_creates_are_0700_and_an_existing_one_is_left_alone(umask, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    made = files.make_private_folder(shared / "FieldOps" / "data")
    assert made.is_dir()
    assert mode(shared / "FieldOps") == 0o700 and mode(made) == 0o700
    assert mode(shared) == 0o755  # the user's folder: not FieldOps's to change


def _write_something(db: Database) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x)")
        conn.exec_driver_sql("INSERT INTO t VALUES ('Ana Ruiz, 12 Elm St')")


def test_a_new_database_its_folder_and_its_journals_are_owner_only(umask, tmp_path):
    path = tmp_path / "new folder" / "fieldops.db"
    db = Database(resolve_url(path))
    try:
        _write_something(db)
        # SQLite gives the -wal and -shm the database file's own mode (not the umask's)
        wal, shm = path.with_name("fieldops.db-wal"), path.with_name("fieldops.db-shm")
        assert wal.exists() and shm.exists()
        assert {p.name: mode(p) for p in (path, wal, shm)} == {
            "fieldops.db": 0o600,
            "fieldops.db-wal": 0o600,
            "fieldops.db-shm": 0o600,
        }
        assert mode(path.parent) == 0o700
    finally:
        db.dispose()


def test_an_existing_readable_database_of_ours_is_made_owner_only_with_its_journals(tmp_path):
    path = tmp_path / "old.db"
    db = Database(resolve_url(path))
    _write_something(db)
    db.dispose()
    wal = path.with_name("old.db-wal")
    for p in (path, wal):
        if p.exists():
            p.chmod(0o644)  # as another tool, or an older FieldOps, left it
    db = Database(resolve_url(path))
    try:
        with db.engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES ('x')")
        assert mode(path) == 0o600
        assert mode(wal) == 0o600 and mode(path.with_name("old.db-shm")) == 0o600
    finally:
        db.dispose()


def test_the_default_data_folder_made_0755_before_is_tightened(monkeypatch, tmp_path):
    own = tmp_path / "share" / "FieldOps"
    own.mkdir(parents=True)
    own.chmod(0o755)
    monkeypatch.setattr(engine, "default_database_path", lambda: own / "fieldops.db")
    db = Database(resolve_url(own / "fieldops.db"))
    db.dispose()
    assert mode(own) == 0o700
    assert mode(own / "fieldops.db") == 0o600


def test_the_command_bug_log_is_owner_only_in_an_owner_only_folder(umask, monkeypatch, tmp_path):
    folder = tmp_path / "state" / "FieldOps" / "log"
    monkeypatch.setattr(cli_guard, "log_folder", lambda: folder)
    written = cli_guard._write_bug_log("Traceback: a bug")
    assert written == folder / "fieldops-command.log"
    assert mode(written) == 0o600 and mode(folder) == 0o700
    assert "a bug" in written.read_text()


def test_a_readable_bug_log_left_by_an_older_version_is_made_owner_only(monkeypatch, tmp_path):
    folder = tmp_path / "log"
    folder.mkdir()
    old = folder / "fieldops-command.log"
    old.write_text("--- an earlier bug\n")
    old.chmod(0o644)
    monkeypatch.setattr(cli_guard, "log_folder", lambda: folder)
    cli_guard._write_bug_log("another")
    assert mode(old) == 0o600
    assert old.read_text().startswith("--- an earlier bug\n")  # appended, nothing lost


def test_fieldops_demo_makes_its_folder_and_database_owner_only(tmp_path):
    # The default database, whose folder FieldOps makes on first run (a --db in a missing
    # folder is refused instead: tests/test_failures_cli.py).
    data = tmp_path / "new"
    path = data / "FieldOps" / "fieldops.db"
    env = {"XDG_DATA_HOME": str(data), "FIELDOPS_DATABASE_URL": ""}
    # the permissive umask of a shared machine: nothing may rely on it
    result = run("demo", "--seed", "2", "--people", "40", tmp=tmp_path, env=env, umask=0)
    assert result.returncode == 0, result.stderr
    assert path.exists()
    assert mode(path.parent) == 0o700
    journals = [path] + [path.with_name(path.name + s) for s in ("-wal", "-shm")]
    assert {p.name: mode(p) for p in journals if p.exists()} == {
        p.name: 0o600 for p in journals if p.exists()
    }


def test_a_viewing_copy_is_owner_only_in_a_private_folder(umask, tmp_path):
    documents = pytest.importorskip("ui.common.documents")
    copy = documents.viewing_copy(b"%PDF-1.4", "record.pdf", tmp_path / "db-folder")
    assert mode(copy) == 0o600 and mode(copy.parent) == 0o700
