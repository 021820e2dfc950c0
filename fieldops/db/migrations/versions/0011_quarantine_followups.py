"""bite quarantines: what the officer's follow-up work needs (filled by that work).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
