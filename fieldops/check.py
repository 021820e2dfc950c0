"""``fieldops check``: is this database sound?

The shared checks are here (schema, SQLite's own, search indexes, the
registry's audit trail: its append-only triggers, its hash chain, and every
audited record against the last state its events describe,
``fieldops.services.audit_verify`` and ``audit_records``); every installed module adds its own
(``fieldops.modules.Module.checks``)."""

from __future__ import annotations

from sqlalchemy import Connection, text

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.db.migrate import current_revision, head_revision
from fieldops.rules import plural
from fieldops.services.audit_records import record_problems
from fieldops.services.audit_verify import chain_problems, trigger_problems


def integrity_problems(db: Database) -> list[str]:
    """Everything wrong with the database, in words; empty when all is well."""
    problems: list[str] = []
    rev, head = current_revision(db.engine), head_revision()
    if rev != head:
        problems.append(f"schema is at {rev or 'nothing'}, expected {head}")
    with db.engine.connect() as conn:
        if db.dialect == "sqlite":
            result = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check")]
            if result != ["ok"]:
                problems += [f"integrity: {r}" for r in result]
            for row in conn.exec_driver_sql("PRAGMA foreign_key_check"):
                problems.append(f"broken reference: {row[0]} row {row[1]} -> {row[2]}")
            if rev == head:
                for fts in ("person_fts", "animal_fts"):
                    try:
                        conn.exec_driver_sql(f"INSERT INTO {fts}({fts}) VALUES ('integrity-check')")
                    except Exception as exc:  # corrupt index: say which
                        problems.append(f"search index {fts} is damaged: {exc}")
            conn.rollback()
        if rev == head:
            problems += _unaudited(conn)
            problems += trigger_problems(conn)
            problems += chain_problems(conn)
            problems += record_problems(conn)
            for m in modules.installed_modules():
                if m.checks is not None:
                    problems += m.checks(conn)
    return problems


def _unaudited(conn: Connection) -> list[str]:
    """Records with no audit event for their creation: a change that bypassed the services."""
    out = []
    for table in ("person", "animal"):
        n = conn.execute(
            text(
                f"SELECT count(*) FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
                f"WHERE e.entity = '{table}' AND e.entity_id = t.id AND e.action = 'create')"
            )
        ).scalar_one()
        if n:
            out.append(f"{plural(n, table + ' record')} with no audit trail of creation")
    return out
