"""The calls list: open calls first, by priority and age; filtered and searched in SQL."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Dialect,
    Integer,
    Select,
    bindparam,
    exists,
    false,
    func,
    literal_column,
    or_,
    select,
)

from fieldops.db.engine import Database
from fieldops.db.models import CallParty, CautionFlag, FieldCall
from fieldops.db.models.calls import OPEN_FIRST
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.views import CallRow
from fieldops.services.listing import (
    Page,
    Rows,
    as_stored,
    converter,
    fts_ids,
    nearer_end,
    reading,
)

SHOW = {
    "open": "Open (not dispatched or no outcome)",
    "mine": "Assigned to me, open",
    "not_dispatched": "Not yet dispatched",
    "follow_up": "Awaiting follow-up",
    "all": "All calls",
    "closed": "Closed",
}
PERIODS = {"": "Any time", "1": "Last 24 hours", "7": "Last 7 days", "30": "Last 30 days"}


@dataclass(frozen=True)
class CallFilter:
    show: str = "open"
    kind: str = ""  # "" for every kind
    period: str = ""  # days back, "" for any time
    text: str = ""
    officer: str = ""  # the login "mine" means


# A search matching at least this many calls is walked in the list's order, its matches
# looked up as the walk meets them; fewer are fetched by id and sorted.
WALK_MATCHES = 5_000


# The moment's bounds (a week's follow-ups, a period's start): parameters, so that each
# filter's statements are built once and kept. Building the page's statement (its caution
# mark, its ids) cost more than running it (issue 14), as for the impounds list.
_FOLLOW_UP_BY = bindparam("follow_up_by", type_=FieldCall.follow_up_due_on.type)
_SINCE = bindparam("since", type_=FieldCall.received_at.type)
_OFFSET = bindparam("offset", type_=Integer)
_LIMIT = bindparam("limit", type_=Integer)
_KEPT = 256


def _moment(f: CallFilter, at: datetime) -> dict[str, Any]:
    """The parameters of ``f``'s statements at ``at``: an instant in the jurisdiction's
    zone, whose date is the city's today (the week's follow-ups are counted from it; in
    a Central evening the UTC date is already tomorrow)."""
    if at.tzinfo is None:
        raise ValueError("the calls list needs an aware moment, in the jurisdiction's zone")
    days = int(f.period) if f.period in PERIODS and f.period else 0
    return {"follow_up_by": at.date() + timedelta(days=7), "since": at - timedelta(days=days)}


def _where(dialect: str, f: CallFilter, walk_matches: bool = False) -> list[ColumnElement[Any]]:
    """The filter as SQL. ``walk_matches``: a search's matches checked as the list's order
    index is walked (on SQLite a unary "+", its no-op, keeps the id off the table's own
    b-tree), where fetching 20,000 matching calls by id to sort them took 50 ms and the
    walk to a first page of them 9 ms."""
    c: list[ColumnElement[Any]] = []
    st = FieldCall.status
    if f.show == "open":
        # The two open states by name, not "not closed": an index range for each, where
        # "!=" walked the whole status index (500,000 calls for a few hundred open).
        c.append(st.in_(("open", "dispatched")))
    elif f.show == "mine":
        c += [st == "dispatched", FieldCall.officer == f.officer]
    elif f.show == "not_dispatched":
        c.append(st == "open")
    elif f.show == "follow_up":
        # As Today and the officer's day ask it (``followups.follow_up_pending``): a closed
        # call's follow-up still to do, neither recorded done nor closed by a recheck.
        c += [st == "closed", FieldCall.follow_up_due_on <= _FOLLOW_UP_BY]
    elif f.show == "closed":
        c.append(st == "closed")
    if f.kind in rules.CALL_KINDS:
        c.append(FieldCall.kind == f.kind)
    if f.period in PERIODS and f.period:
        c.append(FieldCall.received_at >= _SINCE)
    text_ = v.searchable(f.text).strip()
    number = v.case_number(text_)
    if number is not None:
        c.append(FieldCall.id == number)
    elif text_:
        # Every word as the start of a word of the call's text, on its index (migration 0024).
        ids = fts_ids(dialect, "field_call", text_)
        if ids is None:
            c.append(false())
        elif walk_matches and dialect == "sqlite":
            c.append(literal_column("+field_call.id").in_(ids))
        else:
            c.append(FieldCall.id.in_(ids))
    return c


# Filters whose calls are all on one side of "open first": the side needs no sorting
# key of its own, and without it the status index walks the calls in their order.
ONE_SIDE = ("open", "mine", "not_dispatched", "closed")

# "Open first" spelled as its indexes are (migration 0025): an index on an expression
# serves a query only when the query says the same expression, bound values included.
_OPEN_FIRST: ColumnElement[int] = literal_column(OPEN_FIRST.replace("status", "field_call.status"))


def _order(f: CallFilter, backwards: bool = False) -> list[Any]:
    """Open calls first, then by priority and age (the call number breaking ties): an
    order walked on an index. ``backwards``: the same order reversed."""
    order: list[Any] = [FieldCall.priority, FieldCall.received_at, FieldCall.id]
    if f.show not in ONE_SIDE:
        order.insert(0, _OPEN_FIRST)
    return [k.desc() for k in order] if backwards else order


@lru_cache(maxsize=_KEPT)
def _count_statement(dialect: str, f: CallFilter) -> Select[int]:
    return select(func.count()).select_from(FieldCall).where(*_where(dialect, f))


def _counted(conn: Connection, f: CallFilter, at: datetime) -> int:
    # A kept statement has only the parameters its filter uses; the others are ignored.
    n: int = conn.execute(_count_statement(conn.dialect.name, f), _moment(f, at)).scalar_one()
    return n


def _count(conn: Connection, db: Database, f: CallFilter, at: datetime) -> int:
    if f.show in ("all", "closed") and not f.period and not f.text.strip():
        # All calls (of a kind) less the open ones: the table's own count (or the kind's
        # index range) and a few open calls, where counting the closed ones stepped
        # through nearly every entry of the status index (93 ms at 500,000 calls).
        total = _counted(conn, replace(f, show="all"), at)
        if f.show == "all":
            return total
        return total - _counted(conn, replace(f, show="open"), at)
    return _counted(conn, f, at)


def _ids(dialect: str, f: CallFilter, backwards: bool, walk_matches: bool) -> Select[int]:
    """A page's ids, walked in the list's order (or its reverse) on the order's index."""
    return (
        select(FieldCall.id)
        .where(*_where(dialect, f, walk_matches))
        .order_by(*_order(f, backwards))
        .offset(_OFFSET)
        .limit(_LIMIT)
    )


def _ids_query(
    db: Database,
    f: CallFilter,
    at: datetime,
    offset: int,
    limit: int,
    backwards: bool = False,
    walk_matches: bool = False,
) -> Select[int]:
    """A page's ids with their values bound (the statement the page's own is built on)."""
    q = _ids(db.dialect, f, backwards, walk_matches)
    return q.params({**_moment(f, at), "offset": offset, "limit": limit})


_CAP = bindparam("cap", type_=Integer)


@lru_cache(maxsize=_KEPT)
def _capped_count(text_: str) -> Select[int] | None:
    ids = fts_ids("sqlite", "field_call", text_)
    if ids is None:
        return None
    return select(func.count()).select_from(ids.limit(_CAP).subquery())


def _many_matches(conn: Connection, db: Database, f: CallFilter) -> bool:
    """Whether the search matches at least ``WALK_MATCHES`` calls (its index's own count)."""
    text_ = v.searchable(f.text).strip()
    if db.dialect != "sqlite" or not text_ or v.case_number(text_) is not None:
        return False
    statement = _capped_count(text_)
    if statement is None:
        return False
    n: int = conn.execute(statement, {"cap": WALK_MATCHES}).scalar_one()
    return n >= WALK_MATCHES


def count_calls(db: Database, f: CallFilter, at: datetime) -> int:
    with reading(db) as conn:
        return _count(conn, db, f, at)


_FLAGGED = exists().where(
    CautionFlag.cleared_at.is_(None),
    or_(
        CautionFlag.address_key == FieldCall.address_key,
        CautionFlag.person_id == FieldCall.owner_id,
        CautionFlag.person_id == FieldCall.caller_id,
        CautionFlag.person_id.in_(
            select(CallParty.person_id)
            .where(CallParty.call_id == FieldCall.id, CallParty.person_id.is_not(None))
            .correlate(FieldCall)  # this call's parties, not every call's
        ),
    ),
)


@lru_cache(maxsize=_KEPT)
def _page_statement(
    dialect: str, f: CallFilter, backwards: bool, walk_matches: bool
) -> Select[*tuple[Any, ...]]:
    ids = _ids(dialect, f, backwards, walk_matches)
    return (
        select(
            FieldCall.id,
            as_stored(FieldCall.received_at).label("received_at"),
            FieldCall.kind,
            FieldCall.priority,
            FieldCall.address,
            FieldCall.status,
            FieldCall.officer,
            FieldCall.outcome,
            as_stored(FieldCall.follow_up_on).label("follow_up_on"),
            _FLAGGED.label("flagged"),
        )
        .where(FieldCall.id.in_(ids.scalar_subquery()))
        .order_by(*_order(f))
    )


def calls_page(db: Database, f: CallFilter, offset: int, limit: int, at: datetime) -> Page[CallRow]:
    with reading(db) as conn:
        # The last page of 500,000 calls by OFFSET: 1.7 s.
        backwards, start, n = nearer_end(offset, limit, lambda: _count(conn, db, f, at))
        statement = _page_statement(conn.dialect.name, f, backwards, _many_matches(conn, db, f))
        params = {**_moment(f, at), "offset": start, "limit": n}
        rows = conn.execute(statement, params).all()
        instant, day = _converters(conn.dialect)
    return Page(offset, Rows(rows, partial(_call_row, instant, day)))


Convert = Callable[[Any], Any]


@lru_cache(maxsize=8)
def _converters(dialect: Dialect) -> tuple[Convert, Convert]:
    """An instant's and a day's conversion from their stored values (``as_stored``)."""
    return converter(FieldCall.received_at, dialect), converter(FieldCall.follow_up_on, dialect)


def _call_row(instant: Convert, day: Convert, r: Any) -> CallRow:
    """One row of the list, built when the view first reads it (``Rows``); its dates and
    instants converted as SQLAlchemy would have (``as_stored``). Unpacked in the page
    statement's order: a row's attribute by name costs a hundred times a column unpacked."""
    cid, received_at, kind, priority, address, status, officer, outcome, follow_up, flagged = r
    return CallRow(
        cid,
        instant(received_at),
        rules.kind_label(kind),
        priority,
        rules.PRIORITIES[priority],
        address,
        status,
        officer,
        rules.OUTCOMES.get(outcome or "", ""),
        day(follow_up) if follow_up is not None else None,
        bool(flagged),
    )
