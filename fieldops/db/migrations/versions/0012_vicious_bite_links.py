"""vicious animals: an incident may be linked to a record another module offers on the seam
(a bite report), by (module, kind, id).

No foreign key: the vicious-animal module reads no other module's tables, and a link to any
module's record needs no migration (see fieldops/db/models/vicious.py). Plain added columns,
never a batch operation: on SQLite a batch recreates the table and drops the append-only
triggers of migration 0010.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

COLUMNS = (
    ("source_module", sa.String(length=40)),
    ("source_kind", sa.String(length=40)),
    ("source_id", sa.Integer()),
)


def upgrade() -> None:
    for name, type_ in COLUMNS:
        op.add_column("vicious_incident", sa.Column(name, type_, nullable=True))
    op.create_index(
        "ix_vicious_incident_source",
        "vicious_incident",
        ["source_module", "source_kind", "source_id"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_vicious_incident_source", table_name="vicious_incident")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite drops a column in place (3.35+) only with no index on it: the index is gone.
        for name, _type in reversed(COLUMNS):
            op.execute(f"ALTER TABLE vicious_incident DROP COLUMN {name}")
    else:
        for name, _type in reversed(COLUMNS):
            op.drop_column("vicious_incident", name)
