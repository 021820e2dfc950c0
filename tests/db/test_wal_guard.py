"""A lost SQLite lock never turns into acknowledged saves that go nowhere.

Closing any descriptor of the database file drops the process's POSIX locks;
the next other process to finish then deletes the write-ahead log this one
still writes to. The engine must notice and refuse, not acknowledge.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lost_locks import names_in, run_scenario

from fieldops.db.engine import Database
from fieldops.db.models import AuditEvent
from fieldops.errors import DatabaseFilesReplacedError, UserError
from fieldops.services.context import Actor, audit


def test_saves_after_the_database_file_was_closed_in_the_app_are_refused_not_lost(
    tmp_path, sqlite_template
):
    db_file = tmp_path / "fieldops.db"
    shutil.copyfile(sqlite_template, db_file)
    result = run_scenario(db_file, "close-fd")
    survived = names_in(db_file)  # the app has died
    assert result["acked"], "the first save, before anything happened, is acknowledged"
    for name in result["acked"]:
        assert name in result["seen"], f"{name} was acknowledged but another process never saw it"
        assert name in survived, f"{name} was acknowledged but lost when the app stopped"
    # The two later saves could not be kept: the user is told so, with the code the UI shows.
    assert result["refused"] == ["database_files_replaced"] * (3 - len(result["acked"]))


def _audit_count(db_file: str) -> int:
    # Read from another process: this one's view of the file is the broken one.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "print(c.execute('SELECT count(*) FROM audit_event').fetchone()[0])",
            db_file,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return int(done.stdout)


def test_a_unit_whose_log_is_replaced_before_commit_is_not_committed(sqlite_db):
    path = sqlite_db.engine.url.database
    with sqlite_db.read() as s:
        s.execute(AuditEvent.__table__.select())
    before = _audit_count(path)
    with pytest.raises(DatabaseFilesReplacedError) as refused, sqlite_db.write() as s:
        audit(s, Actor("a"), "x", "e", 1)
        s.flush()
        os.close(os.open(path, os.O_RDONLY))  # the locks are gone...
        _audit_count(path)  # ...so this process's log is deleted when a reader finishes
        assert not Path(path + "-wal").exists()
    assert isinstance(refused.value, UserError)  # shown to the user as written
    assert refused.value.code == "database_files_replaced"
    assert _audit_count(path) == before
    # And it stays stopped: even reads would show records nobody else has.
    with pytest.raises(DatabaseFilesReplacedError), sqlite_db.read() as s:
        s.execute(AuditEvent.__table__.select())


def test_a_log_rebuilt_after_every_connection_closed_is_not_mistaken_for_a_replacement(sqlite_db):
    url = sqlite_db.url
    wal = Path(sqlite_db.engine.url.database + "-wal")
    with sqlite_db.write() as s:
        audit(s, Actor("a"), "x", "e", 1)
    sqlite_db.dispose()  # the last connection: SQLite folds the log in and deletes it
    assert not wal.exists()
    again = Database(url)
    other = Database(url)  # a second engine in the same process, as a migration has
    try:
        for db in (again, other, again):
            with db.write() as s:
                audit(s, Actor("a"), "x", "e", 2)
        other.dispose()
        with again.write() as s:
            audit(s, Actor("a"), "x", "e", 3)
    finally:
        again.dispose()
        other.dispose()
    assert _audit_count(sqlite_db.engine.url.database) == 5
