"""register period index

The 58-528 register selects a period of custody days; without an index the
database reads every impoundment to find them (149 ms against 60 ms at
30,000 impoundments, growing with the table).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 08:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain index operation, not a batch: a batch on SQLite recreates the table
    # and silently drops the list-copy triggers on impoundment.
    op.create_index("ix_impoundment_custody_day", "impoundment", ["custody_day"])


def downgrade() -> None:
    op.drop_index("ix_impoundment_custody_day", table_name="impoundment")
