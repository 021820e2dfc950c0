"""Is the audit trail whole? Its append-only triggers, and its hash chain link by link.

Used by ``fieldops check``. Each problem is one sentence naming the first
event where the chain breaks (the later ones cannot be trusted either way).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, Row, select, text

from fieldops import modules
from fieldops.db.models import AuditChainHead, AuditEvent
from fieldops.db.models.audit import GENESIS, body_hash, iso_utc

#: Tables whose rows are never changed or deleted (migrations 0002, 0009, 0010).
CORE_APPEND_ONLY = ("audit_event",)
"""The core's own append-only tables; each module names its own (``Module.append_only``)."""


def append_only_tables() -> tuple[str, ...]:
    return CORE_APPEND_ONLY + modules.append_only_tables()


def expected_triggers(dialect: str) -> dict[str, str]:
    """Trigger name -> the table it guards, as the migrations create them."""
    out: dict[str, str] = {}
    for table in append_only_tables():
        if dialect == "sqlite":
            out[f"{table}_no_update"] = table
            out[f"{table}_no_delete"] = table
        else:
            out[f"{table}_immutable"] = table
    out["audit_chain_no_delete"] = "audit_chain"
    return out


def trigger_problems(conn: Connection) -> list[str]:
    """Every append-only trigger that is missing (or, on PostgreSQL, disabled)."""
    dialect = conn.dialect.name
    expected = expected_triggers(dialect)
    if dialect == "sqlite":
        present = {
            r[0]: r[1]
            for r in conn.exec_driver_sql(
                "SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'"
            )
        }
    else:
        present = {
            r[0]: r[1]
            for r in conn.execute(
                text(
                    # This database's own schema only: another schema of the same
                    # server database (a copy made there, a workstation's tests) may
                    # hold the same tables with their triggers in place.
                    "SELECT t.tgname, c.relname FROM pg_trigger t "
                    "JOIN pg_class c ON c.oid = t.tgrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' "
                    "AND n.nspname = current_schema()"
                )
            )
        }
    return [
        f"the trigger that keeps {table} rows from being changed or deleted ({name}) is "
        "missing or disabled"
        for name, table in expected.items()
        if present.get(name) != table
    ]


def _events(conn: Connection, batch: int = 5000) -> Iterator[Row[Any]]:
    table = AuditEvent.__table__
    last: int | None = None
    while True:
        q = select(table).order_by(table.c.seq, table.c.id).limit(batch)
        if last is not None:
            q = q.where(table.c.seq > last)
        rows = conn.execute(q).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].seq


def _body_matches(row: Row[Any]) -> str:
    """What of the row differs from the body its hash covers; empty when nothing does."""
    try:
        body = json.loads(row.body)
    except ValueError:
        return "its stored text is not readable"
    if not isinstance(body, dict):
        return "its stored text is not an event"
    columns = {
        "seq": row.seq,
        "prev": row.prev_hash,
        "at": iso_utc(row.at),
        "actor": row.actor,
        "action": row.action,
        "entity": row.entity,
        "entity_id": row.entity_id,
        "before": row.before,
        "after": row.after,
        "reason": row.reason or "",
    }
    differ = [k for k, v in columns.items() if body.get(k) != v]
    return f"its {', '.join(differ)} differ from what was signed" if differ else ""


def chain_problems(conn: Connection) -> list[str]:
    """The first broken link of the chain, and a head that does not match its last event."""
    expected_seq, prev, last_id = 1, GENESIS, None
    for row in _events(conn):
        where = f"audit event #{row.id} (number {row.seq} in the trail)"
        if row.seq != expected_seq:
            what = "missing" if row.seq > expected_seq else "out of place or repeated"
            return [
                f"the audit trail is broken at {where}: number {expected_seq} was expected "
                f"(an event is {what})"
            ]
        if row.prev_hash != prev:
            return [
                f"the audit trail is broken at {where}: it does not follow the event before it "
                "(events were removed or reordered)"
            ]
        if body_hash(row.body) != row.hash:
            return [f"the audit trail is broken at {where}: its contents were changed"]
        differ = _body_matches(row)
        if differ:
            return [f"the audit trail is broken at {where}: {differ}"]
        expected_seq, prev, last_id = expected_seq + 1, row.hash, row.id
    head = conn.execute(select(AuditChainHead.seq, AuditChainHead.hash)).all()
    last_seq = expected_seq - 1
    if not head:
        return ["the audit trail has lost its head row (audit_chain)"]
    seq, digest = head[0]
    if seq != last_seq or digest != prev:
        ends = f"event #{last_id} (number {last_seq})" if last_id is not None else "no event"
        return [
            f"the audit trail ends at {ends} but its head records number {seq}: "
            "events at the end were removed or the head was changed"
        ]
    return []
