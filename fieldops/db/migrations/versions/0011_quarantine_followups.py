"""bite quarantines: what the officer's follow-up work needs.

- ``clinic.is_pound``: the pound registered as a clinic; a quarantine there is paid at
  the pound's counter.
- ``payment_line.charge``: the module charge a payment line settles (a quarantine's
  exams and boarding at the pound), "" for the pound's own fees. Added with
  ``op.add_column`` so the append-only triggers on ``payment_line`` stay.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "clinic", sa.Column("is_pound", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "payment_line",
        sa.Column("charge", sa.String(length=80), nullable=False, server_default=""),
    )


def downgrade() -> None:
    op.drop_column("payment_line", "charge")
    op.drop_column("clinic", "is_pound")
