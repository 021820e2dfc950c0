"""the audit trail's hash chain: sequence, previous hash, canonical body, chain head

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 10:00:00

Existing events are chained in id order (the order they were written). The
append-only triggers on ``audit_event`` are lifted only for that one pass and
put back as they were. The chain's head (``audit_chain``, one row) may be
updated but never deleted.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

import fieldops.db.types
from fieldops.db.models.audit import GENESIS, body_hash, event_body

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_events = sa.table(
    "audit_event",
    sa.column("id", sa.Integer()),
    sa.column("at", fieldops.db.types.UTCDateTime(timezone=True)),
    sa.column("actor", sa.String()),
    sa.column("action", sa.String()),
    sa.column("entity", sa.String()),
    sa.column("entity_id", sa.Integer()),
    sa.column("before", sa.JSON()),
    sa.column("after", sa.JSON()),
    sa.column("reason", sa.Text()),
    sa.column("seq", sa.Integer()),
    sa.column("prev_hash", sa.String()),
    sa.column("hash", sa.String()),
    sa.column("body", sa.Text()),
)
_CHAIN_COLUMNS = ("seq", "prev_hash", "hash", "body")


def _lift_append_only(dialect: str) -> None:
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS audit_event_no_update")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_event_immutable ON audit_event")


def _restore_append_only(dialect: str) -> None:
    # As migration 0002 made them.
    if dialect == "sqlite":
        op.execute(
            "CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event "
            "BEGIN SELECT RAISE(ABORT, 'audit_event rows are never changed or deleted'); END"
        )
    elif dialect == "postgresql":
        op.execute(
            "CREATE TRIGGER audit_event_immutable BEFORE UPDATE OR DELETE ON audit_event "
            "FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
        )


def _chain_existing(bind: sa.Connection) -> tuple[int, str]:
    """Chain every existing event in id order; returns the head (last seq, last hash)."""
    seq, prev = 0, GENESIS
    last_id = 0
    while True:
        rows = bind.execute(
            sa.select(_events).where(_events.c.id > last_id).order_by(_events.c.id).limit(5000)
        ).all()
        if not rows:
            return seq, prev
        updates: list[dict[str, Any]] = []
        for r in rows:
            seq += 1
            body = event_body(
                seq=seq,
                prev_hash=prev,
                at=r.at,
                actor=r.actor,
                action=r.action,
                entity=r.entity,
                entity_id=r.entity_id,
                before=r.before,
                after=r.after,
                reason=r.reason or "",
            )
            digest = body_hash(body)
            updates.append({"k": r.id, "s": seq, "p": prev, "h": digest, "b": body})
            prev = digest
            last_id = r.id
        bind.execute(
            _events.update()
            .where(_events.c.id == sa.bindparam("k"))
            .values(
                seq=sa.bindparam("s"),
                prev_hash=sa.bindparam("p"),
                hash=sa.bindparam("h"),
                body=sa.bindparam("b"),
            ),
            updates,
        )


def upgrade() -> None:
    bind = op.get_bind()
    dialect = bind.dialect.name
    op.create_table(
        "audit_chain",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_audit_chain_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_chain")),
    )
    # Plain add_column, not a batch: a batch recreates the table and drops its triggers.
    # The server defaults only let SQLite add NOT NULL columns to existing rows.
    op.add_column("audit_event", sa.Column("seq", sa.Integer(), server_default="0", nullable=False))
    for name in ("prev_hash", "hash"):
        op.add_column(
            "audit_event",
            sa.Column(name, sa.String(length=64), server_default="", nullable=False),
        )
    op.add_column("audit_event", sa.Column("body", sa.Text(), server_default="", nullable=False))
    _lift_append_only(dialect)
    seq, head = _chain_existing(bind)
    _restore_append_only(dialect)
    if dialect == "postgresql":
        # No defaults on the server: a row inserted without its chain fields is refused.
        for name in _CHAIN_COLUMNS:
            op.alter_column("audit_event", name, server_default=None)
    op.create_index("ix_audit_event_seq", "audit_event", ["seq"], unique=True)
    bind.execute(
        sa.text("INSERT INTO audit_chain (id, seq, hash) VALUES (1, :s, :h)"),
        {"s": seq, "h": head},
    )
    if dialect == "sqlite":
        op.execute(
            "CREATE TRIGGER audit_chain_no_delete BEFORE DELETE ON audit_chain "
            "BEGIN SELECT RAISE(ABORT, 'the audit chain head is never deleted'); END"
        )
    elif dialect == "postgresql":
        op.execute(
            "CREATE FUNCTION fieldops_chain_head_kept() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'the audit chain head is never deleted'; END $$ LANGUAGE plpgsql"
        )
        op.execute(
            "CREATE TRIGGER audit_chain_no_delete BEFORE DELETE ON audit_chain "
            "FOR EACH ROW EXECUTE FUNCTION fieldops_chain_head_kept()"
        )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS audit_chain_no_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_chain_no_delete ON audit_chain")
        op.execute("DROP FUNCTION IF EXISTS fieldops_chain_head_kept()")
    op.drop_table("audit_chain")
    op.drop_index("ix_audit_event_seq", table_name="audit_event")
    # Plain drops (SQLite 3.35+), not a batch: a batch would drop the append-only triggers.
    for name in reversed(_CHAIN_COLUMNS):
        op.drop_column("audit_event", name)
