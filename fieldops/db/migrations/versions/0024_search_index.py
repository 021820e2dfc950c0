"""search index: full-text search for the lists at a city's scale (stub).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-01 18:30:00
"""

from __future__ import annotations

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
