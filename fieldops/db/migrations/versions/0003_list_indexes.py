"""list indexes

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 03:22:40.373723
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


# Plain index operations, not batch ones: a batch on SQLite may recreate the
# table and silently drop the search triggers on person and animal.
ACTIVE = sa.text("archived_at IS NULL")


def upgrade() -> None:
    op.create_index(
        "ix_animal_active_order",
        "animal",
        ["name", "id"],
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )
    op.create_index("ix_animal_archived_at", "animal", ["archived_at"])
    op.drop_index("ix_person_sort_name", table_name="person")
    op.create_index(
        "ix_person_active_order",
        "person",
        ["sort_name", "id"],
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )
    op.create_index("ix_person_archived_at", "person", ["archived_at"])


def downgrade() -> None:
    op.drop_index("ix_person_archived_at", table_name="person")
    op.drop_index("ix_person_active_order", table_name="person")
    op.create_index("ix_person_sort_name", "person", ["sort_name"])
    op.drop_index("ix_animal_archived_at", table_name="animal")
    op.drop_index("ix_animal_active_order", table_name="animal")
