"""permit payments: the fee paid when a permit is issued or renewed (amount, method,
receipt), on the append-only permit_issue row. Issues recorded before this revision
keep NULL (no payment was recorded with them). And the answers a town's profile asks
beyond the city's form (the distance from a neighbouring residence, the state premises
registration's day) on the application.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-01 17:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "permit_issue", sa.Column("paid_amount", fieldops.db.types.Money(), nullable=True)
    )
    op.add_column("permit_issue", sa.Column("payment_method", sa.String(length=10), nullable=True))
    op.add_column("permit_issue", sa.Column("receipt_number", sa.String(length=30), nullable=True))
    op.create_index(
        "ix_permit_issue_receipt_number", "permit_issue", ["receipt_number"], unique=False
    )
    op.add_column(
        "permit_application", sa.Column("residence_setback_feet", sa.Integer(), nullable=True)
    )
    op.add_column("permit_application", sa.Column("state_registered_on", sa.Date(), nullable=True))


def downgrade() -> None:
    op.drop_column("permit_application", "state_registered_on")
    op.drop_column("permit_application", "residence_setback_feet")
    op.drop_index("ix_permit_issue_receipt_number", table_name="permit_issue")
    op.drop_column("permit_issue", "receipt_number")
    op.drop_column("permit_issue", "payment_method")
    op.drop_column("permit_issue", "paid_amount")
