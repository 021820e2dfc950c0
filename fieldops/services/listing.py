"""Paged, searched lists: the SQL side of the UI's lazy table models.

Lists select columns, never ORM objects (three times cheaper, TOOLCHAIN.md),
and filter and sort in SQL, never in a proxy model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import Select, func, literal_column, select, text

from fieldops.db.engine import Database
from fieldops.db.search import (
    ANIMAL_FTS_COLUMNS,
    PERSON_FTS_COLUMNS,
    fts5_query,
    pg_vector,
    search_terms,
    tsquery,
)

T = TypeVar("T")

_COLUMNS = {"person": PERSON_FTS_COLUMNS, "animal": ANIMAL_FTS_COLUMNS}


@dataclass(frozen=True)
class Page(Generic[T]):
    offset: int
    rows: tuple[T, ...]


def fts_ids(db: Database, table: str, text_: str) -> Select | None:
    """A select of the ids whose text matches every term as a prefix, or None for no terms."""
    terms = search_terms(text_)
    if not terms:
        return None
    if db.dialect == "sqlite":
        fts = f"{table}_fts"
        return select(literal_column("rowid")).select_from(text(fts)).where(
            literal_column(fts).op("MATCH")(fts5_query(terms))
        )
    q = tsquery(terms)
    vector = literal_column(pg_vector(_COLUMNS[table]))
    return (
        select(literal_column("id"))
        .select_from(text(table))
        .where(vector.op("@@")(func.to_tsquery("simple", q)))
    )


def search_filter(db: Database, query: Select, model, table: str, text_: str) -> Select:
    ids = fts_ids(db, table, text_)
    return query if ids is None else query.where(model.id.in_(ids))
