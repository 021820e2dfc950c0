"""the audit trail's hash chain (filled by that work).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
