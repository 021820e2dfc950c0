"""dog licences (58-533(c)): one row a licence and licence year, the tag unique in its
year (a transfer keeps its dog's tag), replacements and transfers naming the licence
they follow.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

OWN_TAG = sa.text("origin <> 'transfer'")


def upgrade() -> None:
    op.create_table(
        "dog_licence",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("animal_id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("licence_year", sa.Integer(), nullable=False),
        sa.Column("tag_number", sa.String(length=30), nullable=False),
        sa.Column("origin", sa.String(length=12), nullable=False),
        sa.Column("previous_id", sa.Integer(), nullable=True),
        sa.Column("applied_on", sa.Date(), nullable=False),
        sa.Column("altered", sa.Boolean(), nullable=False),
        sa.Column("rate", fieldops.db.types.Money(), nullable=False),
        sa.Column("half_rate", sa.Boolean(), nullable=False),
        sa.Column("due_by", sa.Date(), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("late_fee", fieldops.db.types.Money(), nullable=False),
        sa.Column("total", fieldops.db.types.Money(), nullable=False),
        sa.Column("rabies_certificate", sa.String(length=50), nullable=False),
        sa.Column("rabies_vaccinated_on", sa.Date(), nullable=True),
        sa.Column("rabies_expires_on", sa.Date(), nullable=True),
        sa.Column("paid_amount", fieldops.db.types.Money(), nullable=False),
        sa.Column("payment_method", sa.String(length=10), nullable=False),
        sa.Column("receipt_number", sa.String(length=30), nullable=False),
        sa.Column("issued_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("issued_place", sa.String(length=10), nullable=False),
        sa.Column("impoundment_id", sa.Integer(), nullable=True),
        sa.Column("issued_by", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("ended_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "status IN ('current', 'replaced', 'transferred', 'void')",
            name=op.f("ck_dog_licence_status"),
        ),
        sa.CheckConstraint(
            "origin IN ('new', 'renewal', 'replacement', 'transfer')",
            name=op.f("ck_dog_licence_origin"),
        ),
        sa.CheckConstraint(
            "issued_place IN ('counter', 'pound')", name=op.f("ck_dog_licence_issued_place")
        ),
        sa.CheckConstraint(
            "total >= 0 AND paid_amount >= 0 AND late_fee >= 0",
            name=op.f("ck_dog_licence_amounts"),
        ),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_dog_licence_animal_id_animal")
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["person.id"], name=op.f("fk_dog_licence_owner_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["previous_id"],
            ["dog_licence.id"],
            name=op.f("fk_dog_licence_previous_id_dog_licence"),
        ),
        sa.ForeignKeyConstraint(
            ["impoundment_id"],
            ["impoundment.id"],
            name=op.f("fk_dog_licence_impoundment_id_impoundment"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dog_licence")),
    )
    op.create_index(
        "ix_dog_licence_year_tag",
        "dog_licence",
        ["licence_year", "tag_number"],
        unique=True,
        sqlite_where=OWN_TAG,
        postgresql_where=OWN_TAG,
    )
    op.create_index("ix_dog_licence_tag_number", "dog_licence", ["tag_number"], unique=False)
    op.create_index(
        "ix_dog_licence_receipt_number", "dog_licence", ["receipt_number"], unique=False
    )
    op.create_index(
        "ix_dog_licence_animal_year", "dog_licence", ["animal_id", "licence_year"], unique=False
    )
    op.create_index("ix_dog_licence_owner_id", "dog_licence", ["owner_id"], unique=False)
    op.create_index(
        "ix_dog_licence_status_year",
        "dog_licence",
        ["status", "licence_year", "id"],
        unique=False,
    )


def downgrade() -> None:
    for name in (
        "ix_dog_licence_status_year",
        "ix_dog_licence_owner_id",
        "ix_dog_licence_animal_year",
        "ix_dog_licence_receipt_number",
        "ix_dog_licence_tag_number",
        "ix_dog_licence_year_tag",
    ):
        op.drop_index(name, table_name="dog_licence")
    op.drop_table("dog_licence")
