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

At 1,000,000 people a search for a common surname ("ruiz", 36,752 matches)
read every match's sort key to sort them for the first page (22 ms against
4 ms at 100,000). The People list is ordered by sort name, so:

- ``person_word`` (head, sort_name, person_id, word): each word of four
  characters or more of an active person's searched text (the words the
  search index holds: FTS5's on SQLite, ``to_tsvector('simple', ...)`` on
  PostgreSQL), under its first four characters. A one-word search walks its
  head's rows in the list's order and stops after the page: a range read of a
  few hundred rows, however many people match. Triggers keep it in the same
  transaction as the change (on SQLite a person's words are read by passing
  the row through a contentless FTS5 table with the search index's tokenizer,
  ``person_fts_words``, emptied again at once), ``fieldops check`` reports a
  copy that differs from the search index's words, and the bench's generator
  fills it after its load as this migration does.

Plain operations, not batch ones: a batch on SQLite recreates the table and
drops its triggers. Where the file keeps planner statistics the new index and
table get their own, as in migration 0025.

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-02 03:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran; laid out as
# PostgreSQL prints it back (the schema's comparison with the models).
NO_EXPIRY = "(expires_on IS NULL)"

# A person's searched columns (fieldops.db.search.PERSON_FTS_COLUMNS as 0030 ran).
COLUMNS = ("full_name", "address", "city", "search_phone", "email")
HEAD = 4  # a word's characters its rows are kept under; shorter words are not kept
WORDS = "person_fts_words"  # contentless FTS5: the search index's tokenizer, for one row
TERMS = "person_fts_words_terms"
TRIGGERS = ("person_word_ai", "person_word_au", "person_word_ad")


def _passed_through(row: str) -> str:
    """SQLite: ``row``'s words into the tokenizing table, if ``row`` is an active person."""
    cols = ", ".join(COLUMNS)
    values = ", ".join(f"{row}.{c}" for c in COLUMNS)
    return (
        f"INSERT INTO {WORDS}(rowid, {cols}) SELECT {row}.id, {values} "
        f"WHERE {row}.archived_at IS NULL; "
    )


_EMPTIED = f"INSERT INTO {WORDS}({WORDS}) VALUES ('delete-all'); "
_ADD_NEW = (
    _passed_through("new")
    + f"INSERT INTO person_word(head, sort_name, person_id, word) SELECT substr(term, 1, {HEAD}), "
    f"new.sort_name, new.id, term FROM {TERMS} WHERE length(term) >= {HEAD}; " + _EMPTIED
)
_REMOVE_OLD = (
    _passed_through("old")
    + f"DELETE FROM person_word WHERE person_id = old.id AND sort_name = old.sort_name "
    f"AND head IN (SELECT substr(term, 1, {HEAD}) FROM {TERMS}); " + _EMPTIED
)
SQLITE_DDL = (
    f"CREATE VIRTUAL TABLE {WORDS} USING fts5({', '.join(COLUMNS)}, content='', "
    "tokenize='unicode61 remove_diacritics 2')",
    f"CREATE VIRTUAL TABLE {TERMS} USING fts5vocab({WORDS}, 'row')",
    f"CREATE TRIGGER person_word_ai AFTER INSERT ON person BEGIN {_ADD_NEW}END",
    f"CREATE TRIGGER person_word_au AFTER UPDATE OF {', '.join(COLUMNS)}, sort_name, "
    f"archived_at ON person BEGIN {_REMOVE_OLD}{_ADD_NEW}END",
    f"CREATE TRIGGER person_word_ad AFTER DELETE ON person BEGIN {_REMOVE_OLD}END",
)
# Every active person's words from the search index itself (its instances, one a word
# and column), in the kept table's order.
SQLITE_FILL = (
    "INSERT OR IGNORE INTO person_word(head, sort_name, person_id, word) "
    f"SELECT substr(i.term, 1, {HEAD}), p.sort_name, p.id, i.term "
    "FROM temp.person_fts_instances AS i JOIN person AS p ON p.id = i.doc "
    f"WHERE length(i.term) >= {HEAD} AND p.archived_at IS NULL ORDER BY 1, 2, 3, 4"
)
SQLITE_INSTANCES = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.person_fts_instances "
    "USING fts5vocab(main, person_fts, instance)"
)


def pg_words(row: str) -> str:
    """PostgreSQL: the lexemes of ``row``'s searched text, as ix_person_search holds them."""
    joined = " || ' ' || ".join(f"translate(coalesce({row}.{c}, ''), '<>', '  ')" for c in COLUMNS)
    return f"unnest(tsvector_to_array(to_tsvector('simple', {joined})))"


PG_FUNCTION = f"""
CREATE FUNCTION person_word_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.archived_at IS NULL THEN
        DELETE FROM person_word WHERE person_id = OLD.id AND sort_name = OLD.sort_name
            AND head IN (SELECT left(w, {HEAD}) FROM {pg_words("OLD")} AS w);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.archived_at IS NULL THEN
        INSERT INTO person_word (head, sort_name, person_id, word)
            SELECT left(w, {HEAD}), NEW.sort_name, NEW.id, w FROM {pg_words("NEW")} AS w
            WHERE length(w) >= {HEAD};
    END IF;
    RETURN NULL;
END $$
"""
PG_TRIGGER = (
    "CREATE TRIGGER person_word_sync AFTER INSERT OR DELETE OR UPDATE OF "
    f"{', '.join(COLUMNS)}, sort_name, archived_at ON person "
    "FOR EACH ROW EXECUTE FUNCTION person_word_sync()"
)
PG_FILL = (
    "INSERT INTO person_word (head, sort_name, person_id, word) "
    f"SELECT DISTINCT left(w, {HEAD}), p.sort_name, p.id, w FROM person AS p, "
    f"{pg_words('p')} AS w WHERE length(w) >= {HEAD} AND p.archived_at IS NULL"
)


def fill_sql(dialect: str) -> list[str]:
    """The statements that write every active person's words (after the search index)."""
    if dialect == "sqlite":
        return [SQLITE_INSTANCES, SQLITE_FILL, "DROP TABLE temp.person_fts_instances"]
    return [PG_FILL]


def upgrade() -> None:
    op.create_index(
        "ix_permit_list_expiry", "permit", [sa.text(NO_EXPIRY), "expires_on", "id", "status"]
    )
    op.create_table(
        "person_word",
        sa.Column("head", sa.String(HEAD), nullable=False),
        sa.Column("sort_name", sa.String(200), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("word", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("head", "sort_name", "person_id", "word", name="pk_person_word"),
        sqlite_with_rowid=False,
    )
    bind = op.get_bind()
    dialect = bind.dialect.name
    for statement in fill_sql(dialect):
        op.execute(statement)
    if dialect == "sqlite":
        for statement in SQLITE_DDL:
            op.execute(statement)
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            op.execute("ANALYZE ix_permit_list_expiry")
            op.execute("ANALYZE person_word")
    else:
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
        op.execute(f"DROP TABLE {TERMS}")
        op.execute(f"DROP TABLE {WORDS}")
    else:
        op.execute("DROP TRIGGER person_word_sync ON person")
        op.execute("DROP FUNCTION person_word_sync()")
    op.drop_table("person_word")
    op.drop_index("ix_permit_list_expiry", table_name="permit")
