"""licence counts: the Licences list's count kept, not counted, for its default view.

The list's default view (this year's current licences) is bounded, but its count
``SELECT count(*) ... WHERE status = 'current' AND licence_year = :year`` read one
index entry per licence: 3,000 at the 100,000 city, 30,000 at the 1,000,000 one
(0.35 ms of raw statements against 4.3 ms; the first page grew 2.2-3.8x). "All"
counted every licence the same way.

- ``dog_licence_count`` (licence_year, status, n): how many licences there are of
  each year and status. The count of "current" without search text is one row of
  it, "all" the sum of a row a year and status; every other filter and any search
  keep their statements (their answer depends on other rows: renewals, an archived
  dog, a match).

Triggers keep it in the same transaction as the change: a licence written, deleted,
or its status or year changed (on SQLite the row is made first if missing, then
counted; on PostgreSQL an ``INSERT ... ON CONFLICT`` counts it). A row may fall to 0
and stay. ``fieldops check`` reports a kept count that differs from the licences',
``migrate-to`` lets the target's triggers fill it, and the bench's generator fills
it after its load as this migration does.

Plain operations, not batch ones: a batch on SQLite recreates the table and drops
its triggers.

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-02 04:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
FILL = (
    "INSERT INTO dog_licence_count (licence_year, status, n) "
    "SELECT licence_year, status, count(*) FROM dog_licence GROUP BY licence_year, status"
)


def _counted(row: str, by: str) -> str:
    """SQLite: ``row``'s year and status counted ``by`` (+1 or -1), its row made first
    if missing. No conflict clause: the statement that fired the trigger would impose
    its own (an INSERT OR REPLACE into dog_licence would reset the count)."""
    key = f"licence_year = {row}.licence_year AND status = {row}.status"
    made = (
        "INSERT INTO dog_licence_count (licence_year, status, n) "
        f"SELECT {row}.licence_year, {row}.status, 0 "
        f"WHERE NOT EXISTS (SELECT 1 FROM dog_licence_count WHERE {key}); "
    )
    return (made if by == "+ 1" else "") + f"UPDATE dog_licence_count SET n = n {by} WHERE {key}; "


SQLITE_TRIGGERS = {
    "dog_licence_count_ai": f"AFTER INSERT ON dog_licence BEGIN {_counted('new', '+ 1')}END",
    "dog_licence_count_au": "AFTER UPDATE OF status, licence_year ON dog_licence "
    "WHEN old.status IS NOT new.status OR old.licence_year IS NOT new.licence_year "
    f"BEGIN {_counted('old', '- 1')}{_counted('new', '+ 1')}END",
    "dog_licence_count_ad": f"AFTER DELETE ON dog_licence BEGIN {_counted('old', '- 1')}END",
}

PG_FUNCTION = """
CREATE FUNCTION dog_licence_count_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.licence_year = NEW.licence_year
    THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        UPDATE dog_licence_count SET n = n - 1
            WHERE licence_year = OLD.licence_year AND status = OLD.status;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO dog_licence_count (licence_year, status, n)
            VALUES (NEW.licence_year, NEW.status, 1)
            ON CONFLICT (licence_year, status) DO UPDATE SET n = dog_licence_count.n + 1;
    END IF;
    RETURN NULL;
END $$
"""
PG_TRIGGER = (
    "CREATE TRIGGER dog_licence_count_sync AFTER INSERT OR DELETE OR UPDATE OF "
    "status, licence_year ON dog_licence FOR EACH ROW EXECUTE FUNCTION dog_licence_count_sync()"
)


def upgrade() -> None:
    op.create_table(
        "dog_licence_count",
        sa.Column("licence_year", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("licence_year", "status", name="pk_dog_licence_count"),
        sqlite_with_rowid=False,
    )
    # Existing licences counted now; the triggers keep the counts from here on.
    op.execute(FILL)
    if op.get_bind().dialect.name == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    else:
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    else:
        op.execute("DROP TRIGGER dog_licence_count_sync ON dog_licence")
        op.execute("DROP FUNCTION dog_licence_count_sync()")
    op.drop_table("dog_licence_count")
