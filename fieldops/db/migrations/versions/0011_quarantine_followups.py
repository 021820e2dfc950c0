"""bite quarantines: what the officer's follow-up work needs.

- ``clinic.is_pound``: the pound registered as a clinic; a quarantine there is paid at
  the pound's counter.
- ``quarantine_correction``: a supervisor's correction of a field of a bite report, an
  exam or an event, with the reason; append-only like the records it corrects.
- the quarantine list's full-text search, as the people and impound lists have it:
  FTS5 ``quarantine_fts`` kept by triggers on SQLite, a GIN index on PostgreSQL,
  over the list's animal and owner names (``fieldops.db.search``).
- ``payment_line.charge``: the module charge a payment line settles (a quarantine's
  exams and boarding at the pound), "" for the pound's own fees. Added with
  ``op.add_column`` so the append-only triggers on ``payment_line`` stay.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

# Written out, not imported, so that this migration stays as it ran (fieldops.db.search
# builds the same statements for person and animal; the query side reads them there).
_COLS = "animal_name, owner_name"
_NEW = "new.animal_name, new.owner_name"
_OLD = "old.animal_name, old.owner_name"
SQLITE_SEARCH = (
    f"CREATE VIRTUAL TABLE quarantine_fts USING fts5({_COLS}, content='quarantine', "
    "content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER quarantine_fts_ai AFTER INSERT ON quarantine BEGIN "
    f"INSERT INTO quarantine_fts(rowid, {_COLS}) VALUES (new.id, {_NEW}); END",
    "CREATE TRIGGER quarantine_fts_ad AFTER DELETE ON quarantine BEGIN "
    f"INSERT INTO quarantine_fts(quarantine_fts, rowid, {_COLS}) "
    f"VALUES ('delete', old.id, {_OLD}); END",
    "CREATE TRIGGER quarantine_fts_au AFTER UPDATE ON quarantine BEGIN "
    f"INSERT INTO quarantine_fts(quarantine_fts, rowid, {_COLS}) "
    f"VALUES ('delete', old.id, {_OLD}); "
    f"INSERT INTO quarantine_fts(rowid, {_COLS}) VALUES (new.id, {_NEW}); END",
    "INSERT INTO quarantine_fts(quarantine_fts) VALUES ('rebuild')",
)
# Angle brackets blanked as in fieldops.db.search.pg_vector: "<Sons>" must still be found.
PG_SEARCH = (
    "CREATE INDEX ix_quarantine_search ON quarantine USING gin (to_tsvector('simple', "
    "translate(coalesce(animal_name, ''), '<>', '  ') || ' ' || "
    "translate(coalesce(owner_name, ''), '<>', '  ')))"
)

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _immutable(dialect: str, table: str) -> None:
    """The database refuses to change or delete a correction (as migration 0009 does)."""
    if dialect == "sqlite":
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} rows are never changed or deleted'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
        )


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "quarantine_correction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bite_report_id", sa.Integer(), nullable=False),
        sa.Column("target", sa.String(length=12), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=40), nullable=False),
        sa.Column("old_value", sa.Text(), nullable=False),
        sa.Column("new_value", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "target IN ('bite_report', 'exam', 'event')",
            name=op.f("ck_quarantine_correction_target"),
        ),
        sa.ForeignKeyConstraint(
            ["bite_report_id"],
            ["bite_report.id"],
            name=op.f("fk_quarantine_correction_bite_report_id_bite_report"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quarantine_correction")),
    )
    op.create_index(
        "ix_quarantine_correction_bite",
        "quarantine_correction",
        ["bite_report_id", "id"],
        unique=False,
    )
    _immutable(dialect, "quarantine_correction")
    if dialect == "sqlite":
        for statement in SQLITE_SEARCH:
            op.execute(statement)
    elif dialect == "postgresql":
        op.execute(PG_SEARCH)
    op.add_column(
        "clinic", sa.Column("is_pound", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "payment_line",
        sa.Column("charge", sa.String(length=80), nullable=False, server_default=""),
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for suffix in ("ai", "ad", "au"):
            op.execute(f"DROP TRIGGER IF EXISTS quarantine_fts_{suffix}")
        op.execute("DROP TABLE IF EXISTS quarantine_fts")
    elif dialect == "postgresql":
        op.execute("DROP INDEX IF EXISTS ix_quarantine_search")
    if dialect == "sqlite":
        for event in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS quarantine_correction_no_{event}")
    elif dialect == "postgresql":
        op.execute(
            "DROP TRIGGER IF EXISTS quarantine_correction_immutable ON quarantine_correction"
        )
    op.drop_index("ix_quarantine_correction_bite", table_name="quarantine_correction")
    op.drop_table("quarantine_correction")
    op.drop_column("payment_line", "charge")
    op.drop_column("clinic", "is_pound")
