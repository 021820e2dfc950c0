"""call parties: the people and animals involved in a call beyond its caller

The call keeps its main owner and animal (``owner_id``/``animal_id`` and their
descriptions): the complaint notice, the petition, the citation and the intake
opened from a call read them. Each further person or animal involved (a victim,
a witness, a keeper, a second dog) is a ``call_party`` row: a registry record or
a description, in a role.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-01 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "call_party",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=6), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("animal_id", sa.Integer(), nullable=True),
        sa.Column("description", sa.String(length=300), nullable=False),
        sa.Column("notes", sa.String(length=500), nullable=False),
        sa.CheckConstraint(
            "(kind = 'person' AND animal_id IS NULL AND role IN ('owner', 'victim', 'witness', "
            "'keeper', 'other')) OR (kind = 'animal' AND person_id IS NULL AND role IN "
            "('subject', 'victim', 'other'))",
            name=op.f("ck_call_party_kind_role"),
        ),
        sa.CheckConstraint(
            "person_id IS NOT NULL OR animal_id IS NOT NULL OR description <> ''",
            name=op.f("ck_call_party_registry_or_described"),
        ),
        sa.ForeignKeyConstraint(
            ["call_id"], ["field_call.id"], name=op.f("fk_call_party_call_id_field_call")
        ),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_call_party_person_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_call_party_animal_id_animal")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_party")),
        sa.UniqueConstraint("call_id", "position", name=op.f("uq_call_party_call_position")),
    )
    op.create_index(op.f("ix_call_party_person_id"), "call_party", ["person_id"], unique=False)
    op.create_index(op.f("ix_call_party_animal_id"), "call_party", ["animal_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_call_party_animal_id"), table_name="call_party")
    op.drop_index(op.f("ix_call_party_person_id"), table_name="call_party")
    op.drop_table("call_party")
