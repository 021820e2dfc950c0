"""search index: the calls, vicious cases and permits lists searched on an index.

Their search boxes matched ``search_text LIKE '%...%'`` (each list's own copy
of its animal, people and address, written by its services), a scan of the
whole table for every search (120-270 ms for a common surname at 1,000,000
impoundments, issue 14). Now, as the people, animals and
quarantine lists already are (migrations 0001 and 0011):

- SQLite: an FTS5 external-content table ``<table>_fts`` over ``search_text``,
  kept by triggers (after an insert, a delete, and an update of
  ``search_text``: a call's other changes, its dispatches' status copies,
  leave the index alone), and filled here from the rows already there.
- PostgreSQL: a GIN index on ``to_tsvector('simple', search_text)``, which ``CREATE
  INDEX`` fills from the existing rows; punctuation is blanked first so
  that its parser finds the words FTS5 finds. ``pg_trgm`` would give substring
  matches, but it is an extension a pound's server may not have, and its
  answers would differ from SQLite's; a word-prefix index answers the same
  on both.

Both match every word typed as the start of a word (``fieldops.db.search``).

And ``ix_payment_line_charge``: a quarantine's record finds the payments of its
charges by the code's prefix ("quarantine:12:"), which read every payment line
(58-160 ms a record at 100,000 impoundments, measured). A plain
``op.create_index``: the append-only triggers on ``payment_line`` stay.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-01 18:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran (fieldops.db.search
# names the same tables and expressions for the lists' queries).
TABLES = ("field_call", "vicious_case", "permit")
# Blanked before PostgreSQL's parser reads the text (it keeps "k-9" as "k" and "-9",
# an e-mail address or "1.5" whole), so that it finds the words FTS5 finds.
_BLANKED = "<>-@./_+&#,;():"  # ":" last: never read as a parameter


def _sqlite(table: str) -> list[str]:
    fts = f"{table}_fts"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5(search_text, content='{table}', "
        "content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, search_text) VALUES (new.id, new.search_text); END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, search_text) "
        "VALUES ('delete', old.id, old.search_text); END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF search_text ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, search_text) "
        "VALUES ('delete', old.id, old.search_text); "
        f"INSERT INTO {fts}(rowid, search_text) VALUES (new.id, new.search_text); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",  # the rows already there
    ]


def _postgresql(table: str) -> str:
    return (
        f"CREATE INDEX ix_{table}_search ON {table} USING gin (to_tsvector('simple', "
        f"translate(coalesce(search_text, ''), '{_BLANKED}', '{' ' * len(_BLANKED)}')))"
    )


def upgrade() -> None:
    op.create_index("ix_payment_line_charge", "payment_line", ["charge"])
    dialect = op.get_bind().dialect.name
    for table in TABLES:
        if dialect == "sqlite":
            for statement in _sqlite(table):
                op.execute(statement)
        elif dialect == "postgresql":
            op.execute(_postgresql(table))


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in TABLES:
        if dialect == "sqlite":
            for suffix in ("ai", "ad", "au"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_fts_{suffix}")
            op.execute(f"DROP TABLE IF EXISTS {table}_fts")
        elif dialect == "postgresql":
            op.execute(f"DROP INDEX IF EXISTS ix_{table}_search")
    op.drop_index("ix_payment_line_charge", table_name="payment_line")
