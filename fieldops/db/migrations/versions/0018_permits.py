"""chicken and animal fancier's permits (58-533(a),(b))

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
