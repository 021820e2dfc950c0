"""``fieldops backup`` and ``fieldops restore`` as an administrator runs them."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import stat
import subprocess
import sys

import pytest

from fieldops.backups import list_backups
from fieldops.failures import EXIT_CODES
from fieldops.services.context import os_username
from fieldops.services.setup import open_database
from fieldops.services.signin import create_first_admin


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fieldops.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=os.environ.copy(),
        timeout=120,
    )


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _clinics(path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[0] for r in con.execute("SELECT name FROM clinic ORDER BY id")]
    finally:
        con.close()


def _add_clinic(path, name: str) -> None:
    con = sqlite3.connect(path)
    con.execute(
        "INSERT INTO clinic (name, address, phone, licensed, created_at, updated_at, version) "
        "VALUES (?, '', '', 1, '2026-01-01', '2026-01-01', 1)",
        (name,),
    )
    con.commit()
    con.close()


@pytest.fixture
def database(tmp_path):
    """A database whose administrator is this computer login (as ``fieldops staff`` makes one)."""
    path = tmp_path / "data" / "fieldops.db"
    _first_admin(path, os_username())
    _add_clinic(path, "Before the backup")
    return path


def _first_admin(path, login: str) -> None:
    opened = open_database(str(path))
    try:
        create_first_admin(opened.db, "boss", "The Boss", "a long enough password", os_user=login)
    finally:
        opened.db.dispose()


def test_backup_then_restore(database):
    made = run("--db", str(database), "backup")
    assert made.returncode == 0, made.stderr
    [backup] = list_backups(database.parent / "backups", "fieldops")
    assert str(backup.path) in made.stdout
    assert stat.S_IMODE(os.stat(backup.path).st_mode) == 0o600
    _add_clinic(database, "After the backup")
    back = run("--db", str(database), "restore", str(backup.path))
    assert back.returncode == 0, back.stderr
    assert _clinics(database) == ["Before the backup"]
    [aside] = database.parent.glob("fieldops-before-restore-*.db")
    assert str(aside) in back.stdout and _clinics(aside) == [
        "Before the backup",
        "After the backup",
    ]
    con = sqlite3.connect(database)  # the restored trail says who restored what
    actor, after = con.execute(
        "SELECT actor, after FROM audit_event WHERE entity = 'database' AND action = 'restore'"
    ).fetchone()
    con.close()
    assert actor == "boss" and json.loads(after)["kept_aside"] == str(aside)
    assert json.loads(after)["backup_sha256"] == _digest(backup.path)
    assert run("--db", str(database), "check").stdout.strip() == "ok"


def test_backup_to_a_folder_is_one_copy_and_deletes_nothing_there(database, tmp_path):
    usb = tmp_path / "usb"
    usb.mkdir()
    old = usb / "fieldops-20200101T000000Z.db"  # named as a backup, years old
    old.write_bytes(b"")
    made = run("--db", str(database), "backup", "--to", str(usb))
    assert made.returncode == 0, made.stderr
    assert old.exists() and len(list(usb.iterdir())) == 2
    assert not (database.parent / "backups").exists()


def test_backup_refusals_in_one_line_and_nothing_made(database, tmp_path):
    missing = run("--db", str(tmp_path / "nowhere" / "fieldops.db"), "backup")
    assert missing.returncode == EXIT_CODES["missing"] and "no database" in missing.stderr.lower()
    assert not (tmp_path / "nowhere").exists()
    no_folder = run("--db", str(database), "backup", "--to", str(tmp_path / "nope"))
    assert no_folder.returncode == 1 and "no such folder" in no_folder.stderr
    for result in (missing, no_folder):
        assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (database.parent / "backups").exists()


def test_backup_needs_an_administrators_login(tmp_path):
    path = tmp_path / "fieldops.db"
    _first_admin(path, "somebody-else")
    refused = run("--db", str(path), "backup")
    assert refused.returncode == 1 and "not mapped" in refused.stderr
    assert not (tmp_path / "backups").exists()


def _damage(path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size // 2 - (size // 2) % 4096)
        f.write(random.Random(13).randbytes(4096))


def test_restore_refusals_change_nothing(database, tmp_path):
    assert run("--db", str(database), "backup").returncode == 0
    [good] = list_backups(database.parent / "backups", "fieldops")
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(good.path.read_bytes())
    for i in range(3):
        _add_clinic(damaged, f"{i}" * 2000)  # enough pages that the middle one is used
    _damage(damaged)
    newer = tmp_path / "newer.db"
    newer.write_bytes(good.path.read_bytes())
    con = sqlite3.connect(newer)
    con.execute("UPDATE alembic_version SET version_num = 'from_the_future'")
    con.commit()
    con.close()
    before = _digest(database)
    for bad, words in [
        (damaged, ("damaged", "not a database")),
        (newer, ("newer FieldOps",)),
        (tmp_path / "missing.db", ("no backup file",)),
    ]:
        result = run("--db", str(database), "restore", str(bad))
        assert result.returncode == 1, result.stdout
        assert any(w in result.stderr for w in words), result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
        assert _digest(database) == before
    assert sorted(p.name for p in database.parent.iterdir()) == ["backups", "fieldops.db"]


def test_restore_is_refused_while_another_process_has_the_database_open(database):
    assert run("--db", str(database), "backup").returncode == 0
    [good] = list_backups(database.parent / "backups", "fieldops")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('PRAGMA journal_mode=WAL'); c.execute('SELECT 1 FROM clinic').fetchall(); "
            "print('open', flush=True); sys.stdin.read()",
            str(database),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        result = run("--db", str(database), "restore", str(good.path))
    finally:
        holder.communicate("", timeout=30)
    assert result.returncode == EXIT_CODES["locked"] and "open in FieldOps" in result.stderr
    assert not list(database.parent.glob("fieldops-before-restore-*"))


def test_backup_of_a_damaged_database_names_the_newest_backup(database):
    assert run("--db", str(database), "backup").returncode == 0
    [good] = list_backups(database.parent / "backups", "fieldops")
    for i in range(3):
        _add_clinic(database, f"{i}" * 2000)
    _damage(database)
    result = run("--db", str(database), "backup")
    assert result.returncode == EXIT_CODES["damaged"] and "Traceback" not in result.stderr
    assert "damaged" in result.stderr and str(good.path) in result.stderr
    assert list_backups(database.parent / "backups", "fieldops") == [good]


def test_going_back_after_a_newer_fieldops_upgraded_the_database(database):
    assert run("--db", str(database), "backup").returncode == 0
    [good] = list_backups(database.parent / "backups", "fieldops")
    con = sqlite3.connect(database)  # as a newer FieldOps would have left it
    con.execute("UPDATE alembic_version SET version_num = 'from_the_future'")
    con.commit()
    con.close()
    back = run("--db", str(database), "restore", str(good.path))
    assert back.returncode == 0, back.stderr
    assert "cannot be read to check your account" in back.stderr
    [aside] = database.parent.glob("fieldops-before-restore-*.db")
    con = sqlite3.connect(aside)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == ("from_the_future",)
    con.close()
    assert run("--db", str(database), "check").stdout.strip() == "ok"
