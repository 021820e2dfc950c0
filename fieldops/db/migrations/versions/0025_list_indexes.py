"""list indexes: the calls and licences lists at a city's scale (stub)

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-01 21:15:00
"""

from __future__ import annotations

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
