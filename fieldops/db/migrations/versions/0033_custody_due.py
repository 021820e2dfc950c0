"""custody due index: Today's pound items and the "held past the hold" count from one index

Today asks, for every animal in custody whose claim period has ended or ends by
tomorrow, when its hold ends, when it may go to others, whether it was surrendered
or bit someone, its kennel and its animal. At 1,000,000 impoundments (3,218 in
custody, 1,745 of them due) that was a lookup of each due impoundment's row, a wide
row of a table of a million: 6.9 ms of the pound's 15 ms of raw statements.

- ``ix_impoundment_custody_due`` (disposed, last_claim_day, id, custody_day,
  release_to_others_from, surrendered, bit_person, kennel, animal_id) replaces
  ``ix_impoundment_status_last_claim_day`` (disposed, last_claim_day, id): the
  same order for the impounds list's sort by last claim day, and every column
  Today reads from the impoundment, so the rows come from the index alone and
  the count of animals held past their hold (947 at 1,000,000) is an index count
  (0.4 ms).

A full index, not a partial one of the rows in custody: SQLite uses a partial
index only for a condition spelled as the index's, and the two databases spell
"not disposed" differently.

Plain operations, no batch (a batch on SQLite recreates the table and drops its
triggers). Where the file keeps planner statistics the new index gets its own.

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-02 19:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
OLD = ("ix_impoundment_status_last_claim_day", ["disposed", "last_claim_day", "id"])
NEW = (
    "ix_impoundment_custody_due",
    [
        "disposed",
        "last_claim_day",
        "id",
        "custody_day",
        "release_to_others_from",
        "surrendered",
        "bit_person",
        "kennel",
        "animal_id",
    ],
)


def upgrade() -> None:
    op.create_index(NEW[0], "impoundment", NEW[1])
    op.drop_index(OLD[0], table_name="impoundment")
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            op.execute(f"ANALYZE {NEW[0]}")


def downgrade() -> None:
    op.create_index(OLD[0], "impoundment", OLD[1])
    op.drop_index(NEW[0], table_name="impoundment")
