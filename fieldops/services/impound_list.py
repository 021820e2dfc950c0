"""The impounds list: filtered, searched and sorted in SQL, fetched a page at a time.

Every filter and sort reads the impoundment row alone: the animal's name and
species, the owner's sort name and the current disposition are copied onto it
by triggers (migration 0004), so each (status, sort) pair walks an index in its
own order and a page costs its offset plus its rows, never the square of the
table (41 s at 30,000 impoundments when the order came from a join). A page
is fetched as ids first and its columns after, like the people list.

Both calls are cancellable (:mod:`fieldops.db.cancel`): a list query the user
has moved past is interrupted instead of holding a core.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import lru_cache, partial
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Connection,
    Dialect,
    Integer,
    Select,
    bindparam,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.elements import SQLCoreOperations

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Impoundment, Person
from fieldops.rules import Profile, boarding_days, to_local
from fieldops.rules.release import RELEASE_KINDS
from fieldops.services import validate as v
from fieldops.services.impound_views import DISPOSITIONS, IN_CUSTODY_STATUS, ImpoundRow
from fieldops.services.listing import (
    Page,
    Rows,
    as_stored,
    converter,
    fts_ids,
    nearer_end,
    reading,
)
from fieldops.services.past_hold import held_past_hold, held_past_hold_params

STATUSES = {
    "all": "All",
    "in_custody": "In custody",
    "on_hold": "On hold",
    "adoptable": "Adoptable",
    "past_hold": "Held past the hold",
    "released": "Released (reclaimed or adopted)",
    "disposed": "All dispositions",
}

RELEASES = RELEASE_KINDS

SORTS = {
    "impounded_at": Impoundment.impounded_at,
    "last_claim_day": Impoundment.last_claim_day,
    "animal": Impoundment.animal_name,
    "species": Impoundment.animal_species,
    "owner": Impoundment.owner_sort_name,
    "kennel": Impoundment.kennel,
}


@dataclass(frozen=True)
class ImpoundFilter:
    status: str = "in_custody"
    species: str = ""
    date_from: date | None = None
    date_to: date | None = None
    text: str = ""
    sort: str = "impounded_at"
    descending: bool = True


T = TypeVar("T")
Convert = Callable[[Any], Any]
# A column as a condition uses it: itself, or hidden from the index chooser.
ColumnUse = Callable[[InstrumentedAttribute[Any]], SQLCoreOperations[Any]]


# The moment a list is asked at: a parameter, so that a statement is built once and kept;
# and its local day, for "held past the hold" (``held_past_hold_params``).
AT = bindparam("at", type_=Impoundment.release_to_others_from.type)
DAY = bindparam("day", type_=Impoundment.last_claim_day.type)
DAY_START = bindparam("start", type_=Impoundment.release_to_others_from.type)
DAY_END = bindparam("start_next", type_=Impoundment.release_to_others_from.type)


def _status(
    status: str, at: Any, col: ColumnUse, counting: bool, walk: ColumnUse
) -> list[ColumnElement[Any]]:
    # Every status but "all" names ``disposed`` first: the (disposed, key, id)
    # indexes then deliver each sort's order within the status.
    custody = col(Impoundment.disposed).is_(False)
    if status == "in_custody":
        return [custody]
    if status == "on_hold":
        return [custody, Impoundment.release_to_others_from > at]
    if status == "adoptable":
        return [custody, Impoundment.release_to_others_from <= at]
    if status == "past_hold":  # what Today counts (fieldops.services.pound)
        # A page walks its sort's index: the claim day only filters it (``walk``).
        last = Impoundment.last_claim_day
        return [custody, *held_past_hold(DAY, DAY_START, DAY_END, walk(last))]
    if status == "released":
        released = col(Impoundment.disposition_kind).in_(RELEASES)
        # Counted on the kind's own index; paged on the status one.
        return [released] if counting else [col(Impoundment.disposed).is_(True), released]
    if status == "disposed":
        return [col(Impoundment.disposed).is_(True)]
    return []


def _indexed(column: InstrumentedAttribute[T]) -> SQLCoreOperations[T]:
    return column


def _not_indexed(column: InstrumentedAttribute[T]) -> SQLCoreOperations[T]:
    """``+column`` on SQLite: the same value, but no index may be chosen for it.

    SQLite has no statistics here, so it takes any index matching an equality
    (a species, a status) and then sorts everything that matched: 35,000 cats
    sorted for a page of 100. Keeping such terms off the indexes makes it walk
    the sort's own index and filter, or, for a search, start from the few
    matches. PostgreSQL's planner has statistics and needs no such help.
    """
    return literal_column(f"+{column.table.name}.{column.name}", column.type)


def _text(db: Database | str, text_: str) -> ColumnElement[bool] | None:
    text_ = v.searchable(text_).strip()
    if not text_:
        return None
    code = text_.replace(" ", "").upper()
    conds: list[ColumnElement[bool]] = [
        Impoundment.animal_id.in_(
            select(Animal.id).where(or_(Animal.microchip == code, Animal.licence_number == code))
        ),
        Impoundment.kennel == text_,
    ]
    if (number := v.case_number(text_)) is not None:
        conds.append(Impoundment.id == number)
    for table, column in (("animal", Impoundment.animal_id), ("person", Impoundment.owner_id)):
        ids = fts_ids(db, table, text_)
        if ids is not None:
            conds.append(column.in_(ids))
    return or_(*conds)


def _where(
    db: Database | str, f: ImpoundFilter, at: Any, *, counting: bool = False
) -> list[ColumnElement[Any]]:
    """The filter as conditions on the impoundment row alone.

    A search starts from its matches (an index per kind of match); without
    one, a page walks the status and sort's index and the species only
    filters, while a count may use any index.
    """
    text_cond = _text(db, f.text)
    sqlite = (db if isinstance(db, str) else db.dialect) == "sqlite"
    searching = sqlite and text_cond is not None
    # A period's page walks the custody day's index; the status only filters it.
    by_day = sqlite and not counting and _by_custody_day(f)
    # A species or a claim day only filters a page's walk, or a search's matches.
    only_filters = _not_indexed if sqlite and (searching or not counting) else _indexed
    conds = _status(
        f.status,
        at,
        _not_indexed if searching or by_day else _indexed,
        counting and not searching,
        only_filters,
    )
    if f.species:
        conds.append(only_filters(Impoundment.animal_species) == f.species)
    if f.date_from:
        conds.append(Impoundment.custody_day >= f.date_from)
    if f.date_to:
        conds.append(Impoundment.custody_day <= f.date_to)
    if text_cond is not None:
        conds.append(text_cond)
    return conds


def _by_custody_day(f: ImpoundFilter) -> bool:
    """A period sorted by impoundment time: walked on the custody day's index.

    The custody day is the local date of the impoundment (rules.impound), so
    ordering by it first changes no order; it lets the period's range and the
    order come from one index (0016) instead of sorting the period's rows
    (98 ms for a year of 10,000, measured).
    """
    return f.sort == "impounded_at" and (f.date_from is not None or f.date_to is not None)


def _order(f: ImpoundFilter) -> list[ColumnElement[Any]]:
    key = SORTS.get(f.sort, Impoundment.impounded_at)
    keys = [Impoundment.custody_day, key] if _by_custody_day(f) else [key]
    keys.append(Impoundment.id)
    return [k.desc() if f.descending else k.asc() for k in keys]


def count_query(
    db: Database, f: ImpoundFilter, at: datetime, profile: Profile | None = None
) -> Select[int]:
    """The count's statement for ``at`` (its plan, for tests): its parameters bound."""
    q = select(func.count()).select_from(Impoundment).where(*_where(db, f, at, counting=True))
    return q.params(_day_params(at, profile))


def ids_query(
    db: Database,
    f: ImpoundFilter,
    at: datetime,
    offset: int,
    limit: int,
    profile: Profile | None = None,
) -> Select[int]:
    """One page's ids in list order: an index walk for every status and sort."""
    q = select(Impoundment.id).where(*_where(db, f, at)).order_by(*_order(f))
    return q.offset(offset).limit(limit).params(_day_params(at, profile))


# Statements built once per filter and kept (their parameters: the moment, the page's
# place): building one cost more than running it (0.4 ms a page against 0.3, measured).
_KEPT = 256


@lru_cache(maxsize=_KEPT)
def _count_statement(dialect: str, f: ImpoundFilter) -> Select[int]:
    return (
        select(func.count()).select_from(Impoundment).where(*_where(dialect, f, AT, counting=True))
    )


@lru_cache(maxsize=_KEPT)
def _page_statement(
    dialect: str, f: ImpoundFilter, walk: ImpoundFilter
) -> Select[*tuple[Any, ...]]:
    """A page's rows; its ids walked in ``walk``'s order (the list's, or reversed from its far
    end), the rows put in the list's order."""
    ids = (
        select(Impoundment.id)
        .where(*_where(dialect, walk, AT))
        .order_by(*_order(walk))
        .offset(bindparam("offset", type_=Integer))
        .limit(bindparam("limit", type_=Integer))
        .subquery()
    )
    return (
        select(
            Impoundment.id,
            Impoundment.disposition_kind,
            as_stored(Impoundment.disposition_at),
            Animal.name,
            Animal.species,
            Animal.breed,
            Animal.colour,
            as_stored(Impoundment.impounded_at),
            as_stored(Impoundment.last_claim_day),
            as_stored(Impoundment.release_to_others_from),
            func.coalesce(Person.full_name, ""),
            Impoundment.kennel,
        )
        .join(ids, ids.c.id == Impoundment.id)
        .join(Animal, Animal.id == Impoundment.animal_id)
        .outerjoin(Person, Person.id == Impoundment.owner_id)
        .order_by(*_order(f))
    )


def _params(at: datetime, profile: Profile) -> dict[str, Any]:
    """A list statement's parameters: the moment it is asked at, and its local day's."""
    return {"at": at, **_day_params(at, profile)}


def _day_params(at: datetime, profile: Profile | None) -> dict[str, Any]:
    profile = profile or Profile.default()
    return held_past_hold_params(to_local(at, profile).date(), profile)


def _count(conn: Connection, f: ImpoundFilter, params: dict[str, Any]) -> int:
    n: int = conn.execute(_count_statement(conn.dialect.name, f), params).scalar_one()
    return n


def _nearer_end(
    conn: Connection, f: ImpoundFilter, params: dict[str, Any], offset: int, limit: int
) -> tuple[ImpoundFilter, int, int]:
    """The order a page's ids are walked in (``nearer_end``: the last page of a million
    impoundments stepped a million index entries), and the walk's offset and limit;
    the count costs an index count, in the same read as the page."""
    backwards, start, n = nearer_end(offset, limit, lambda: _count(conn, f, params))
    return (replace(f, descending=not f.descending) if backwards else f), start, n


def count_impounds(
    db: Database, f: ImpoundFilter, at: datetime, profile: Profile | None = None
) -> int:
    """How many match at ``at`` (its day in ``profile``'s zone, the default profile's
    if none). "All dispositions" alone is every impoundment less those in custody:
    the table's own count and a few custody rows, where counting the disposed ones
    stepped through nearly every row (72 ms at 100,000, measured)."""
    params = _params(at, profile or Profile.default())
    with reading(db) as conn:
        if f == ImpoundFilter(status="disposed", sort=f.sort, descending=f.descending):
            total: int = conn.execute(_TABLE_COUNT).scalar_one()
            return total - _count(conn, replace(f, status="in_custody"), params)
        return _count(conn, f, params)


_TABLE_COUNT = select(func.count()).select_from(Impoundment)


def impounds_page(
    db: Database, f: ImpoundFilter, offset: int, limit: int, at: datetime, profile: Profile
) -> Page[ImpoundRow]:
    params = _params(at, profile)
    with reading(db) as conn:
        walk, start, n = _nearer_end(conn, f, params, offset, limit)
        rows = conn.execute(
            _page_statement(conn.dialect.name, f, walk),
            {**params, "offset": start, "limit": n},
        ).all()
        dialect = conn.dialect
    return Page(
        offset=offset, rows=Rows(rows, partial(_impound_row, at, profile, *_converters(dialect)))
    )


@lru_cache(maxsize=8)
def _converters(dialect: Dialect) -> tuple[Convert, Convert]:
    """An instant's and a day's conversion from their stored values (``as_stored``)."""
    return converter(Impoundment.impounded_at, dialect), converter(
        Impoundment.last_claim_day, dialect
    )


def _impound_row(
    at: datetime, profile: Profile, instant: Convert, day: Convert, r: Any
) -> ImpoundRow:
    """One row of the list, built when the view first reads it (``Rows``); its dates and
    instants converted as SQLAlchemy would have (``as_stored``)."""
    imp_id, kind, disp_at, name, species, breed, colour = r[:7]
    impounded_at, last_claim, others_from = instant(r[7]), day(r[8]), instant(r[9])
    owner, kennel = r[10], r[11]
    disp_at = instant(disp_at) if disp_at is not None else None
    if kind and disp_at is not None:  # both copied from one disposition row
        code, status = kind, DISPOSITIONS[kind]
        end = disp_at
    else:  # the hold's end was computed by the rules at intake (release_to_others_from)
        code = "adoptable" if at >= others_from else "on_hold"
        status = IN_CUSTODY_STATUS[code]
        end = max(at, impounded_at)
    animal = ", ".join(x for x in (name or "(no name)", breed, colour) if x)
    return ImpoundRow(
        imp_id,
        status,
        animal,
        species,
        impounded_at,
        boarding_days(impounded_at, end, profile),
        last_claim,
        owner,
        kennel,
        status_code=code,
    )


def stale_list_copies(conn: Connection) -> list[str]:
    """Impoundments whose list copies differ from their sources (for ``fieldops check``).

    The triggers keep them in step; a difference means a trigger was lost (a
    batch migration on SQLite drops them) or a row was changed around them,
    and the impounds list would file those impoundments under the wrong
    status or order.
    """
    from fieldops.db.models import Disposition

    latest = (
        select(Disposition)
        .where(Disposition.impoundment_id == Impoundment.id)
        .order_by(Disposition.id.desc())
        .limit(1)
        .correlate(Impoundment)
    )
    kind = latest.with_only_columns(Disposition.kind).scalar_subquery()
    at = latest.with_only_columns(Disposition.at).scalar_subquery()
    q = (
        select(func.count())
        .select_from(Impoundment)
        .join(Animal, Animal.id == Impoundment.animal_id)
        .outerjoin(Person, Person.id == Impoundment.owner_id)
        .where(
            or_(
                Impoundment.animal_name != Animal.name,
                Impoundment.animal_species != Animal.species,
                Impoundment.owner_sort_name != func.coalesce(Person.sort_name, ""),
                Impoundment.disposition_kind.is_distinct_from(kind),
                Impoundment.disposition_at.is_distinct_from(at),
            )
        )
    )
    n = conn.execute(q).scalar_one()
    return (
        [f"{n} impoundment(s) are listed under a stale animal, owner or disposition"] if n else []
    )


__all__ = [
    "SORTS",
    "STATUSES",
    "ImpoundFilter",
    "count_impounds",
    "impounds_page",
    "stale_list_copies",
]
