"""Restoring: a drill from each rotation slot, and every refusal leaving everything as it was."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
from datetime import UTC, datetime

import pytest
from accounts_support import enrol

from fieldops.backups import list_backups, make_backup
from fieldops.db.engine import Database
from fieldops.db.migrate import head_revision, script_directory
from fieldops.restore import DatabaseInUseError, RestoreRefusedError, restore
from fieldops.services.audit_verify import chain_problems, trigger_problems
from fieldops.services.context import Actor
from fieldops.services.people import PersonInput, create_person

CLERK = Actor("opal", "operator", "Opal Operator")
NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
# (day, slot it ends up in; None: rotated away by a newer one in the same slot)
DAYS = [
    (datetime(2026, 10, 14, 12, tzinfo=UTC), None),  # October's newest is the 15th
    (datetime(2026, 10, 15, 12, tzinfo=UTC), "monthly"),
    (datetime(2026, 11, 10, 12, tzinfo=UTC), None),  # the week of Nov 9 keeps the 11th
    (datetime(2026, 11, 11, 12, tzinfo=UTC), "weekly"),
    (datetime(2026, 11, 27, 12, tzinfo=UTC), "daily"),
    (datetime(2026, 12, 1, 12, tzinfo=UTC), "daily"),
]


def _names(path) -> list[str]:
    db = Database(f"sqlite:///{path}")
    try:
        with db.engine.connect() as conn:
            return [r[0] for r in conn.exec_driver_sql("SELECT full_name FROM person ORDER BY id")]
    finally:
        db.dispose()


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def rotated(tmp_path, sqlite_template):
    """One person recorded each day of DAYS, and a backup (fake clock) after each."""
    path = tmp_path / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    enrol(db, CLERK)
    made = {}
    for day, _slot in DAYS:
        create_person(db, CLERK, PersonInput(full_name=f"Seen {day:%Y-%m-%d}"))
        made[day] = make_backup(path, now=day, tz=UTC).path
    create_person(db, CLERK, PersonInput(full_name="After the last backup"))
    db.dispose()
    return path, made


@pytest.mark.parametrize("slot", ["daily", "weekly", "monthly"])
def test_restore_drill_from_each_rotation_slot(rotated, slot):
    path, made = rotated
    kept = {b.path for b in list_backups(path.parent / "backups", "fieldops")}
    for day, in_slot in DAYS:
        assert (made[day] in kept) == (in_slot is not None), day
    day = max(d for d, s in DAYS if s == slot)
    result = restore(path, made[day])
    expected = [f"Seen {d:%Y-%m-%d}" for d, _ in DAYS if d <= day]
    assert _names(path) == expected  # that day's records, and nothing recorded later
    assert result.kept_aside is not None
    assert "After the last backup" in _names(result.kept_aside)  # the replaced one, whole
    assert stat.S_IMODE(os.stat(result.kept_aside).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert str(result.kept_aside) in result.sentence()
    db = Database(f"sqlite:///{path}")
    with db.engine.connect() as conn:
        assert chain_problems(conn) == [] and trigger_problems(conn) == []
    db.dispose()
    assert made[day].exists()  # the backup itself stays where it was


def test_restore_is_refused_while_the_database_is_open(rotated):
    path, made = rotated
    before = _digest(path)
    db = Database(f"sqlite:///{path}")
    reader = db.engine.connect()  # a workstation with the database open, saving nothing
    reader.exec_driver_sql("SELECT count(*) FROM person").fetchall()
    try:
        with pytest.raises(DatabaseInUseError, match="open in FieldOps"):
            restore(path, made[DAYS[-1][0]])
    finally:
        reader.close()
        db.dispose()
    assert _digest(path) == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["backups", "fieldops.db"]


def test_restore_is_refused_while_a_write_lock_is_held(rotated):
    path, made = rotated
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseInUseError):
            restore(path, made[DAYS[-1][0]])
    finally:
        con.rollback()
        con.close()
    assert "After the last backup" in _names(path)


def _damage(path) -> None:
    import random

    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size // 2 - (size // 2) % 4096)
        f.write(random.Random(13).randbytes(4096))


def test_a_damaged_newer_or_foreign_backup_is_refused_and_nothing_changes(rotated, tmp_path):
    path, made = rotated
    before = _digest(path)
    damaged = tmp_path / "damaged.db"
    shutil.copyfile(made[DAYS[-1][0]], damaged)
    _damage(damaged)
    newer = tmp_path / "newer.db"
    shutil.copyfile(made[DAYS[-1][0]], newer)
    con = sqlite3.connect(newer)
    con.execute("UPDATE alembic_version SET version_num = 'from_the_future'")
    con.commit()
    con.close()
    foreign = tmp_path / "foreign.db"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    noise = tmp_path / "noise.db"
    noise.write_bytes(b"not a database at all" * 100)
    for bad, words in [
        (damaged, "damaged"),
        (newer, "newer FieldOps"),
        (foreign, "not a FieldOps backup"),
        (noise, "not a database"),
        (tmp_path / "missing.db", "no backup file"),
        (path, "the database itself"),
    ]:
        with pytest.raises(RestoreRefusedError, match=words):
            restore(path, bad)
        assert _digest(path) == before, bad
    leftovers = [p.name for p in path.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_a_backup_with_a_broken_audit_trail_is_refused(rotated, tmp_path):
    path, made = rotated
    before = _digest(path)
    tampered = tmp_path / "tampered.db"
    shutil.copyfile(made[DAYS[-1][0]], tampered)
    con = sqlite3.connect(tampered)
    con.execute("DROP TRIGGER audit_event_no_update")
    con.execute("UPDATE audit_event SET actor = 'someone else' WHERE seq = 2")
    con.commit()
    con.close()
    with pytest.raises(RestoreRefusedError, match="audit"):
        restore(path, tampered)
    assert _digest(path) == before


def test_an_older_backup_is_restored_and_upgraded(tmp_path):
    from alembic import command

    from fieldops.db.migrate import alembic_config

    older = [r.revision for r in script_directory().walk_revisions()][1]
    backup = tmp_path / "old-copy.db"
    db = Database(f"sqlite:///{backup}")
    cfg = alembic_config(db.url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, older)
        conn.commit()
    db.dispose()
    target = tmp_path / "live" / "fieldops.db"
    target.parent.mkdir()
    result = restore(target, backup)  # no database there yet: nothing to keep aside
    assert result.kept_aside is None and result.upgraded
    assert result.revision_of_backup == older and result.revision == head_revision()
    con = sqlite3.connect(target)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (head_revision(),)
    con.close()
    assert not list((tmp_path / "live").glob("backups"))  # the backup is the copy: none made


def _restore_events(path) -> list[tuple[str, dict]]:
    import json

    con = sqlite3.connect(path)
    try:
        rows = con.execute(
            "SELECT actor, after FROM audit_event WHERE entity = 'database' "
            "AND action = 'restore' ORDER BY seq"
        ).fetchall()
    finally:
        con.close()
    return [(actor, json.loads(after)) for actor, after in rows]


def test_two_restores_in_one_second_keep_both_replaced_databases(rotated):
    path, made = rotated
    at = datetime(2026, 12, 4, 12, 0, 0, tzinfo=UTC)
    first = restore(path, made[DAYS[-1][0]], now=at)
    second = restore(path, made[DAYS[1][0]], now=at)  # the same stamp: another name
    assert first.kept_aside is not None and second.kept_aside is not None
    assert first.kept_aside != second.kept_aside and first.kept_aside.exists()
    assert sorted(path.parent.glob(f"{path.stem}-before-restore-*")) == sorted(
        [first.kept_aside, second.kept_aside]
    )
    assert "After the last backup" in _names(first.kept_aside)  # the original, whole
    assert _names(second.kept_aside) == [f"Seen {d:%Y-%m-%d}" for d, _ in DAYS]
    assert stat.S_IMODE(os.stat(second.kept_aside).st_mode) == 0o600
    # Each restored trail names the copy its own restore set aside.
    assert _restore_events(path)[-1][1]["kept_aside"] == str(second.kept_aside)


def test_a_restore_leaves_an_event_in_the_restored_audit_trail(sqlite_db, admin, tmp_path):
    from fieldops.backups import write_backup
    from fieldops.db.models import AuditChainHead
    from fieldops.services.backups import restore_database
    from fieldops.services.context import os_username
    from fieldops.services.setup import sqlite_file
    from fieldops.services.staff import set_staff

    path = sqlite_file(sqlite_db.url)
    assert path is not None
    (tmp_path / "bk").mkdir()
    backup = write_backup(path, tmp_path / "bk", taken_at=datetime.now(UTC)).path
    with sqlite_db.read() as s:
        seq_in_backup = s.get(AuditChainHead, 1).seq
    set_staff(sqlite_db, admin, "made-after-the-backup", "operator")
    result = restore_database(sqlite_db, admin, backup)
    [(actor, after)] = _restore_events(path)
    assert actor == admin.username
    assert after["backup"] == backup.name and after["backup_sha256"] == _digest(backup)
    assert after["kept_aside"] == str(result.kept_aside) and after["os_user"] == os_username()
    db = Database(f"sqlite:///{path}")
    try:
        with db.read() as s:
            assert s.get(AuditChainHead, 1).seq == seq_in_backup + 1
        with db.engine.connect() as conn:
            assert chain_problems(conn) == [] and trigger_problems(conn) == []
    finally:
        db.dispose()
