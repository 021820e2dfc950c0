"""Paged, searched lists: the SQL side of the UI's lazy table models.

Lists select columns, never ORM objects (three times cheaper, TOOLCHAIN.md),
and filter and sort in SQL, never in a proxy model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

from sqlalchemy import (
    ColumnElement,
    Connection,
    Dialect,
    Integer,
    Select,
    SQLColumnExpression,
    Subquery,
    TextClause,
    bindparam,
    func,
    literal_column,
    select,
    text,
    type_coerce,
)
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.types import NullType, TypeEngine

from fieldops.db.cancel import cancellable
from fieldops.db.engine import READONLY, Database
from fieldops.db.models import Animal, Person
from fieldops.db.search import (
    ANIMAL_FTS_COLUMNS,
    PERSON_FTS_COLUMNS,
    TEXT_SEARCHED,
    fts5_query,
    pg_text_vector,
    pg_vector,
    search_terms,
    tsquery,
)

Row = TypeVar("Row", covariant=True)  # a page is read-only (frozen)

_COLUMNS = {"person": PERSON_FTS_COLUMNS, "animal": ANIMAL_FTS_COLUMNS}


@dataclass(frozen=True)
class Page(Generic[Row]):
    offset: int
    rows: Sequence[Row]  # a tuple, or ``Rows`` built as they are read


class Rows(Sequence[Row]):
    """A page's rows, each built from its columns when first read, then kept.

    A list's view shows a few dozen rows of a page at a time: building all of them on
    the worker (the rules' boarding days, labels, dates in words) cost more than the
    page's statements (about 1 ms per 100 rows, issue 14). The builder is the same
    function the page used to call for every row, so every row read is the same row;
    a page read in full (a test, a report) builds all of them.
    """

    __slots__ = ("_build", "_built", "_raw")

    def __init__(self, raw: Sequence[Any], build: Callable[[Any], Row]) -> None:
        self._raw = raw
        self._build = build
        self._built: list[Any] = [_UNBUILT] * len(raw)

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, i: int) -> Row: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Row, ...]: ...
    def __getitem__(self, i: int | slice) -> Row | tuple[Row, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        row = self._built[i]
        if row is _UNBUILT:
            row = self._built[i] = self._build(self._raw[i])
        return row  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Row]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Rows({tuple(self)!r})"


_UNBUILT = object()


# A column or a mapped attribute, as a page's statement names it.
ListedColumn = SQLColumnExpression[Any] | InstrumentedAttribute[Any]


def as_stored(column: ListedColumn) -> ColumnElement[Any]:
    """``column`` read as the driver returns it, not converted while the page is read.

    A date or an instant read from SQLite is text that SQLAlchemy parses (and the
    instant's type then marks as UTC) for every row of the page: a third of a page's
    time. A page's row builder converts the few rows the view shows with ``converter``,
    the very conversion SQLAlchemy would have made."""
    return type_coerce(column, NullType())


def converter(column: ListedColumn, dialect: Dialect) -> Callable[[Any], Any]:
    """What reading ``column`` on ``dialect`` does to a stored value (``as_stored``)."""
    return _converter(type_coerce(column, NullType()).wrapped_column_expression.type, dialect)


@lru_cache(maxsize=64)
def _converter(type_: TypeEngine[Any], dialect: Dialect) -> Callable[[Any], Any]:
    process = type_.dialect_impl(dialect).result_processor(dialect, None)
    return process if process is not None else _unchanged


def _unchanged(value: Any) -> Any:
    return value


@contextmanager
def reading(db: Database) -> Iterator[Connection]:
    """A list's read-only unit of work on a bare connection, its statements cancellable.

    The same transaction as ``Database.read`` (a deferred BEGIN, the engine's
    checks before it and before COMMIT) without an ORM session around it: a
    list selects columns, and the session's execution path cost more than the
    statements themselves (about 0.3 ms a statement, measured against 0.1 ms).
    """
    with (
        db.engine.connect().execution_options(**{READONLY: True}) as conn,
        conn.begin(),
        cancellable(conn),
    ):
        yield conn


def fts_ids(db: Database | str, table: str, text_: str) -> Select[int] | None:
    """A select of the ids whose text matches every term as a prefix, or None for no terms.

    ``db`` may be the dialect's name alone, for statements built once and kept."""
    terms = search_terms(text_)
    if not terms:
        return None
    dialect = db if isinstance(db, str) else db.dialect
    if dialect == "sqlite":
        fts = f"{table}_fts"
        return (
            select(literal_column("rowid", Integer))
            .select_from(text(fts))
            .where(literal_column(fts).op("MATCH")(fts5_query(terms)))
        )
    q = tsquery(terms)
    expression = pg_text_vector() if table in TEXT_SEARCHED else pg_vector(_COLUMNS[table])
    vector: ColumnElement[Any] = literal_column(expression)
    return (
        select(literal_column("id", Integer))
        .select_from(text(table))
        .where(vector.op("@@")(func.to_tsquery("simple", q)))
    )


# Past this offset a page is walked from whichever end of the list is nearer.
DEEP_OFFSET = 5_000


def nearer_end(offset: int, limit: int, count: Callable[[], int]) -> tuple[bool, int, int]:
    """Whether a page is walked backwards, and the walk's offset and limit.

    An OFFSET steps through every row before the page: the last page of a
    million rows stepped a million index entries. A deep page (past
    ``DEEP_OFFSET``) nearer the far end is the first rows of the reverse order
    from there; ``count()`` (the list's count, asked only for a deep page) says
    which end is nearer. The caller's ORDER BY puts the page back in list order.
    """
    if offset < DEEP_OFFSET:
        return False, offset, limit
    total = count()
    after = total - offset - limit  # rows after this page
    if after >= offset:
        return False, offset, limit
    return True, max(after, 0), max(min(limit, total - offset), 0)


# The registers a paged list walks: each has an id and an archived_at.
Listed = type[Person] | type[Animal]


def active_count(s: Session | Connection, model: Listed, text_ids: Select[int] | None) -> int:
    """How many active rows (optionally among ``text_ids``).

    Without a search this is all rows minus archived ones: two index-only
    counts, where "WHERE archived_at IS NULL" would visit every row.
    """
    if text_ids is None:
        total: int = s.execute(select(func.count()).select_from(model)).scalar_one()
        archived: int = s.execute(
            select(func.count()).select_from(model).where(model.archived_at.is_not(None))
        ).scalar_one()
        return total - archived
    matching: int = s.execute(
        select(func.count())
        .select_from(model)
        .where(model.archived_at.is_(None), model.id.in_(text_ids))
    ).scalar_one()
    return matching


def page_ids(
    db: Database,
    model: Listed,
    order: tuple[InstrumentedAttribute[Any], ...],
    order_index: str,
    text_ids: Select[int] | None,
    offset: int,
    limit: int,
    reader: Session | Connection | None = None,
) -> Subquery:
    """The ids of one page of active rows, walked on the covering order index.

    Fetching ids first and the columns after (a "deferred join") keeps a deep
    OFFSET an index walk instead of a table scan. Without a search, SQLite is
    told to walk ``order_index``: with no statistics its planner prefers the
    ``archived_at`` index (an equality match) and sorts a million rows (0.3 s
    measured, against 0.1 ms). With a search the matches are few; sorting
    them beats walking the whole index, so the planner is left alone.

    ``reader``: the page's own unit of work, where a deep page counts its list (one
    read for the count and the page, not two).
    """

    def count() -> int:  # the last page of a million people: 500 ms by OFFSET, measured
        if reader is not None:
            return active_count(reader, model, text_ids)
        with db.read() as s:
            return active_count(s, model, text_ids)

    backwards, offset, limit = nearer_end(offset, limit, count)
    if text_ids is None and db.dialect == "sqlite":
        return (
            _sqlite_walk(model, order, order_index, backwards)
            .bindparams(limit=limit, offset=offset)
            .columns(id=Integer)
            .subquery()
        )
    q = select(model.id).where(model.archived_at.is_(None))
    if text_ids is not None:
        q = q.where(model.id.in_(text_ids))
    keys = [c.desc() for c in order] if backwards else list(order)
    return q.order_by(*keys).offset(offset).limit(limit).subquery()


def _sqlite_walk(
    model: Listed,
    order: tuple[InstrumentedAttribute[Any], ...],
    order_index: str,
    backwards: bool,
) -> TextClause:
    """A page of active ids on SQLite, walked on ``order_index``; ``:limit``, ``:offset``.
    SQLAlchemy renders no table hints for SQLite, so this one query is text."""
    columns = ", ".join(c.name + (" DESC" if backwards else "") for c in order)
    return text(
        f"SELECT id FROM {model.__tablename__} INDEXED BY {order_index} "
        f"WHERE archived_at IS NULL ORDER BY {columns} LIMIT :limit OFFSET :offset"
    )


def kept_page_ids(
    dialect: str,
    model: Listed,
    order: tuple[InstrumentedAttribute[Any], ...],
    order_index: str,
    backwards: bool,
) -> Subquery:
    """``page_ids`` of the whole register (no search) with ``:limit`` and ``:offset`` left
    as parameters, for a page statement built once and kept: building the statement cost
    about as much as running it (issue 14). The caller asks ``nearer_end`` itself."""
    if dialect == "sqlite":
        walk = _sqlite_walk(model, order, order_index, backwards)
        return walk.columns(id=Integer).subquery()
    keys = [c.desc() for c in order] if backwards else list(order)
    return (
        select(model.id)
        .where(model.archived_at.is_(None))
        .order_by(*keys)
        .offset(bindparam("offset", type_=Integer))
        .limit(bindparam("limit", type_=Integer))
        .subquery()
    )
