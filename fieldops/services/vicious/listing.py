"""The vicious-animal cases list: filtered, searched and sorted in SQL, a page at a time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import ColumnElement, Dialect, Integer, Select, bindparam, false, func, or_, select

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Person, ViciousCase
from fieldops.rules import vicious as rules
from fieldops.services import validate as v
from fieldops.services.listing import Page, Rows, as_stored, converter, fts_ids, reading
from fieldops.services.vicious.views import STATUS_LABELS

FILTERS = {
    "open": "Needing action (declared, served, not complied)",
    "overdue": "Notice expired, no outcome",
    "all": "All cases",
    "declared": STATUS_LABELS["declared"],
    "served": STATUS_LABELS["served"],
    "not_complied": STATUS_LABELS["not_complied"],
    "complied": "Complied (removed or destroyed)",
    "refused": STATUS_LABELS["refused"],
    "ended": "Withdrawn or overturned",
}

SORTS = {"deadline": ViciousCase.notice_deadline, "opened": ViciousCase.opened_at}


@dataclass(frozen=True)
class CaseFilter:
    status: str = "open"
    text: str = ""
    sort: str = "deadline"
    descending: bool = False


@dataclass(frozen=True)
class CaseRow:
    id: int
    status: str
    status_label: str
    animal: str
    owner: str
    opened_at: datetime
    notice_deadline: datetime | None
    next_step_due: date | None
    overdue: bool  # the notice had expired with no outcome recorded, when read

    def step_overdue_on(self, day: date) -> bool:
        """Its next step's due day has passed on ``day`` (local date), as Today says."""
        return self.next_step_due is not None and rules.next_step_overdue(self.next_step_due, day)

    def overdue_at(self, at: datetime) -> bool:
        """Overdue now (the list was read earlier; a deadline may have passed since)."""
        return (
            self.status == "served"
            and self.notice_deadline is not None
            and rules.notice_expired(self.notice_deadline, at)
        )

    def countdown(self, at: datetime) -> str:
        return countdown_text(self.notice_deadline, at) if self.status == "served" else ""


def countdown_text(deadline: datetime | None, at: datetime) -> str:
    """ "1 d 4 h 20 min left" or "overdue by 3 h 5 min" (clock time, for the list)."""
    if deadline is None:
        return ""
    left = deadline - at
    late = left < timedelta(0)
    minutes = int(abs(left).total_seconds() // 60)
    d, rest = divmod(minutes, 24 * 60)
    h, m = divmod(rest, 60)
    parts = ([f"{d} d"] if d else []) + ([f"{h} h"] if h or d else []) + [f"{m} min"]
    return ("overdue by " if late else "") + " ".join(parts) + ("" if late else " left")


# The moment a list is asked at: a parameter, so that a statement is built once and kept.
AT = bindparam("at", type_=ViciousCase.notice_deadline.type)


def _where(db: Database | str, f: CaseFilter, at: Any) -> list[ColumnElement[Any]]:
    conds: list[ColumnElement[Any]] = []
    st = ViciousCase.status
    if f.status == "open":
        conds.append(st.in_(("declared", "served", "not_complied")))
    elif f.status == "overdue":
        conds += [st == "served", ViciousCase.notice_deadline <= at]
    elif f.status == "complied":
        conds.append(st.in_(("removed", "destroyed")))
    elif f.status == "ended":
        conds.append(st.in_(("withdrawn", "overturned")))
    elif f.status in STATUS_LABELS:
        conds.append(st == f.status)
    text_ = v.searchable(f.text).strip()
    number = v.case_number(text_)
    if number is not None:  # a number alone is a case number (a house number needs its street)
        conds.append(ViciousCase.id == number)
    elif text_:
        terms: list[ColumnElement[bool]] = []
        for table, column in (
            ("vicious_case", ViciousCase.id),  # its own words, on their index (0024)
            ("animal", ViciousCase.animal_id),
            ("person", ViciousCase.owner_id),
        ):
            ids = fts_ids(db, table, text_)
            if ids is not None:
                terms.append(column.in_(ids))
        conds.append(or_(*terms) if terms else false())
    return conds


# Statements built once per filter and kept (their parameters: the moment, the page's
# place): building one cost more than running it, as for the impounds list.
_KEPT = 256


@lru_cache(maxsize=_KEPT)
def _count_statement(dialect: str, f: CaseFilter) -> Select[int]:
    return select(func.count()).select_from(ViciousCase).where(*_where(dialect, f, AT))


def count_cases(db: Database, f: CaseFilter, at: datetime) -> int:
    with reading(db) as conn:
        n: int = conn.execute(_count_statement(conn.dialect.name, f), {"at": at}).scalar_one()
        return n


def _order(f: CaseFilter) -> list[Any]:
    key = SORTS.get(f.sort, ViciousCase.notice_deadline)
    # Cases with no deadline (before a notice, or closed) sort after those with one. The
    # opening time is never empty: without that term its index delivers the order (a sort
    # of every case took 80 ms at 20,000, measured).
    order = [
        *([key.is_(None)] if key.nullable else []),
        key.desc() if f.descending else key,
        ViciousCase.id.desc() if f.descending else ViciousCase.id,
    ]
    return order


def _ids(db: Database | str, f: CaseFilter, at: Any, offset: Any, limit: Any) -> Select[int]:
    return (
        select(ViciousCase.id)
        .where(*_where(db, f, at))
        .order_by(*_order(f))
        .offset(offset)
        .limit(limit)
    )


def ids_query(db: Database, f: CaseFilter, at: datetime, offset: int, limit: int) -> Select[int]:
    """One page's ids in list order, sorted on the case row alone."""
    return _ids(db, f, at, offset, limit)


@lru_cache(maxsize=_KEPT)
def _page_statement(dialect: str, f: CaseFilter) -> Select[*tuple[Any, ...]]:
    """A page's rows: the page's ids first, then their columns, so the joins are made for
    one page, not for every case before it is sorted."""
    ids = _ids(
        dialect, f, AT, bindparam("offset", type_=Integer), bindparam("limit", type_=Integer)
    ).subquery()
    return (
        select(
            ViciousCase.id,
            ViciousCase.status,
            Animal.name,
            Animal.species,
            Animal.breed,
            Person.full_name,
            as_stored(ViciousCase.opened_at),
            as_stored(ViciousCase.notice_deadline),
            as_stored(ViciousCase.next_step_due),
        )
        .join(ids, ids.c.id == ViciousCase.id)
        .join(Animal, Animal.id == ViciousCase.animal_id)
        .outerjoin(Person, Person.id == ViciousCase.owner_id)
        .order_by(*_order(f))
    )


def cases_page(db: Database, f: CaseFilter, offset: int, limit: int, at: datetime) -> Page[CaseRow]:
    with reading(db) as conn:
        rows = conn.execute(
            _page_statement(conn.dialect.name, f), {"at": at, "offset": offset, "limit": limit}
        ).all()
        instant, day = _converters(conn.dialect)
    return Page(offset, Rows(rows, partial(_case_row, at, instant, day)))


Convert = Callable[[Any], Any]


@lru_cache(maxsize=8)
def _converters(dialect: Dialect) -> tuple[Convert, Convert]:
    """An instant's and a day's conversion from their stored values (``as_stored``)."""
    return converter(ViciousCase.opened_at, dialect), converter(ViciousCase.next_step_due, dialect)


def _case_row(at: datetime, instant: Convert, day: Convert, r: Any) -> CaseRow:
    """One row of the list, built when the view first reads it (``Rows``); its dates and
    instants converted as SQLAlchemy would have (``as_stored``)."""
    cid, status, name, species, breed, owner, opened, deadline, step = r
    opened = instant(opened)
    deadline = instant(deadline) if deadline is not None else None
    step = day(step) if step is not None else None
    animal = f"{name or '(no name)'} ({', '.join(x for x in (species, breed) if x)})"
    return CaseRow(
        cid,
        status,
        STATUS_LABELS[status],
        animal,
        owner or "",
        opened,
        deadline,
        step,
        status == "served" and deadline is not None and rules.notice_expired(deadline, at),
    )
