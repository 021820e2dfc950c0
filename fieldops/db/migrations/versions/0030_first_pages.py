"""first pages: a list's first page read in its order, not sorted from every match.

At 3,000 permits (the 1,000,000 city) the Permits list's default view, permits
in force by expiry with "no expiry" last, sorted all of them: the order
``expires_on IS NULL, expires_on, id`` was on no index (SQLite's keep NULLs
first), so the first page read every permit and its holder's row (3 ms of raw
statements at 1,000,000 against 0.3 ms at 100,000; the page grew 3.9x).

- ``ix_permit_list_expiry`` ((expires_on IS NULL), expires_on, id, status):
  the list's expiry order walked from either end, each permit's status read
  from the index, so a page stops after its rows. The list's query spells the
  expression exactly as here, which is what lets either database use it.

Plain operations, not batch ones: a batch on SQLite recreates the table and
drops its triggers. Where the file keeps planner statistics the new index gets
its own, as in migration 0025.

Revision ID: 0030
Revises: 0028
Create Date: 2026-12-02 03:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0028"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran; laid out as
# PostgreSQL prints it back (the schema's comparison with the models).
NO_EXPIRY = "(expires_on IS NULL)"


def upgrade() -> None:
    op.create_index(
        "ix_permit_list_expiry", "permit", [sa.text(NO_EXPIRY), "expires_on", "id", "status"]
    )
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            op.execute("ANALYZE ix_permit_list_expiry")


def downgrade() -> None:
    op.drop_index("ix_permit_list_expiry", table_name="permit")
