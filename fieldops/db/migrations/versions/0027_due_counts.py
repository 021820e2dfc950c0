"""due counts: Today's follow-ups of field calls, and its other statements, at a city's scale

Today and the officer's day list the calls whose follow-up date has come and whose
follow-up is still to do: no recheck opened from the call, no follow-up of that date
recorded done. The date alone is not the answer: at 500,000 calls (1,000,000
impoundments) 41,000 calls have a follow-up date in the past, nearly every one of them
followed up long ago, and each was read and asked both questions on every Today.

``field_call.follow_up_due_on`` is the follow-up date while the follow-up is still to
do, NULL otherwise; an index of the calls with one gives the few still open. Triggers rewrite it in the
transaction of every change that can answer either question: a call written or its
follow-up date or recheck changed (for the call and for the call it rechecks), a call
deleted (for the call it rechecked), a follow-up recorded done (``call_follow_up`` is
append-only). ``fieldops check`` compares it with its sources.

Plain operations, not batch ones: a batch on SQLite recreates the table and drops its
triggers. Where the file keeps planner statistics the new index gets its own.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-02 01:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
# The index holds the calls with a follow-up to do only: one of every call would be
# nearly all NULLs, which SQLite's statistics count as a few values of thousands of rows
# each (the planner then read the whole table instead).
DUE_ONLY = "follow_up_due_on IS NOT NULL"
UNPAID = "(paid_on IS NULL) AND (voided_at IS NULL)"  # as PostgreSQL prints it back

# Today's other statements that read a table's history for its few open rows: the
# quarantines certified still without their certificate (an index on the certificate
# alone read every dead and escaped animal's row too), the dead whose specimen is not
# sent (each one's row read for its bite), the citations unpaid past their court date
# (every citation with a court date read for its payment).
INDEXES = (
    ("ix_quarantine_status_certificate", "quarantine", ["status", "certificate_received_on"]),
    ("ix_quarantine_status_bite", "quarantine", ["status", "bite_report_id"]),
)
_DUE_ON = (
    "follow_up_due_on = CASE WHEN follow_up_on IS NOT NULL "
    "AND NOT EXISTS (SELECT 1 FROM field_call r WHERE r.recheck_of_id = field_call.id) "
    "AND NOT EXISTS (SELECT 1 FROM call_follow_up f WHERE f.call_id = field_call.id "
    "AND f.due_on = field_call.follow_up_on) THEN follow_up_on END"
)

SQLITE_TRIGGERS = {
    "field_call_follow_up_ai": "AFTER INSERT ON field_call BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id IN (new.id, new.recheck_of_id); END",
    "field_call_follow_up_au": "AFTER UPDATE OF follow_up_on, recheck_of_id ON field_call "
    "BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id IN (new.id, new.recheck_of_id, old.recheck_of_id); END",
    "field_call_follow_up_ad": "AFTER DELETE ON field_call BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id = old.recheck_of_id; END",
    "call_follow_up_done_ai": "AFTER INSERT ON call_follow_up BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id = new.call_id; END",
}

PG_FUNCTIONS = {
    # OLD is NULL on an insert, NEW on a delete: "IN" then names the calls there are.
    "fieldops_call_follow_up_due": "BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id IN (NEW.id, NEW.recheck_of_id, OLD.recheck_of_id); RETURN NULL; END",
    "fieldops_call_follow_up_done": "BEGIN UPDATE field_call SET "
    + _DUE_ON
    + " WHERE id = NEW.call_id; RETURN NULL; END",
}
PG_TRIGGERS = {
    "field_call_follow_up_due": (
        "AFTER INSERT OR DELETE OR UPDATE OF follow_up_on, recheck_of_id ON field_call",
        "fieldops_call_follow_up_due",
    ),
    "call_follow_up_done": ("AFTER INSERT ON call_follow_up", "fieldops_call_follow_up_done"),
}


def _create_triggers(dialect: str) -> None:
    if dialect == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    elif dialect == "postgresql":
        for name, body in PG_FUNCTIONS.items():
            op.execute(f"CREATE FUNCTION {name}() RETURNS trigger AS $$ {body} $$ LANGUAGE plpgsql")
        for name, (when, function) in PG_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} FOR EACH ROW EXECUTE FUNCTION {function}()")


def _drop_triggers(dialect: str) -> None:
    if dialect == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    elif dialect == "postgresql":
        for name, (when, _function) in PG_TRIGGERS.items():
            table = when.rsplit(" ON ", 1)[1]
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        for name in PG_FUNCTIONS:
            op.execute(f"DROP FUNCTION IF EXISTS {name}()")


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column("field_call", sa.Column("follow_up_due_on", sa.Date(), nullable=True))
    # Existing calls take their answer now; the triggers keep it from here on.
    op.execute(f"UPDATE field_call SET {_DUE_ON} WHERE follow_up_on IS NOT NULL")
    _create_triggers(bind.dialect.name)
    op.create_index(
        "ix_field_call_follow_up_due_on",
        "field_call",
        ["follow_up_due_on"],
        sqlite_where=sa.text(DUE_ONLY),
        postgresql_where=sa.text(DUE_ONLY),
    )
    op.create_index(
        "ix_call_citation_unpaid_court_on",
        "call_citation",
        ["court_on"],
        sqlite_where=sa.text(UNPAID),
        postgresql_where=sa.text(UNPAID),
    )
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)
    if bind.dialect.name == "sqlite":
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            for name in ("ix_field_call_follow_up_due_on", "ix_call_citation_unpaid_court_on"):
                op.execute(f"ANALYZE {name}")
            for name, _table, _columns in INDEXES:
                op.execute(f"ANALYZE {name}")


def downgrade() -> None:
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
    op.drop_index("ix_call_citation_unpaid_court_on", table_name="call_citation")
    op.drop_index("ix_field_call_follow_up_due_on", table_name="field_call")
    _drop_triggers(op.get_bind().dialect.name)
    # A plain drop (SQLite 3.35+), not a batch: a batch would drop every other trigger.
    op.drop_column("field_call", "follow_up_due_on")
