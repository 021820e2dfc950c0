"""Migration 0014 chains the events an existing database already has, in the order written."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import text

from fieldops.db.engine import Database
from fieldops.db.migrate import alembic_config, head_revision, upgrade
from fieldops.services.audit_verify import chain_problems, trigger_problems


def _migrate(db: Database, revision: str) -> None:
    cfg = alembic_config(db.url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()


def test_existing_events_are_chained_in_id_order_and_stay_append_only(tmp_path):
    db = Database(f"sqlite:///{tmp_path / 'old.db'}")
    _migrate(db, "0013")
    with db.engine.begin() as conn:
        for i, at in enumerate(
            ("2026-03-01 10:00:00", "2026-01-01 09:00:00", "2026-02-01 08:00:00")
        ):
            conn.execute(
                text(
                    "INSERT INTO audit_event (at, actor, action, entity, entity_id, before, "
                    "after, reason) VALUES (:at, 'olga', 'create', 'person', :i, NULL, "
                    ":after, '')"
                ),
                {"at": at, "i": i + 1, "after": f'{{"full_name": "Müller", "n": {i}}}'},
            )
    upgrade(db.engine, db.url)
    with db.engine.connect() as conn:
        rows = conn.execute(text("SELECT id, seq FROM audit_event ORDER BY id")).all()
        assert [r.seq for r in rows] == [1, 2, 3]
        assert chain_problems(conn) == []
        assert trigger_problems(conn) == []
        head = conn.execute(text("SELECT seq FROM audit_chain")).scalar_one()
        assert head == 3
    with pytest.raises(Exception, match="never changed"), db.engine.begin() as conn:
        conn.execute(text("UPDATE audit_event SET actor = 'x'"))
    with pytest.raises(Exception, match="never deleted"), db.engine.begin() as conn:
        conn.execute(text("DELETE FROM audit_chain"))
    db.dispose()
    assert head_revision() >= "0014"
