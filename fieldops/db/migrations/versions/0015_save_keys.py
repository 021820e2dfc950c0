"""the keys that make a retried save idempotent

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fieldops.db.types import UTCDateTime

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

# One row per record created with a client-made key (fieldops/services/context.py,
# existing_save/remember_save). A new table only: no existing table or trigger changes.


def upgrade() -> None:
    op.create_table(
        "save_key",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("entity", sa.String(40), nullable=False),
        sa.Column("entity_id", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_save_key")),
    )


def downgrade() -> None:
    op.drop_table("save_key")
