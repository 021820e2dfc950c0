"""intake details

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 07:40:00
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


# What the officer saw at intake: spayed/neutered (unknown when NULL), the
# animal's condition and any injuries. Existing impoundments read as not recorded.
COLUMNS = (
    ("altered", lambda: sa.Column("altered", sa.Boolean(), nullable=True)),
    ("condition", lambda: sa.Column("condition", sa.String(length=200), nullable=False,
                                    server_default="")),
    ("injuries", lambda: sa.Column("injuries", sa.Text(), nullable=False,
                                   server_default="")),
)


def upgrade() -> None:
    for _name, column in COLUMNS:
        op.add_column("impoundment", column())


def downgrade() -> None:
    for name, _column in reversed(COLUMNS):
        op.drop_column("impoundment", name)
