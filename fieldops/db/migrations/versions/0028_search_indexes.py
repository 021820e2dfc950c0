"""search indexes: the registry's searches at a city's scale.

A search of the People or Animals list takes its matches from the full-text
index (migration 0024) in id order and sorts them into the list's order. At
1,000,000 people a common surname matches 36,752 of them, and each match was
looked up in its table row for the sort key and the archived check (a row
scattered over an 11 GB file): 68 ms for the people search's first page, 103 ms
for the animals search (196 ms of raw statements with its count).

- ``ix_person_id_sort`` (id, archived_at, sort_name) and ``ix_animal_id_name``
  (id, archived_at, name): a match's sort key and archived check read from a
  small index, in the id order the full-text index gives its matches.
- ``ix_animal_owner_name`` (owner_id, archived_at, name): the animals of each
  person matched by the owner's name, with their sort key, without their rows.

Plain indexes on both back ends (no batch: a batch on SQLite recreates the
table and drops its search triggers). Where the file keeps planner statistics
the new indexes get theirs, as in migration 0025.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-02 01:10:00
"""

from __future__ import annotations

from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
INDEXES = (
    ("ix_person_id_sort", "person", ["id", "archived_at", "sort_name"]),
    ("ix_animal_id_name", "animal", ["id", "archived_at", "name"]),
    ("ix_animal_owner_name", "animal", ["owner_id", "archived_at", "name"]),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            for name, _table, _columns in INDEXES:
                op.execute(f"ANALYZE {name}")


def downgrade() -> None:
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
