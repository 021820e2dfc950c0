"""vicious animals (city code 58-524): cases, declarations, incidents, notices, outcomes,
next steps and endings; every row but the case's working summary is append-only.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# What was decided and done is never changed or deleted, as the pound's dispositions
# (migration 0002, whose fieldops_immutable() PostgreSQL function these triggers reuse).
APPEND_ONLY = (
    "vicious_declaration",
    "vicious_incident",
    "vicious_notice",
    "vicious_outcome",
    "vicious_step",
    "vicious_step_done",
    "vicious_ending",
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
    op.create_table(
        "vicious_case",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("animal_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("opened_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("notice_deadline", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("next_step_due", sa.Date(), nullable=True),
        sa.Column("search_text", sa.String(length=800), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('refused', 'declared', 'served', 'removed', 'destroyed', 'not_complied', 'withdrawn', 'overturned')",
            name=op.f("ck_vicious_case_status"),
        ),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_vicious_case_animal_id_animal")
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["person.id"], name=op.f("fk_vicious_case_owner_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_case")),
    )
    op.create_index("ix_vicious_case_animal_id", "vicious_case", ["animal_id"], unique=False)
    op.create_index(
        "ix_vicious_case_deadline", "vicious_case", ["notice_deadline", "id"], unique=False
    )
    op.create_index("ix_vicious_case_opened", "vicious_case", ["opened_at", "id"], unique=False)
    op.create_index(
        "ix_vicious_case_status_deadline",
        "vicious_case",
        ["status", "notice_deadline", "id"],
        unique=False,
    )
    op.create_index("ix_vicious_case_step_due", "vicious_case", ["next_step_due"], unique=False)
    op.create_table(
        "vicious_declaration",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("decided_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("officer", sa.String(length=200), nullable=False),
        sa.Column("allowed", sa.Boolean(), nullable=False),
        sa.Column("grounds", sa.JSON(), nullable=False),
        sa.Column("findings", sa.JSON(), nullable=False),
        sa.Column("refusal_reasons", sa.JSON(), nullable=False),
        sa.Column("owner_address", sa.String(length=400), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"],
            ["vicious_case.id"],
            name=op.f("fk_vicious_declaration_case_id_vicious_case"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_declaration")),
        sa.UniqueConstraint("case_id", name=op.f("uq_vicious_declaration_case_id")),
    )
    op.create_table(
        "vicious_ending",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("decided_on", sa.Date(), nullable=False),
        sa.Column("authority", sa.String(length=300), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('withdrawn', 'overturned')", name=op.f("ck_vicious_ending_kind")
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["vicious_case.id"], name=op.f("fk_vicious_ending_case_id_vicious_case")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_ending")),
        sa.UniqueConstraint("case_id", name=op.f("uq_vicious_ending_case_id")),
    )
    op.create_table(
        "vicious_incident",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("occurred_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("place", sa.String(length=300), nullable=False),
        sa.Column("what", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"], ["vicious_case.id"], name=op.f("fk_vicious_incident_case_id_vicious_case")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_incident")),
    )
    op.create_index(
        op.f("ix_vicious_incident_case_id"), "vicious_incident", ["case_id"], unique=False
    )
    op.create_table(
        "vicious_notice",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=20), nullable=False),
        sa.Column("served_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("served_by", sa.String(length=200), nullable=False),
        sa.Column("place", sa.String(length=400), nullable=False),
        sa.Column("deadline", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "method IN ('in_person', 'posted')", name=op.f("ck_vicious_notice_method")
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["vicious_case.id"], name=op.f("fk_vicious_notice_case_id_vicious_case")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_notice")),
    )
    op.create_index(op.f("ix_vicious_notice_case_id"), "vicious_notice", ["case_id"], unique=False)
    op.create_table(
        "vicious_outcome",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("by_whom", sa.String(length=200), nullable=False),
        sa.Column("proof", sa.Text(), nullable=False),
        sa.Column("removed_to", sa.String(length=400), nullable=False),
        sa.Column("confirmed_how", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('destroyed', 'removed', 'not_complied')", name=op.f("ck_vicious_outcome_kind")
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["vicious_case.id"], name=op.f("fk_vicious_outcome_case_id_vicious_case")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_outcome")),
        sa.UniqueConstraint("case_id", name=op.f("uq_vicious_outcome_case_id")),
    )
    op.create_table(
        "vicious_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("due_on", sa.Date(), nullable=False),
        sa.Column("what", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('court_action', 'seizure', 'immediate_action')",
            name=op.f("ck_vicious_step_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["vicious_case.id"], name=op.f("fk_vicious_step_case_id_vicious_case")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_step")),
    )
    op.create_index(op.f("ix_vicious_step_case_id"), "vicious_step", ["case_id"], unique=False)
    op.create_table(
        "vicious_step_done",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("step_id", sa.Integer(), nullable=False),
        sa.Column("done_on", sa.Date(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["step_id"], ["vicious_step.id"], name=op.f("fk_vicious_step_done_step_id_vicious_step")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vicious_step_done")),
        sa.UniqueConstraint("step_id", name=op.f("uq_vicious_step_done_step_id")),
    )
    _create_immutability(op.get_bind().dialect.name)


def downgrade() -> None:
    _drop_immutability(op.get_bind().dialect.name)
    op.drop_table("vicious_step_done")
    op.drop_index(op.f("ix_vicious_step_case_id"), table_name="vicious_step")
    op.drop_table("vicious_step")
    op.drop_table("vicious_outcome")
    op.drop_index(op.f("ix_vicious_notice_case_id"), table_name="vicious_notice")
    op.drop_table("vicious_notice")
    op.drop_index(op.f("ix_vicious_incident_case_id"), table_name="vicious_incident")
    op.drop_table("vicious_incident")
    op.drop_table("vicious_ending")
    op.drop_table("vicious_declaration")
    op.drop_index("ix_vicious_case_step_due", table_name="vicious_case")
    op.drop_index("ix_vicious_case_status_deadline", table_name="vicious_case")
    op.drop_index("ix_vicious_case_opened", table_name="vicious_case")
    op.drop_index("ix_vicious_case_deadline", table_name="vicious_case")
    op.drop_index("ix_vicious_case_animal_id", table_name="vicious_case")
    op.drop_table("vicious_case")
