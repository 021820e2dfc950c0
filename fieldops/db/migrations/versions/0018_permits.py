"""chicken and animal fancier's permits (58-533(a),(b)): permits, applications, issues,
animal lists, incidents, reviews, notices, appeals and their decisions, revocations; every
row but the permit's working summary is append-only.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

# What was applied for, decided and done is never changed or deleted, as the pound's
# dispositions (migration 0002, whose fieldops_immutable() PostgreSQL function these reuse).
APPEND_ONLY = (
    "permit_application",
    "permit_issue",
    "permit_animal_list",
    "permit_incident",
    "permit_review",
    "permit_notice",
    "permit_appeal",
    "permit_appeal_decision",
    "permit_revocation",
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
        "permit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("holder_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=400), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("first_year", sa.Integer(), nullable=True),
        sa.Column("issued_on", sa.Date(), nullable=True),
        sa.Column("expires_on", sa.Date(), nullable=True),
        sa.Column("list_update_due", sa.Date(), nullable=True),
        sa.Column("appeal_by", sa.Date(), nullable=True),
        sa.Column("search_text", sa.String(length=800), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("kind IN ('chicken', 'fancier')", name=op.f("ck_permit_kind")),
        sa.CheckConstraint(
            "status IN ('applied', 'issued', 'refused', 'revoked', 'not_renewed', 'appeal_pending')",
            name=op.f("ck_permit_status"),
        ),
        sa.ForeignKeyConstraint(
            ["holder_id"], ["person.id"], name=op.f("fk_permit_holder_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit")),
    )
    op.create_index("ix_permit_appeal_by", "permit", ["appeal_by"], unique=False)
    op.create_index("ix_permit_expires", "permit", ["expires_on", "id"], unique=False)
    op.create_index("ix_permit_holder_id", "permit", ["holder_id"], unique=False)
    op.create_index(
        "ix_permit_kind_status_expires",
        "permit",
        ["kind", "status", "expires_on", "id"],
        unique=False,
    )
    op.create_index("ix_permit_list_update_due", "permit", ["list_update_due"], unique=False)
    op.create_table(
        "permit_animal_list",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("changed_on", sa.Date(), nullable=False),
        sa.Column("updated_on", sa.Date(), nullable=True),
        sa.Column("due_by", sa.Date(), nullable=False),
        sa.Column("animals", sa.JSON(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('change', 'update')", name=op.f("ck_permit_animal_list_kind")),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_animal_list_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_animal_list")),
    )
    op.create_index(
        op.f("ix_permit_animal_list_permit_id"), "permit_animal_list", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_application",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("first", sa.Boolean(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("applied_on", sa.Date(), nullable=False),
        sa.Column("hoa_exists", sa.Boolean(), nullable=True),
        sa.Column("hoa_consent", sa.Boolean(), nullable=True),
        sa.Column("hoa_consent_on", sa.Date(), nullable=True),
        sa.Column("hens", sa.Integer(), nullable=True),
        sa.Column("roosters", sa.Integer(), nullable=True),
        sa.Column("setback_feet", sa.Integer(), nullable=True),
        sa.Column("neighbour_consent", sa.Boolean(), nullable=True),
        sa.Column("application_fee", fieldops.db.types.Money(), nullable=False),
        sa.Column("annual_fee", fieldops.db.types.Money(), nullable=False),
        sa.Column("late_fee", fieldops.db.types.Money(), nullable=False),
        sa.Column("total", fieldops.db.types.Money(), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("due_by", sa.Date(), nullable=True),
        sa.Column("fee_why", sa.JSON(), nullable=False),
        sa.Column("refused", sa.Boolean(), nullable=False),
        sa.Column("problems", sa.JSON(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_application_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_application")),
    )
    op.create_index(
        op.f("ix_permit_application_permit_id"), "permit_application", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_incident",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("occurred_on", sa.Date(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("ending", sa.String(length=10), nullable=False),
        sa.Column("citation_number", sa.String(length=40), nullable=False),
        sa.Column("distance_feet", sa.Integer(), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "ending IN ('warning', 'citation', 'none')", name=op.f("ck_permit_incident_ending")
        ),
        sa.CheckConstraint(
            "kind IN ('attack', 'noise', 'at_large', 'waste', 'licensing', 'number', 'other')",
            name=op.f("ck_permit_incident_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_incident_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_incident")),
    )
    op.create_index(
        op.f("ix_permit_incident_permit_id"), "permit_incident", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_review",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("review_day", sa.Date(), nullable=False),
        sa.Column("purpose", sa.String(length=12), nullable=False),
        sa.Column("renew", sa.Boolean(), nullable=False),
        sa.Column("counted", sa.JSON(), nullable=False),
        sa.Column("incident_ids", sa.JSON(), nullable=False),
        sa.Column("may_reapply_on", sa.Date(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "purpose IN ('renewal', 'revocation')", name=op.f("ck_permit_review_purpose")
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_review_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_review")),
    )
    op.create_index(
        op.f("ix_permit_review_permit_id"), "permit_review", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_revocation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("revoked_on", sa.Date(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_revocation_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_revocation")),
    )
    op.create_index(
        op.f("ix_permit_revocation_permit_id"), "permit_revocation", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_issue",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("application_id", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("issued_on", sa.Date(), nullable=False),
        sa.Column("expires_on", sa.Date(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["application_id"],
            ["permit_application.id"],
            name=op.f("fk_permit_issue_application_id_permit_application"),
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_issue_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_issue")),
        sa.UniqueConstraint("application_id", name=op.f("uq_permit_issue_application_id")),
    )
    op.create_index(op.f("ix_permit_issue_permit_id"), "permit_issue", ["permit_id"], unique=False)
    op.create_table(
        "permit_notice",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("review_id", sa.Integer(), nullable=False),
        sa.Column("mailed_on", sa.Date(), nullable=False),
        sa.Column("article_number", sa.String(length=40), nullable=False),
        sa.Column("appeal_by", sa.Date(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_notice_permit_id_permit")
        ),
        sa.ForeignKeyConstraint(
            ["review_id"],
            ["permit_review.id"],
            name=op.f("fk_permit_notice_review_id_permit_review"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_notice")),
        sa.UniqueConstraint("review_id", name=op.f("uq_permit_notice_review_id")),
    )
    op.create_index(
        op.f("ix_permit_notice_permit_id"), "permit_notice", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_appeal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("permit_id", sa.Integer(), nullable=False),
        sa.Column("notice_id", sa.Integer(), nullable=False),
        sa.Column("filed_on", sa.Date(), nullable=False),
        sa.Column("grounds", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["notice_id"],
            ["permit_notice.id"],
            name=op.f("fk_permit_appeal_notice_id_permit_notice"),
        ),
        sa.ForeignKeyConstraint(
            ["permit_id"], ["permit.id"], name=op.f("fk_permit_appeal_permit_id_permit")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_appeal")),
        sa.UniqueConstraint("notice_id", name=op.f("uq_permit_appeal_notice_id")),
    )
    op.create_index(
        op.f("ix_permit_appeal_permit_id"), "permit_appeal", ["permit_id"], unique=False
    )
    op.create_table(
        "permit_appeal_decision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("appeal_id", sa.Integer(), nullable=False),
        sa.Column("decided_on", sa.Date(), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=False),
        sa.Column("authority", sa.String(length=300), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "outcome IN ('upheld', 'reversed')", name=op.f("ck_permit_appeal_decision_outcome")
        ),
        sa.ForeignKeyConstraint(
            ["appeal_id"],
            ["permit_appeal.id"],
            name=op.f("fk_permit_appeal_decision_appeal_id_permit_appeal"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_permit_appeal_decision")),
        sa.UniqueConstraint("appeal_id", name=op.f("uq_permit_appeal_decision_appeal_id")),
    )
    _create_immutability(op.get_bind().dialect.name)


def downgrade() -> None:
    _drop_immutability(op.get_bind().dialect.name)
    op.drop_table("permit_appeal_decision")
    op.drop_index(op.f("ix_permit_appeal_permit_id"), table_name="permit_appeal")
    op.drop_table("permit_appeal")
    op.drop_index(op.f("ix_permit_notice_permit_id"), table_name="permit_notice")
    op.drop_table("permit_notice")
    op.drop_index(op.f("ix_permit_issue_permit_id"), table_name="permit_issue")
    op.drop_table("permit_issue")
    op.drop_index(op.f("ix_permit_revocation_permit_id"), table_name="permit_revocation")
    op.drop_table("permit_revocation")
    op.drop_index(op.f("ix_permit_review_permit_id"), table_name="permit_review")
    op.drop_table("permit_review")
    op.drop_index(op.f("ix_permit_incident_permit_id"), table_name="permit_incident")
    op.drop_table("permit_incident")
    op.drop_index(op.f("ix_permit_application_permit_id"), table_name="permit_application")
    op.drop_table("permit_application")
    op.drop_index(op.f("ix_permit_animal_list_permit_id"), table_name="permit_animal_list")
    op.drop_table("permit_animal_list")
    op.drop_index("ix_permit_list_update_due", table_name="permit")
    op.drop_index("ix_permit_kind_status_expires", table_name="permit")
    op.drop_index("ix_permit_holder_id", table_name="permit")
    op.drop_index("ix_permit_expires", table_name="permit")
    op.drop_index("ix_permit_appeal_by", table_name="permit")
    op.drop_table("permit")
