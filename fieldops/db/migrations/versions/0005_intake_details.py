"""intake details

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 07:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


# What the officer saw at intake: spayed/neutered (unknown when NULL), the
# animal's condition and any injuries. Existing impoundments read as not recorded.


def upgrade() -> None:
    op.add_column("impoundment", sa.Column("altered", sa.Boolean(), nullable=True))
    op.add_column(
        "impoundment",
        sa.Column("condition", sa.String(length=200), nullable=False, server_default=""),
    )
    op.add_column(
        "impoundment", sa.Column("injuries", sa.Text(), nullable=False, server_default="")
    )


def downgrade() -> None:
    for name in ("injuries", "condition", "altered"):
        op.drop_column("impoundment", name)
