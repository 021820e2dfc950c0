"""impound list indexes

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 07:40:00
"""
from __future__ import annotations

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
