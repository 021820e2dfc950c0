"""due counts: what Today counts at a city's scale (slot; filled or removed before this stop ends)

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-02 01:10:00
"""

from __future__ import annotations

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
