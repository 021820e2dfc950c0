"""person state

A person's address gains its state. Everyone already on file was entered as
living in the city's state (the form had no other), so existing rows take
"WI" from the server default; a person may live elsewhere from now on.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 07:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain add_column, not a batch: a batch recreates the table and drops its triggers.
    op.add_column(
        "person", sa.Column("state", sa.String(length=2), nullable=False, server_default="WI")
    )


def downgrade() -> None:
    op.drop_column("person", "state")
