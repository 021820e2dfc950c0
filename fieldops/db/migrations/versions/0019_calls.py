"""field calls, dispatches, complaints, petitions, citations and caution flags (58-534)

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

# A petition is received once, accepted or refused, and never changed or deleted
# (migration 0002's fieldops_immutable() on PostgreSQL, as the pound's dispositions).
APPEND_ONLY = ("call_petition",)


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
        "caution_flag",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("address", sa.String(length=300), nullable=False),
        sa.Column("address_key", sa.String(length=300), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("set_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("set_by", sa.String(length=100), nullable=False),
        sa.Column("cleared_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("cleared_by", sa.String(length=100), nullable=False),
        sa.Column("clear_reason", sa.Text(), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "person_id IS NOT NULL OR address_key <> ''", name=op.f("ck_caution_flag_on_something")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_caution_flag_person_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_caution_flag")),
    )
    op.create_index("ix_caution_flag_address_key", "caution_flag", ["address_key"], unique=False)
    op.create_index(op.f("ix_caution_flag_person_id"), "caution_flag", ["person_id"], unique=False)
    op.create_table(
        "field_call",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("received_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("received_how", sa.String(length=12), nullable=False),
        sa.Column("anonymous", sa.Boolean(), nullable=False),
        sa.Column("caller_id", sa.Integer(), nullable=True),
        sa.Column("caller_name", sa.String(length=200), nullable=False),
        sa.Column("caller_phone", sa.String(length=50), nullable=False),
        sa.Column("address", sa.String(length=300), nullable=False),
        sa.Column("address_key", sa.String(length=300), nullable=False),
        sa.Column("place", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("section", sa.String(length=20), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("owner_description", sa.String(length=300), nullable=False),
        sa.Column("animal_id", sa.Integer(), nullable=True),
        sa.Column("animal_description", sa.String(length=300), nullable=False),
        sa.Column("recheck_of_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("officer", sa.String(length=100), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=True),
        sa.Column("follow_up_on", sa.Date(), nullable=True),
        sa.Column("search_text", sa.String(length=1000), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('at_large', 'bite', 'vicious', 'noise', 'waste', 'wild', 'not_allowed', 'welfare', 'dead', 'other')",
            name=op.f("ck_field_call_kind"),
        ),
        sa.CheckConstraint(
            "received_how IN ('phone', 'walk_in', 'police')",
            name=op.f("ck_field_call_received_how"),
        ),
        sa.CheckConstraint(
            "status IN ('open', 'dispatched', 'closed')", name=op.f("ck_field_call_status")
        ),
        sa.CheckConstraint("priority BETWEEN 1 AND 3", name=op.f("ck_field_call_priority")),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_field_call_animal_id_animal")
        ),
        sa.ForeignKeyConstraint(
            ["caller_id"], ["person.id"], name=op.f("fk_field_call_caller_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["person.id"], name=op.f("fk_field_call_owner_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["recheck_of_id"],
            ["field_call.id"],
            name=op.f("fk_field_call_recheck_of_id_field_call"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_field_call")),
    )
    op.create_index("ix_field_call_address_key", "field_call", ["address_key"], unique=False)
    op.create_index(op.f("ix_field_call_animal_id"), "field_call", ["animal_id"], unique=False)
    op.create_index("ix_field_call_follow_up_on", "field_call", ["follow_up_on"], unique=False)
    op.create_index(op.f("ix_field_call_owner_id"), "field_call", ["owner_id"], unique=False)
    op.create_index(
        op.f("ix_field_call_recheck_of_id"), "field_call", ["recheck_of_id"], unique=False
    )
    op.create_index(
        "ix_field_call_status_priority",
        "field_call",
        ["status", "priority", "received_at"],
        unique=False,
    )
    op.create_table(
        "call_citation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=True),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("section", sa.String(length=20), nullable=False),
        sa.Column("offence_on", sa.Date(), nullable=False),
        sa.Column("offence_number", sa.Integer(), nullable=False),
        sa.Column("forfeiture", fieldops.db.types.Money(), nullable=True),
        sa.Column("warning", sa.Boolean(), nullable=False),
        sa.Column("plus_court_costs", sa.Boolean(), nullable=False),
        sa.Column("penalty_why", sa.Text(), nullable=False),
        sa.Column("address", sa.String(length=300), nullable=False),
        sa.Column("address_key", sa.String(length=300), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("court_on", sa.Date(), nullable=True),
        sa.Column("paid_on", sa.Date(), nullable=True),
        sa.Column("issued_by", sa.String(length=200), nullable=False),
        sa.Column("issued_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "forfeiture IS NULL OR forfeiture >= 0", name=op.f("ck_call_citation_forfeiture")
        ),
        sa.CheckConstraint("offence_number >= 1", name=op.f("ck_call_citation_offence_number")),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_citation_call_id_field_call")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_call_citation_person_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_citation")),
        sa.UniqueConstraint(
            "person_id", "section", "offence_on", name="uq_call_citation_one_offence_a_day"
        ),
    )
    op.create_index(
        op.f("ix_call_citation_address_key"), "call_citation", ["address_key"], unique=False
    )
    op.create_index(op.f("ix_call_citation_call_id"), "call_citation", ["call_id"], unique=False)
    op.create_index("ix_call_citation_court_on", "call_citation", ["court_on"], unique=False)
    op.create_table(
        "call_complaint",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("complainant", sa.String(length=200), nullable=False),
        sa.Column("complainant_adult", sa.Boolean(), nullable=False),
        sa.Column("alleged", sa.Text(), nullable=False),
        sa.Column("logged_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("notified_how", sa.String(length=20), nullable=True),
        sa.Column("notified_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("notified_by", sa.String(length=100), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "notified_how IS NULL OR notified_how IN ('in_person', 'phone', 'mail', 'certified_mail', 'posted')",
            name=op.f("ck_call_complaint_notified_how"),
        ),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_complaint_call_id_field_call")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_complaint")),
    )
    op.create_index(op.f("ix_call_complaint_call_id"), "call_complaint", ["call_id"], unique=False)
    op.create_table(
        "call_dispatch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("officer", sa.String(length=100), nullable=False),
        sa.Column("sent_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("arrived_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("cleared_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=20), nullable=True),
        sa.Column("follow_up_on", sa.Date(), nullable=True),
        sa.Column("impoundment_id", sa.Integer(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('gone_on_arrival', 'returned_to_owner', 'impounded', 'warned', 'cited', 'referred_cd', 'no_violation')",
            name=op.f("ck_call_dispatch_outcome"),
        ),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_dispatch_call_id_field_call")
        ),
        sa.ForeignKeyConstraint(
            ["impoundment_id"],
            ["impoundment.id"],
            name=op.f("fk_call_dispatch_impoundment_id_impoundment"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_dispatch")),
    )
    op.create_index(op.f("ix_call_dispatch_call_id"), "call_dispatch", ["call_id"], unique=False)
    op.create_table(
        "call_petition",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("complaint_id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("received_on", sa.Date(), nullable=False),
        sa.Column("petitioners", sa.Text(), nullable=False),
        sa.Column("animal", sa.Text(), nullable=False),
        sa.Column("violations", sa.Text(), nullable=False),
        sa.Column("reported_on", sa.Text(), nullable=False),
        sa.Column("will_testify", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("missing", sa.JSON(), nullable=False),
        sa.Column("referred_to", sa.String(length=30), nullable=True),
        sa.Column("referred_on", sa.Date(), nullable=True),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "referred_to IS NULL OR referred_to IN ('police', 'community_development')",
            name=op.f("ck_call_petition_referred_to"),
        ),
        sa.CheckConstraint(
            "status IN ('accepted', 'refused')", name=op.f("ck_call_petition_status")
        ),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_petition_call_id_field_call")
        ),
        sa.ForeignKeyConstraint(
            ["complaint_id"],
            ["call_complaint.id"],
            name=op.f("fk_call_petition_complaint_id_call_complaint"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_petition")),
    )
    op.create_index(op.f("ix_call_petition_call_id"), "call_petition", ["call_id"], unique=False)
    op.create_index(
        op.f("ix_call_petition_complaint_id"), "call_petition", ["complaint_id"], unique=False
    )
    _create_immutability(op.get_bind().dialect.name)


def downgrade() -> None:
    _drop_immutability(op.get_bind().dialect.name)
    op.drop_index(op.f("ix_call_petition_complaint_id"), table_name="call_petition")
    op.drop_index(op.f("ix_call_petition_call_id"), table_name="call_petition")
    op.drop_table("call_petition")
    op.drop_index(op.f("ix_call_dispatch_call_id"), table_name="call_dispatch")
    op.drop_table("call_dispatch")
    op.drop_index(op.f("ix_call_complaint_call_id"), table_name="call_complaint")
    op.drop_table("call_complaint")
    op.drop_index("ix_call_citation_court_on", table_name="call_citation")
    op.drop_index(op.f("ix_call_citation_call_id"), table_name="call_citation")
    op.drop_index(op.f("ix_call_citation_address_key"), table_name="call_citation")
    op.drop_table("call_citation")
    op.drop_index("ix_field_call_status_priority", table_name="field_call")
    op.drop_index(op.f("ix_field_call_recheck_of_id"), table_name="field_call")
    op.drop_index(op.f("ix_field_call_owner_id"), table_name="field_call")
    op.drop_index("ix_field_call_follow_up_on", table_name="field_call")
    op.drop_index(op.f("ix_field_call_animal_id"), table_name="field_call")
    op.drop_index("ix_field_call_address_key", table_name="field_call")
    op.drop_table("field_call")
    op.drop_index(op.f("ix_caution_flag_person_id"), table_name="caution_flag")
    op.drop_index("ix_caution_flag_address_key", table_name="caution_flag")
    op.drop_table("caution_flag")
