"""Full-text search over people, animals and the lists' search copies, in SQL on both back ends.

What a search matches (the same on SQLite and PostgreSQL): every word typed
must start a word of the record's text, in any order ("ana ruiz" finds "Ruiz,
Anabel"; "elm" finds "12 Elm St" and "Elmwood Ct"; "lm" finds neither: the
middle of a word is not searched). Punctuation separates words ("k-7" is "k"
and "7", "o'brien" is "o" and "brien"). Case and accents do not matter on
SQLite (FTS5's unicode61 with diacritics removed); PostgreSQL's "simple"
configuration ignores case. A phone number typed with four digits or more is
its digits, matched as the start of a number (``search_phone`` holds each
person's whole number and its local seven). A number alone is each list's
record number (its service decides), and tags and microchips are matched
whole by the lists that have them.

SQLite uses FTS5 external-content tables kept by triggers; PostgreSQL uses
GIN indexes on ``to_tsvector('simple', ...)``. Alembic does not model either,
so ``include_object`` hides them from autogenerate, and the migration that
creates them (and any later batch migration on ``person`` or ``animal``, which
drops triggers on SQLite) must create them again.
"""

from __future__ import annotations

import re

from sqlalchemy.schema import SchemaItem

# The lists searched on their own ``search_text`` copy (migration 0024).
TEXT_SEARCHED = ("field_call", "vicious_case", "permit")
# quarantine: migration 0011; the text-searched lists: 0024
FTS_TABLES = ("person_fts", "animal_fts", "quarantine_fts", *(f"{t}_fts" for t in TEXT_SEARCHED))
SEARCH_INDEXES = (
    "ix_person_search",
    "ix_animal_search",
    "ix_quarantine_search",
    *(f"ix_{t}_search" for t in TEXT_SEARCHED),
)

PERSON_FTS_COLUMNS = ("full_name", "address", "city", "search_phone", "email")
ANIMAL_FTS_COLUMNS = ("name", "breed", "colour", "markings")


def include_object(
    obj: SchemaItem,
    name: str | None,
    type_: str,
    reflected: bool,
    compare_to: SchemaItem | None,
) -> bool:
    if type_ == "table" and name and any(name.startswith(t) for t in FTS_TABLES):
        return False
    return not (type_ == "index" and name in SEARCH_INDEXES)


def _fts_ddl(table: str, columns: tuple[str, ...]) -> list[str]:
    cols = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    fts = f"{table}_fts"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5({cols}, content='{table}', "
        f"content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old}); "
        f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
    ]


def pg_vector(columns: tuple[str, ...]) -> str:
    """The tsvector expression; index and query must use exactly the same text.

    Angle brackets are blanked because PostgreSQL's parser drops anything that
    looks like an XML tag, and "<Sons>" in a name must still be found.
    """
    joined = " || ' ' || ".join(f"translate(coalesce({c}, ''), '<>', '  ')" for c in columns)
    return f"to_tsvector('simple', {joined})"


# Blanked in a list's search copy before PostgreSQL's parser reads it: that parser keeps
# "k-9" as "k" and "-9", "ana@x.com" and "1.5" whole, where FTS5 and ``search_terms`` see
# separate words; blanked, both back ends find the same words (migration 0024's index).
PG_BLANKED = "<>-@./_+&#,;():"  # ":" last: never read as a parameter


def pg_text_vector(column: str = "search_text") -> str:
    """The tsvector of a list's search copy; its GIN index (0024) is on exactly this text."""
    blanks = " " * len(PG_BLANKED)
    return f"to_tsvector('simple', translate(coalesce({column}, ''), '{PG_BLANKED}', '{blanks}'))"


def create_search_ddl(dialect: str) -> list[str]:
    """Statements that create the search structures (idempotent only on a fresh schema)."""
    if dialect == "sqlite":
        return _fts_ddl("person", PERSON_FTS_COLUMNS) + _fts_ddl("animal", ANIMAL_FTS_COLUMNS)
    if dialect == "postgresql":
        return [
            f"CREATE INDEX ix_person_search ON person USING gin ({pg_vector(PERSON_FTS_COLUMNS)})",
            f"CREATE INDEX ix_animal_search ON animal USING gin ({pg_vector(ANIMAL_FTS_COLUMNS)})",
        ]
    return []


def drop_search_ddl(dialect: str) -> list[str]:
    if dialect == "sqlite":
        out = []
        for t in FTS_TABLES:
            out += [f"DROP TRIGGER IF EXISTS {t}_{s}" for s in ("ai", "ad", "au")]
            out.append(f"DROP TABLE IF EXISTS {t}")
        return out
    if dialect == "postgresql":
        return [f"DROP INDEX IF EXISTS {i}" for i in SEARCH_INDEXES]
    return []


_TOKEN = re.compile(r"[\w@.+'-]+", re.UNICODE)
_PHONEISH = re.compile(r"^[\d\s().+-]{4,}$")


def phone_search_text(phone: str) -> str:
    """Digits of a phone number whole and as the local seven, for prefix search."""
    digits = re.sub(r"\D", "", phone or "")
    if not digits:
        return ""
    parts = [digits]
    if len(digits) > 7:
        parts.append(digits[-7:])
    return " ".join(parts)


def search_terms(text: str) -> list[str]:
    """Split what a user typed into search terms; a phone number becomes its digits."""
    text = (text or "").strip()
    if not text:
        return []
    if _PHONEISH.match(text) and sum(ch.isdigit() for ch in text) >= 4:
        return [re.sub(r"\D", "", text)]
    terms: list[str] = []
    for raw in _TOKEN.findall(text):
        # FTS5's unicode61 splits on punctuation, so do the same to each term.
        terms.extend(t for t in re.split(r"[^\w]+", raw, flags=re.UNICODE) if t)
    return terms


def fts5_query(terms: list[str]) -> str:
    """Every term as a quoted prefix: user text never reaches FTS5 syntax."""
    return " AND ".join('"' + t.replace('"', '""') + '"*' for t in terms)


def tsquery(terms: list[str]) -> str:
    return " & ".join(re.sub(r"[^\w]", "", t) + ":*" for t in terms if re.sub(r"[^\w]", "", t))
