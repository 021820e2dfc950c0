"""call actions: citation voids and corrections, follow-ups done, links to other modules' records.

A voided citation keeps its row (voided_at, voided_by, void_reason); a correction
is an audit event. A follow-up done and a link to another module's record (a bite
report or a vicious case opened from the call) are written once and never changed
(append-only, migration 0002's fieldops_immutable() on PostgreSQL).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-01 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

APPEND_ONLY = ("call_follow_up", "call_link")

OUTCOMES = (
    "gone_on_arrival",
    "returned_to_owner",
    "impounded",
    "warned",
    "cited",
    "referred_cd",
    "no_violation",
)


def _create_immutability(dialect: str) -> None:
    for table in APPEND_ONLY:
        if dialect == "sqlite":
            for event in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} rows are never changed or deleted'); END"
                )
        elif dialect == "postgresql":
            op.execute(
                f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
            )


def _drop_immutability(dialect: str) -> None:
    for table in APPEND_ONLY:
        if dialect == "sqlite":
            for event in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{event}")
        elif dialect == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_immutable ON {table}")


def upgrade() -> None:
    op.add_column(
        "call_citation",
        sa.Column("voided_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
    )
    op.add_column(
        "call_citation",
        sa.Column("voided_by", sa.String(length=100), server_default="", nullable=False),
    )
    op.add_column(
        "call_citation", sa.Column("void_reason", sa.Text(), server_default="", nullable=False)
    )
    op.create_table(
        "call_follow_up",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("dispatch_id", sa.Integer(), nullable=False),
        sa.Column("due_on", sa.Date(), nullable=False),
        sa.Column("done_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("done_by", sa.String(length=100), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=True),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN (" + ", ".join(f"'{o}'" for o in OUTCOMES) + ")",
            name=op.f("ck_call_follow_up_outcome"),
        ),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_follow_up_call_id_field_call")
        ),
        sa.ForeignKeyConstraint(
            ["dispatch_id"],
            ["call_dispatch.id"],
            name=op.f("fk_call_follow_up_dispatch_id_call_dispatch"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_follow_up")),
        sa.UniqueConstraint("dispatch_id", "due_on", name="uq_call_follow_up_once"),
    )
    op.create_index(op.f("ix_call_follow_up_call_id"), "call_follow_up", ["call_id"], unique=False)
    op.create_table(
        "call_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("module", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=False),
        sa.Column("linked_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("linked_by", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_link_call_id_field_call")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_link")),
        sa.UniqueConstraint("call_id", "module", "kind", "record_id", name="uq_call_link_once"),
    )
    _create_immutability(op.get_bind().dialect.name)


def downgrade() -> None:
    _drop_immutability(op.get_bind().dialect.name)
    op.drop_table("call_link")
    op.drop_index(op.f("ix_call_follow_up_call_id"), table_name="call_follow_up")
    op.drop_table("call_follow_up")
    op.drop_column("call_citation", "void_reason")
    op.drop_column("call_citation", "voided_by")
    op.drop_column("call_citation", "voided_at")
