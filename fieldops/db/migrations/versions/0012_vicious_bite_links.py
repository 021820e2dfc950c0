"""vicious animals: incidents linked to bite reports (filled by that work).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
