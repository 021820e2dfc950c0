"""A migration that fails half-way leaves the database as it was and its backup sound."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import stat

import pytest
from alembic import command
from sqlalchemy import text

from fieldops.backups import list_backups
from fieldops.db import migrate
from fieldops.db.engine import Database
from fieldops.db.migrate import alembic_config, script_directory
from fieldops.services.setup import open_database


def _older_database(path) -> str:
    """A database one revision behind, with rows in it; returns that revision."""
    older = [r.revision for r in script_directory().walk_revisions()][1]
    db = Database(f"sqlite:///{path}")
    cfg = alembic_config(db.url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, older)
        conn.commit()
    with db.engine.begin() as conn:
        for i in range(50):
            conn.execute(
                text(
                    "INSERT INTO clinic (name, address, phone, licensed, created_at, "
                    "updated_at, version) VALUES (:n, '', '', 1, '2026-01-01', '2026-01-01', 1)"
                ),
                {"n": f"Clinic {i}"},
            )
    db.dispose()
    return older


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_migration_failing_mid_upgrade_leaves_the_file_byte_identical_and_the_backup_valid(
    tmp_path, monkeypatch
):
    path = tmp_path / "fieldops.db"
    older = _older_database(path)
    before = _digest(path)
    real_upgrade = command.upgrade

    def upgrade_then_fail(cfg, revision):
        real_upgrade(cfg, revision)  # every step written ...
        raise RuntimeError("the disk went away half-way")  # ... and then the failure

    monkeypatch.setattr(migrate.command, "upgrade", upgrade_then_fail)
    with pytest.raises(RuntimeError, match="half-way"):
        open_database(str(path))
    assert _digest(path) == before  # not one byte changed
    assert not (tmp_path / "fieldops.db-wal").exists() or _committed_nothing(path, older)
    [backup] = list_backups(tmp_path / "backups", "fieldops")
    assert backup.before_upgrade == older
    assert stat.S_IMODE(os.stat(backup.path).st_mode) == 0o600
    con = sqlite3.connect(backup.path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (older,)
        names = [r[0] for r in con.execute("SELECT name FROM clinic ORDER BY id")]
    finally:
        con.close()
    assert names == [f"Clinic {i}" for i in range(50)]
    monkeypatch.undo()
    opened = open_database(str(path))  # the next start upgrades it for real
    assert opened.upgrade.before == older and opened.upgrade.backup is not None
    opened.db.dispose()


def _committed_nothing(path, older) -> bool:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT version_num FROM alembic_version").fetchone() == (older,)
    finally:
        con.close()


def test_a_damaged_database_is_not_upgraded(tmp_path):
    # Refused in words (DamagedDatabaseError here; a start-up quick check may say it first).
    from fieldops.errors import UserError

    path = tmp_path / "fieldops.db"
    _older_database(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size // 2 - (size // 2) % 4096)
        f.write(random.Random(13).randbytes(4096))  # the same noise every run
    before = _digest(path)
    with pytest.raises(UserError, match="damaged"):
        open_database(str(path))
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fieldops.db"]  # no copy of it
