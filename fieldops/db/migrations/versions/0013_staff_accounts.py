"""staff accounts: passwords, lockout and sign-in (filled by that work).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
