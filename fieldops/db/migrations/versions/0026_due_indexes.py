"""due indexes: Today and the activity summary at a city's scale (stub)

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-01 21:15:00
"""

from __future__ import annotations

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
