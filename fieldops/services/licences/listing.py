"""The licences list: filtered, searched and sorted in SQL, a page of ids at a time.

Filters: this year's current licences; expired ones (a dog's last licence from an
earlier year); due for renewal (last year's, not renewed, before the late-fee day)
and late (the same after it). Search: the tag, the owner's name or address, the dog's
microchip, name or breed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import (
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
    union_all,
)
from sqlalchemy.orm import aliased

from fieldops.db.engine import Database
from fieldops.db.models import Animal, DogLicence, DogLicenceCount, Person
from fieldops.rules import Profile, plural
from fieldops.services import validate as v
from fieldops.services.licences.renewals import adult_quote
from fieldops.services.licences.views import STATUS_WORDS
from fieldops.services.listing import (
    Page,
    Rows,
    as_stored,
    converter,
    fts_ids,
    nearer_end,
    reading,
)
from fieldops.services.people import format_address

FILTERS = {
    "current": "Current",
    "expired": "Expired",
    "due": "Due for renewal",
    "late": "Late (past the late-fee day)",
    "all": "All",
}

# Each key with an index of its own, the id after it (migration 0025); the dog's name and
# the owner's sort name are the licence's copies of them, kept by triggers.
SORTS = {
    "tag": DogLicence.tag_number,
    "year": DogLicence.licence_year,
    "issued": DogLicence.issued_at,
    "animal": DogLicence.animal_name,
    "owner": DogLicence.owner_sort_name,
    "status": DogLicence.status,
    "total": DogLicence.total,
}


@dataclass(frozen=True)
class LicenceFilter:
    show: str = "current"
    text: str = ""
    sort: str = "issued"
    descending: bool = True


@dataclass(frozen=True)
class LicenceRow:
    id: int
    licence_year: int
    tag: str
    status: str
    status_label: str
    animal: str
    owner: str
    address: str
    microchip: str
    total: Decimal
    late: bool
    applied_on: date


def _where(db: Database, f: LicenceFilter, today: date, profile: Profile) -> list[Any]:
    return _show_where(f, today.year, _renewal_late(f, today, profile)) + _text_where(db, f)


def _renewal_late(f: LicenceFilter, today: date, profile: Profile) -> bool:
    """For the "due" and "late" views: whether this year's renewals are late by ``today``."""
    return f.show in ("due", "late") and adult_quote(today.year, today, profile, True).late


def _show_where(f: LicenceFilter, year: int, past: bool) -> list[Any]:
    """The view's conditions (``f.show``) in ``year``, renewals late or not (``past``)."""
    out: list[Any] = []
    if f.show == "current":
        out += [DogLicence.status == "current", DogLicence.licence_year == year]
    elif f.show == "expired":
        # A dog's last current licence, from an earlier year: the licence's copy of "no
        # current licence of a later year", on its index.
        out += [
            DogLicence.status == "current",
            DogLicence.renewed_later == false(),
            DogLicence.licence_year < year,
        ]
    elif f.show in ("due", "late"):
        if past != (f.show == "late"):
            return [false()]
        # Last year's licences not renewed this year: the licence's copy of that answer.
        out += [
            DogLicence.status == "current",
            DogLicence.renewed == false(),
            DogLicence.licence_year == year - 1,
            # Not an archived dog's: the few archived dogs looked up once, where a join
            # looked up the dog of each licence (24,000 at 300,000 licences: 50-100 ms).
            DogLicence.animal_id.not_in(select(Animal.id).where(Animal.archived_at.is_not(None))),
        ]
    return out


def _text_where(db: Database, f: LicenceFilter) -> list[Any]:
    """The search's condition, if any."""
    out: list[Any] = []
    text = " ".join(v.searchable(f.text).split())
    if text:
        code = text.upper()
        # The matching licences' ids, each way of matching on an index of its own (the
        # microchip through the dog's id): an OR of them across the licence and its dog
        # read every licence (470 ms for a surname at 300,000 licences).
        lic = DogLicence.id
        ways: list[Any] = [
            select(lic).where(DogLicence.tag_number == code),
            select(lic).where(DogLicence.receipt_number == code),
            select(lic).where(
                DogLicence.animal_id.in_(select(Animal.id).where(Animal.microchip == text))
            ),
        ]
        if (number := v.case_number(text.lstrip("#"))) is not None:
            ways.append(select(lic).where(DogLicence.id == number))
        people = fts_ids(db, "person", text)
        if people is not None:
            ways.append(select(lic).where(DogLicence.owner_id.in_(people)))
        animals = fts_ids(db, "animal", text)
        if animals is not None:
            ways.append(select(lic).where(DogLicence.animal_id.in_(animals)))
        out.append(DogLicence.id.in_(union_all(*ways)))
    return out


def _base(f: LicenceFilter) -> Any:
    """The licences' ids: the filters, the search and the sorts read the licence's own
    columns (its copies of the dog's name and the owner's sort name) and its indexes."""
    return select(DogLicence.id)


def _kept_count(f: LicenceFilter, today: date) -> Any | None:
    """The kept count's statement for a view that is a pure function of the licences'
    year and status (migration 0031): "current" and "all" without search text. Counting
    them read an index entry a licence (137,838 current this year in the bench's
    1,000,000 city: 4.2 ms raw, against 0.005 ms for the kept row); any other view, or a
    search, depends on other rows and is counted."""
    if " ".join(v.searchable(f.text).split()):
        return None
    total = select(func.coalesce(func.sum(DogLicenceCount.n), 0))
    if f.show == "current":
        return total.where(
            DogLicenceCount.status == "current", DogLicenceCount.licence_year == today.year
        )
    if f.show == "all":
        return total
    return None


def _count(conn: Connection, db: Database, f: LicenceFilter, today: date, profile: Profile) -> int:
    q = _kept_count(f, today)
    if q is None:
        q = select(func.count()).select_from(
            _base(f).where(*_where(db, f, today, profile)).subquery()
        )
    n: int = conn.execute(q).scalar_one()
    return n


def count_licences(db: Database, f: LicenceFilter, today: date, profile: Profile) -> int:
    with reading(db) as conn:
        return _count(conn, db, f, today, profile)


def _order(dialect: str, f: LicenceFilter, backwards: bool = False) -> tuple[Any, Any]:
    key: Any = SORTS.get(f.sort, DogLicence.issued_at)
    if f.show == "expired" and dialect == "sqlite":
        # The few dogs not renewed, from every earlier year (a range of their index,
        # sorted): SQLite preferred to walk the sort key's index instead, past
        # this year's licences first (340 ms at 300,000 licences, against 20 ms). A unary
        # "+" is SQLite's no-op that keeps a column off its index: the same order.
        key = literal_column(f"+{DogLicence.__tablename__}.{key.key}")
    if f.descending != backwards:
        return key.desc(), DogLicence.id.desc()
    return key.asc(), DogLicence.id.asc()


def _walk(
    conn: Connection,
    db: Database,
    f: LicenceFilter,
    today: date,
    profile: Profile,
    offset: int,
    limit: int,
) -> Any:
    """A page's ids as a subquery: in the list's order, or for a deep page nearer the far
    end in the reverse order from there (the caller puts the page back in list order)."""
    # The last page of 300,000 licences by OFFSET: 0.7 s.
    backwards, offset, limit = nearer_end(
        offset, limit, lambda: _count(conn, db, f, today, profile)
    )
    return (
        _base(f)
        .where(*_where(db, f, today, profile))
        .order_by(*_order(db.dialect, f, backwards))
        .offset(offset)
        .limit(limit)
    )


def licence_ids(
    db: Database, f: LicenceFilter, today: date, profile: Profile, offset: int = 0, limit: int = 200
) -> tuple[int, ...]:
    with reading(db) as conn:
        walk = _walk(conn, db, f, today, profile, offset, limit).subquery()
        q = select(DogLicence.id).where(DogLicence.id.in_(select(walk.c.id)))
        return tuple(conn.scalars(q.order_by(*_list_order(f))))


_ROW_COLUMNS = (
    DogLicence.id,
    DogLicence.licence_year,
    DogLicence.tag_number,
    DogLicence.status,
    # Read as stored, converted when a row is built (``as_stored``): a page's 200 amounts,
    # flags and days parsed as the page was read were half of its time.
    as_stored(DogLicence.total),
    as_stored(DogLicence.late),
    as_stored(DogLicence.applied_on),
    Animal.id,
    Animal.name,
    Animal.breed,
    Animal.microchip,
    Person.full_name,
    Person.address,
    Person.city,
    Person.state,
    Person.postal_code,
)


def _rows_query(where: Any) -> Any:
    return (
        select(*_ROW_COLUMNS)
        .join(Animal, Animal.id == DogLicence.animal_id)
        .join(Person, Person.id == DogLicence.owner_id)
        .where(where)
    )


Convert = Callable[[Any], Any]


@lru_cache(maxsize=8)
def _converters(dialect: Dialect) -> tuple[Convert, Convert, Convert]:
    """The total's, the late flag's and the day's conversions from their stored values."""
    return (
        converter(DogLicence.total, dialect),
        converter(DogLicence.late, dialect),
        converter(DogLicence.applied_on, dialect),
    )


def _row(converts: tuple[Convert, Convert, Convert], r: Any) -> LicenceRow:
    (lid, year, tag, status, total, late, applied_on, dog, name, breed, chip) = r[:11]
    full_name, address, city, state, postal_code = r[11:]
    money, flag, day = converts
    return LicenceRow(
        lid,
        year,
        tag,
        status,
        STATUS_WORDS[status],
        " · ".join(x for x in (name or f"Dog #{dog}", breed) if x),
        full_name,
        format_address(address, city, state, postal_code),
        chip or "",
        money(total),
        flag(late),
        day(applied_on),
    )


def licence_rows(db: Database, ids: tuple[int, ...]) -> dict[int, LicenceRow]:
    if not ids:
        return {}
    with reading(db) as conn:
        rows = conn.execute(_rows_query(DogLicence.id.in_(ids))).all()
        converts = _converters(conn.dialect)
    return {r[0]: _row(converts, r) for r in rows}


def licence_page(
    db: Database, f: LicenceFilter, today: date, profile: Profile, offset: int, limit: int
) -> Page[LicenceRow]:
    """One page in one statement: the page's ids walked on the sort's index, then their
    dogs and owners (the rows put in list order by the page's ids' own order); each row
    is built when first read (``Rows``): a view reads a screenful of a page's 200."""
    with reading(db) as conn:
        if _text_where(db, f):
            walk = _walk(conn, db, f, today, profile, offset, limit).subquery()
            rows = conn.execute(
                _rows_query(DogLicence.id.in_(select(walk.c.id))).order_by(*_list_order(f))
            ).all()
        else:
            backwards, start, n = nearer_end(
                offset, limit, lambda: _count(conn, db, f, today, profile)
            )
            late = _renewal_late(f, today, profile)
            kept = _kept_page(db.dialect, replace(f, text=""), today.year, late, backwards)
            rows = conn.execute(kept, {"offset": start, "limit": n}).all()
        converts = _converters(conn.dialect)
    return Page(offset, Rows(rows, partial(_row, converts)))


@lru_cache(maxsize=64)
def _kept_page(
    dialect: str, f: LicenceFilter, year: int, late: bool, backwards: bool
) -> Select[*tuple[Any, ...]]:
    """An unsearched view's page statement, built once for its year (its walk's offset
    and limit parameters): building it cost as much as running it (issue 14)."""
    walk = (
        _base(f)
        .where(*_show_where(f, year, late))
        .order_by(*_order(dialect, f, backwards))
        .offset(bindparam("offset", type_=Integer))
        .limit(bindparam("limit", type_=Integer))
        .subquery()
    )
    q: Select[*tuple[Any, ...]] = _rows_query(DogLicence.id.in_(select(walk.c.id)))
    return q.order_by(*_list_order(f))


def _list_order(f: LicenceFilter) -> tuple[Any, Any]:
    """The list's order on the licence's own columns (no index needed for a page's rows)."""
    key = SORTS.get(f.sort, DogLicence.issued_at)
    return (key.desc(), DogLicence.id.desc()) if f.descending else (key.asc(), DogLicence.id.asc())


def stale_list_copies(conn: Connection) -> list[str]:
    """Licences whose list copies differ from their sources (for ``fieldops check``).

    The triggers of migration 0025 keep them in step; a difference means a trigger
    was lost or a row was changed around them, and the list would sort a licence under
    another name or leave a dog off (or on) the "late" and "expired" lists."""
    nxt = aliased(DogLicence)

    def renewal(later: Any) -> Any:
        return (
            exists()
            .where(nxt.animal_id == DogLicence.animal_id, later, nxt.status == "current")
            .correlate(DogLicence)
        )

    renewed = renewal(nxt.licence_year == DogLicence.licence_year + 1)
    renewed_later = renewal(nxt.licence_year > DogLicence.licence_year)
    n = conn.execute(
        select(func.count())
        .select_from(DogLicence)
        .join(Animal, Animal.id == DogLicence.animal_id)
        .join(Person, Person.id == DogLicence.owner_id)
        .where(
            or_(
                DogLicence.animal_name != Animal.name,
                DogLicence.owner_sort_name != Person.sort_name,
                DogLicence.renewed != renewed,
                DogLicence.renewed_later != renewed_later,
            )
        )
    ).scalar_one()
    return [f"{n} dog licence(s) are listed under a stale dog, owner or renewal"] if n else []


_LICENCE_COUNTS = (
    "SELECT licence_year, status, count(*) AS n FROM dog_licence GROUP BY licence_year, status"
)
_KEPT_LICENCE_COUNTS = "SELECT licence_year, status, n FROM dog_licence_count WHERE n <> 0"


def stale_licence_counts(conn: Connection) -> list[str]:
    """Licence years whose kept counts (migration 0031: the Licences list's count of
    "current" and "all", ``_kept_count``) differ from the licences': a trigger lost, or a
    row written around it, and the list would show a count its pages do not hold.

    The check of the kept table ``dog_licence_count`` (the module's ``kept_tables``): run
    by ``fieldops check`` and on a copy made by ``fieldops migrate-to``."""
    years = (
        conn.exec_driver_sql(
            f"SELECT licence_year FROM ({_LICENCE_COUNTS} EXCEPT {_KEPT_LICENCE_COUNTS}) AS missing "
            f"UNION SELECT licence_year FROM ({_KEPT_LICENCE_COUNTS} EXCEPT {_LICENCE_COUNTS}) "
            "AS extra ORDER BY licence_year"
        )
        .scalars()
        .all()
    )
    if not years:
        return []
    return [
        "the kept licence counts (the Licences list's count) differ from the licences for "
        + plural(len(years), "licence year")
        + ": "
        + ", ".join(str(y) for y in years)
    ]
