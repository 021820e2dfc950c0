"""The migration chain and the start-up upgrade."""

from __future__ import annotations

import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from fieldops.db.engine import Database
from fieldops.db.migrate import (
    SchemaTooNewError,
    backup_sqlite,
    current_revision,
    head_revision,
    script_directory,
    upgrade,
)
from fieldops.db.models import Base
from fieldops.db.search import include_object
from fieldops.services.setup import open_database


def test_revision_chain_is_linear():
    scripts = script_directory()
    assert len(scripts.get_heads()) == 1
    revisions = list(scripts.walk_revisions())
    for rev in revisions:
        assert not isinstance(rev.down_revision, tuple | list), f"{rev.revision} is a merge"
    assert [r for r in revisions if r.down_revision is None] == [revisions[-1]]


def test_upgraded_database_matches_the_models_exactly(db):
    with db.engine.connect() as conn:
        ctx = MigrationContext.configure(
            conn, opts={"include_object": include_object, "compare_type": True}
        )
        diff = compare_metadata(ctx, Base.metadata)
    assert diff == []


def test_downgrade_to_nothing_and_back(tmp_path):
    from alembic import command

    from fieldops.db.migrate import alembic_config

    url = f"sqlite:///{tmp_path / 'rt.db'}"
    db = Database(url)
    upgrade(db.engine, url)
    cfg = alembic_config(url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
        conn.commit()
    assert current_revision(db.engine) is None
    upgrade(db.engine, url)
    assert current_revision(db.engine) == head_revision()
    db.dispose()


def test_first_run_creates_the_database(tmp_path):
    path = tmp_path / "data" / "fieldops.db"
    opened = open_database(str(path))
    assert path.exists()
    assert opened.upgrade.before is None and opened.upgrade.backup is None
    assert current_revision(opened.db.engine) == head_revision()
    opened.db.dispose()


def test_newer_schema_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "future.db"
    opened = open_database(str(path))
    with opened.db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
    opened.db.dispose()
    with pytest.raises(SchemaTooNewError, match="newer"):
        open_database(str(path))
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT version_num FROM alembic_version").fetchone() == ("from_the_future",)
    raw.close()


def test_online_backup_includes_commits_still_in_the_wal(tmp_path):
    path = tmp_path / "live.db"
    db = Database(f"sqlite:///{path}")
    upgrade(db.engine, db.url)
    keep = db.engine.connect()  # an open connection keeps the WAL from being checkpointed away
    with db.engine.begin() as conn:
        conn.execute(text("INSERT INTO clinic (name, address, phone, licensed, created_at, "
                          "updated_at, version) VALUES ('North Vet', '', '', 1, "
                          "'2026-01-01', '2026-01-01', 1)"))
    assert (tmp_path / "live.db-wal").stat().st_size > 0
    copy = backup_sqlite(db.url, "0001")
    keep.close()
    raw = sqlite3.connect(copy)
    assert raw.execute("SELECT name FROM clinic").fetchall() == [("North Vet",)]
    raw.close()
    db.dispose()


def test_older_schema_is_backed_up_before_upgrade(tmp_path):
    from alembic import command

    from fieldops.db.migrate import alembic_config

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    db = Database(url)
    revisions = [r.revision for r in script_directory().walk_revisions()]
    if len(revisions) < 2:
        pytest.skip("only one revision so far: nothing older to upgrade from")
    cfg = alembic_config(url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revisions[-1])
        conn.commit()
    result = upgrade(db.engine, url)
    assert result.before == revisions[-1] and result.after == head_revision()
    assert result.backup is not None and result.backup.exists()
    raw = sqlite3.connect(result.backup)
    assert raw.execute("SELECT version_num FROM alembic_version").fetchone() == (revisions[-1],)
    raw.close()
    db.dispose()
