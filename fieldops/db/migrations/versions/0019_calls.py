"""chicken and animal fancier's permits (58-533(a),(b))

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
