"""search indexes: the registry's searches at a city's scale (slot; filled or removed before this stop ends)

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-02 01:10:00
"""

from __future__ import annotations

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
