"""euthanasia basis

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 07:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


# Plain add/drop column, not a batch: a batch on SQLite recreates the table and drops
# the triggers that keep dispositions append-only. Existing rows keep a blank basis (they
# cannot be updated, and what was decided then was not recorded).


def upgrade() -> None:
    op.add_column(
        "disposition",
        sa.Column("euthanasia_basis", sa.String(30), nullable=False, server_default=""),
    )
    op.add_column(
        "disposition", sa.Column("decided_by", sa.String(200), nullable=False, server_default="")
    )


def downgrade() -> None:
    op.drop_column("disposition", "decided_by")
    op.drop_column("disposition", "euthanasia_basis")
