"""The quarantines list and the officer's week: filtered, searched and sorted in SQL on the
quarantine row's own columns (the copies the services keep), a page of ids at a time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Date,
    Dialect,
    Integer,
    Select,
    bindparam,
    case,
    false,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy import text as sql_text

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, Clinic, Quarantine, QuarantineCorrection
from fieldops.db.search import fts5_query, pg_vector, search_terms, tsquery
from fieldops.rules import Profile, format_day_short, format_instant
from fieldops.rules.quarantine import EXAM_SLOTS, observation_length
from fieldops.services import validate as v
from fieldops.services.listing import (
    Page,
    Rows,
    as_stored,
    converter,
    fts_ids,
    nearer_end,
    reading,
)
from fieldops.services.quarantine.views import PLACEMENT_LABELS, STATUS_LABELS

FILTERS = {
    "open": "Open",
    "exams_due": "Exams due",
    "overdue": "Overdue",
    "certificates_overdue": "Certificates overdue",
    "closed": "Closed",
    "all": "All",
}

SORTS = {
    "bitten": Quarantine.first_exam_day,
    "animal": Quarantine.animal_name,
    "owner": Quarantine.owner_name,
    "last_day": Quarantine.last_day,
    "next_exam": Quarantine.next_exam_by,
    "certificate_due": Quarantine.certificate_due,
    "status": Quarantine.status,
}


# The list's copies that its search reads (migration 0011 indexes exactly these).
SEARCH_COLUMNS = ("animal_name", "owner_name")


@dataclass(frozen=True)
class QuarantineFilter:
    show: str = "open"
    text: str = ""
    date_from: date | None = None  # ordered on or after
    date_to: date | None = None
    sort: str = "last_day"
    descending: bool = False


@dataclass(frozen=True)
class QuarantineRow:
    id: int
    status: str
    status_label: str
    animal: str
    owner: str
    placement: str  # "Home" or the clinic's name
    day: str  # "day 4 of 10", "" when closed
    next_exam: str
    next_exam_overdue: bool
    certificate_due: date
    certificate_overdue: bool


def _search_ids(dialect: str, text_: str) -> Select[int] | None:
    """Quarantines whose animal or owner (the list's copies) match every term as a prefix:
    FTS5 on SQLite, the GIN index on PostgreSQL (migration 0011), as the people list."""
    terms = search_terms(text_)
    if not terms:
        return None
    if dialect == "sqlite":
        return (
            select(literal_column("rowid", Integer))
            .select_from(sql_text("quarantine_fts"))
            .where(literal_column("quarantine_fts").op("MATCH")(fts5_query(terms)))
        )
    vector: ColumnElement[Any] = literal_column(pg_vector(SEARCH_COLUMNS))
    return select(Quarantine.id).where(vector.op("@@")(func.to_tsquery("simple", tsquery(terms))))


# The day a list is read on: a parameter, so that a statement is built once and kept.
TODAY = bindparam("today", type_=Date)


def _dialect(db: Database | str) -> str:
    return db if isinstance(db, str) else db.dialect


def _where(db: Database | str, f: QuarantineFilter, today: Any) -> list[Any]:
    q = Quarantine
    out: list[Any] = []
    if f.show == "open":
        out.append(q.status == "open")
    elif f.show == "exams_due":
        out += [q.status == "open", q.next_exam_due <= today]
    elif f.show == "overdue":
        out += [
            q.status == "open",
            or_(q.next_exam_by < today, q.last_day < today, q.certificate_due < today),
        ]
    elif f.show == "certificates_overdue":
        out += [
            q.status.in_(("open", "certified")),
            q.certificate_received_on.is_(None),
            q.certificate_due < today,
        ]
    elif f.show == "closed":
        out.append(q.status != "open")
    if f.date_from is not None:
        out.append(q.first_exam_day >= f.date_from)
    if f.date_to is not None:
        out.append(q.first_exam_day <= f.date_to)
    text = " ".join(v.searchable(f.text).split())
    if text:
        cond: list[Any] = []
        if (number := v.case_number(text.lstrip("#"))) is not None:
            cond.append(q.id == number)
        own = _search_ids(_dialect(db), text)
        if own is not None:
            cond.append(q.id.in_(own))
        # The registry's words for the animal (breed, colour, markings), as the impounds list.
        animals = fts_ids(_dialect(db), "animal", text)
        if animals is not None:
            cond.append(q.animal_id.in_(animals))
        out.append(or_(*cond) if cond else false())
    return out


# Statements built once per filter and kept (their parameters: the day, the page's place):
# building one cost more than running it, as for the impounds list.
_KEPT = 256
_TABLE_COUNT = select(func.count()).select_from(Quarantine)


@lru_cache(maxsize=_KEPT)
def _count_statement(dialect: str, f: QuarantineFilter) -> Select[int]:
    return select(func.count()).select_from(Quarantine).where(*_where(dialect, f, TODAY))


def _count(conn: Connection, f: QuarantineFilter, today: date) -> int:
    if f == QuarantineFilter(show="closed", sort=f.sort, descending=f.descending):
        # Every quarantine less the few open ones: "status != 'open'" stepped through
        # nearly every row (80 ms at 200,000, measured).
        total: int = conn.execute(_TABLE_COUNT).scalar_one()
        return total - _count(conn, replace(f, show="open"), today)
    n: int = conn.execute(_count_statement(conn.dialect.name, f), {"today": today}).scalar_one()
    return n


def count_quarantines(db: Database, f: QuarantineFilter, today: date) -> int:
    with reading(db) as conn:
        return _count(conn, f, today)


def _order(f: QuarantineFilter) -> tuple[Any, ...]:
    key = SORTS.get(f.sort, Quarantine.last_day)
    return (key.desc(), Quarantine.id.desc()) if f.descending else (key, Quarantine.id)


def _ids(
    db: Database | str, f: QuarantineFilter, today: Any, offset: Any, limit: Any
) -> Select[int]:
    return (
        select(Quarantine.id)
        .where(*_where(db, f, today))
        .order_by(*_order(f))
        .offset(offset)
        .limit(limit)
    )


def ids_query(
    db: Database, f: QuarantineFilter, today: date, offset: int = 0, limit: int = 200
) -> Select[int]:
    """One page's ids in list order: "All" and "Closed" walk the sort's index (0016); the
    other filters start from the few open quarantines and sort those."""
    return _ids(db, f, today, offset, limit)


_OFFSET = bindparam("offset", type_=Integer)
_LIMIT = bindparam("limit", type_=Integer)


@lru_cache(maxsize=_KEPT)
def _ids_statement(dialect: str, walk: QuarantineFilter) -> Select[int]:
    return _ids(dialect, walk, TODAY, _OFFSET, _LIMIT)


def _walk(
    conn: Connection, f: QuarantineFilter, today: date, offset: int, limit: int
) -> tuple[QuarantineFilter, int, int]:
    """The order a page's ids are walked in, and the walk's offset and limit: a deep page
    is read from the nearer end (the last page of 200,000 stepped every row before it),
    as the impounds list does; the rows' ORDER BY puts it back in list order."""
    backwards, start, n = nearer_end(offset, limit, lambda: _count(conn, f, today))
    return (replace(f, descending=not f.descending) if backwards else f), start, n


def quarantine_ids(
    db: Database, f: QuarantineFilter, today: date, offset: int = 0, limit: int = 200
) -> tuple[int, ...]:
    """One page's ids in list order (a deep one read from the nearer end)."""
    with reading(db) as conn:
        walk, start, n = _walk(conn, f, today, offset, limit)
        ids = conn.execute(
            _ids_statement(conn.dialect.name, walk),
            {"today": today, "offset": start, "limit": n},
        ).scalars()
        return tuple(ids) if walk is f else tuple(reversed(list(ids)))


_ROW_COLUMNS = (
    Quarantine.id,
    Quarantine.status,
    Quarantine.placement,
    Quarantine.next_exam_due,
    Quarantine.next_exam_by,
    Quarantine.certificate_due,
    Quarantine.certificate_received_on,
    Quarantine.animal_name,
    Quarantine.owner_name,
    Clinic.name,
    Quarantine.last_day,
    # Only an open quarantine shows a day of its period: a closed one's bite time is not read.
    case((Quarantine.status == "open", BiteReport.bitten_at)),
    BiteReport.id,
    # Its corrected bite time, the latest correction's (fixes.bite_times), in the same
    # statement: a second statement per page cost more than the page's own (issue 14).
    case(
        (
            Quarantine.status == "open",
            select(QuarantineCorrection.new_value)
            .where(
                QuarantineCorrection.bite_report_id == BiteReport.id,
                QuarantineCorrection.target == "bite_report",
                QuarantineCorrection.field == "bitten_at",
            )
            .order_by(QuarantineCorrection.id.desc())
            .limit(1)
            .correlate(BiteReport)
            .scalar_subquery(),
        )
    ),
)


# A page's own columns: its dates and its bite time read as stored, converted only for the
# rows the view reads (``as_stored``); the same columns in the same places.
_DATED = (3, 4, 5, 6, 10, 11)
_PAGE_COLUMNS = tuple(as_stored(c) if i in _DATED else c for i, c in enumerate(_ROW_COLUMNS))


@lru_cache(maxsize=8)
def _converters(dialect: Dialect) -> tuple[Callable[[Any], Any], ...]:
    return tuple(converter(_ROW_COLUMNS[i], dialect) for i in _DATED)


def _rows_from(q: Select[*tuple[Any, ...]]) -> Select[*tuple[Any, ...]]:
    return q.outerjoin(Clinic, Clinic.id == Quarantine.clinic_id).outerjoin(
        BiteReport, BiteReport.id == Quarantine.bite_report_id
    )


@lru_cache(maxsize=_KEPT)
def _page_statement(
    dialect: str, f: QuarantineFilter, walk: QuarantineFilter
) -> Select[*tuple[Any, ...]]:
    """A page's rows: its ids walked in ``walk``'s order (the list's, or reversed from its far
    end) and the columns of those ids alone, in the list's order."""
    ids = _ids_statement(dialect, walk).subquery()
    return _rows_from(
        select(*_PAGE_COLUMNS).select_from(Quarantine).join(ids, ids.c.id == Quarantine.id)
    ).order_by(*_order(f))


_ROWS_OF_IDS = _rows_from(select(*_ROW_COLUMNS).select_from(Quarantine)).where(
    Quarantine.id.in_(bindparam("ids", expanding=True))
)


def _quarantine_row(r: Any, today: date, day: str = "") -> QuarantineRow:
    qid, status, placement, due, by, cert_due, cert_on, animal, owner, clinic = r[:10]
    is_open = status == "open"
    nxt = ""
    if is_open and due is not None and by is not None:
        nxt = format_day_short(due, today)
        if by != due:
            nxt += f" to {format_day_short(by, today)}"
    return QuarantineRow(
        qid,
        status,
        STATUS_LABELS[status],
        animal,
        owner or "unknown",
        clinic if placement == "clinic" and clinic else PLACEMENT_LABELS[placement],
        day,
        nxt,
        bool(is_open and by and by < today),
        cert_due,
        cert_on is None and status in ("open", "certified") and cert_due < today,
    )


def quarantine_rows(db: Database, ids: tuple[int, ...], today: date) -> dict[int, QuarantineRow]:
    """The rows for ``ids`` (one query), by id."""
    if not ids:
        return {}
    with reading(db) as conn:
        rows = conn.execute(_ROWS_OF_IDS, {"ids": list(ids)}).all()
    return {r[0]: _quarantine_row(r, today) for r in rows}


def quarantine_page(
    db: Database, f: QuarantineFilter, today: date, profile: Profile, offset: int, limit: int
) -> Page[QuarantineRow]:
    """One page in list order, read in one statement: its ids, columns and the corrected bite
    times of its open quarantines; each row is built when first read (``Rows``)."""
    with reading(db) as conn:
        walk, start, n = _walk(conn, f, today, offset, limit)
        rows = (
            conn.execute(
                _page_statement(conn.dialect.name, f, walk),
                {"today": today, "offset": start, "limit": n},
            ).all()
            if n > 0
            else []
        )
        convert = _converters(conn.dialect)

    def build(stored: Any) -> QuarantineRow:
        r = list(stored)
        for i, to_value in zip(_DATED, convert, strict=True):
            if r[i] is not None:
                r[i] = to_value(r[i])
        if r[1] != "open":
            return _quarantine_row(r, today)
        bitten = datetime.fromisoformat(r[13]) if r[13] else r[11]
        return _quarantine_row(r, today, _day_label(r[10], bitten, today, profile))

    return Page(offset, Rows(rows, build))


def _bite_times(conn: Connection, bite_ids: list[int]) -> dict[int, datetime]:
    from fieldops.services.quarantine.fixes import bite_times

    return bite_times(conn, bite_ids) if bite_ids else {}


def day_labels(db: Database, ids: tuple[int, ...], today: date, profile: Profile) -> dict[int, str]:
    """ "day N of 10" for the open quarantines among ``ids`` (the rules' count)."""
    if not ids:
        return {}
    with reading(db) as conn:
        rows = conn.execute(_ROWS_OF_IDS, {"ids": list(ids)}).all()
        bites = {r[0]: (r[10], r[11], r[12]) for r in rows if r[1] == "open"}
        retimed = _bite_times(conn, [b[2] for b in bites.values()])
    return _day_labels(bites, retimed, today, profile)


def _day_labels(
    bites: dict[int, tuple[date, datetime, int]],
    retimed: dict[int, datetime],
    today: date,
    profile: Profile,
) -> dict[int, str]:
    """ "day N of 10" for open quarantines (id -> last day, bite time, bite id)."""
    return {
        qid: _day_label(last, retimed.get(bite_id, bitten), today, profile)  # fixes.py
        for qid, (last, bitten, bite_id) in bites.items()
    }


def _day_label(last: date, bitten: datetime, today: date, profile: Profile) -> str:
    """ "day N of 10" for an open quarantine ending ``last``, bitten at ``bitten``."""
    from fieldops.rules import to_local
    from fieldops.rules.quarantine import observation_day

    stub = _Span(to_local(bitten, profile).date(), last)
    n = max(0, min(observation_day(stub, today), observation_length(stub)))
    return f"day {n} of {observation_length(stub)}"


@dataclass(frozen=True)
class _Span:
    """The two dates ``observation_day`` and ``observation_length`` read."""

    bite_day: date
    last_day: date


# --- the officer's week -------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleItem:
    day: date
    kind: str  # "exam", "delivery", "certificate", "period_ends"
    quarantine_id: int
    text: str


def week_schedule(
    db: Database, start: date, profile: Profile, days: int = 7
) -> tuple[ScheduleItem, ...]:
    """Exams, deliveries and certificates due from ``start`` for ``days`` days, by day."""
    end = start + timedelta(days=days - 1)
    lo = datetime.combine(start, time(0), profile.timezone)
    hi = datetime.combine(end + timedelta(days=1), time(0), profile.timezone)
    with db.read() as s:
        rows = s.execute(
            select(Quarantine, Clinic.name)
            .outerjoin(Clinic, Clinic.id == Quarantine.clinic_id)
            .where(or_(Quarantine.status == "open", Quarantine.certificate_received_on.is_(None)))
        ).all()
    out: list[ScheduleItem] = []
    for q, clinic in rows:
        where = clinic if q.placement == "clinic" and clinic else "home"
        who = f"#{q.id} {q.animal_name} ({q.owner_name or 'owner unknown'}, {where})"
        if q.status == "open" and q.next_exam_due is not None and q.next_exam_by is not None:
            day = max(q.next_exam_due, start)
            if q.next_exam_by < start:
                out.append(
                    ScheduleItem(
                        start,
                        "exam",
                        q.id,
                        f"{who}: exam overdue since {format_day_short(q.next_exam_by, start)}",
                    )
                )
            elif day <= end:
                slot = (
                    "exam"
                    if q.next_exam_by == q.next_exam_due
                    else (f"exam, any day to {format_day_short(q.next_exam_by, start)}")
                )
                out.append(ScheduleItem(day, "exam", q.id, f"{who}: {slot}"))
        if (
            q.status == "open"
            and q.next_exam_by is not None  # None: every required exam is done
            and q.last_day != q.next_exam_by
            and start <= q.last_day <= end
        ):
            out.append(ScheduleItem(q.last_day, "exam", q.id, f"{who}: {EXAM_SLOTS['last']}"))
        if q.status == "open" and q.deliver_by is not None and q.delivered_at is None:
            by = format_instant(q.deliver_by, profile)
            if q.deliver_by < lo:  # late already: first thing in the week
                out.append(
                    ScheduleItem(start, "delivery", q.id, f"{who}: delivery overdue, due by {by}")
                )
            elif q.deliver_by < hi:
                out.append(
                    ScheduleItem(
                        q.deliver_by.astimezone(profile.timezone).date(),
                        "delivery",
                        q.id,
                        f"{who}: deliver to the clinic by {by}",
                    )
                )
        if (
            q.status in ("open", "certified")
            and q.certificate_received_on is None
            and start <= q.certificate_due <= end
        ):
            out.append(
                ScheduleItem(
                    q.certificate_due,
                    "certificate",
                    q.id,
                    f"{who}: certification of quarantine due",
                )
            )
    return tuple(sorted(out, key=lambda i: (i.day, i.kind, i.quarantine_id)))
