"""The permits list: filtered, searched and sorted in SQL, a page at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Date, Integer, Select, bindparam, false, func, or_, select

from fieldops.db.engine import Database
from fieldops.db.models import Permit, PermitApplication, PermitIssue, PermitReview, Person
from fieldops.rules import renewable_from
from fieldops.services import validate as v
from fieldops.services.listing import Page, Rows, fts_ids, reading
from fieldops.services.permits.views import KIND_LABELS, status_text

FILTERS = {
    "current": "Current (in force)",
    "due": "Due for renewal (within 30 days, or expired and still renewable)",
    "expiring": "Expiring within 30 days, no renewal applied for",
    "expired": "Expired",
    "review": "Under review or appeal",
    "applied": "Applied: to issue",
    "refused": "Refused",
    "ended": "Revoked or not renewed",
    "all": "All permits",
}
KINDS = {"all": "Both kinds", **KIND_LABELS}
SORTS = {"expires": Permit.expires_on, "holder": Person.full_name, "number": Permit.id}
DUE_WITHIN = timedelta(days=30)


@dataclass(frozen=True)
class PermitFilter:
    status: str = "current"
    kind: str = "all"
    text: str = ""
    sort: str = "expires"
    descending: bool = False


@dataclass(frozen=True)
class PermitRow:
    id: int
    kind: str
    kind_label: str
    holder: str
    address: str
    status: str
    status_label: str
    year: int
    expires_on: date | None
    list_update_due: date | None
    appeal_by: date | None


# The day a list is read on (and the last day "due for renewal" reaches): parameters, so
# that a statement is built once and kept.
DAY = bindparam("day", type_=Date)
DUE_BY = bindparam("due_by", type_=Date)
SINCE = bindparam("since", type_=Integer)  # the first permit year still renewable


def reviewed_this_year() -> ColumnElement[bool]:
    """The permit's review of its current year is on record (a fancier's permit is
    reviewed before it is renewed, 58-533(a))."""
    return (
        select(PermitReview.id)
        .where(PermitReview.permit_id == Permit.id, PermitReview.year == Permit.year)
        .exists()
    )


def renewal_to_issue() -> ColumnElement[bool]:
    """An application for the permit, neither refused nor yet issued, is on record."""
    return (
        select(PermitApplication.id)
        .where(
            PermitApplication.permit_id == Permit.id,
            PermitApplication.refused.is_(False),
            PermitApplication.id.not_in(select(PermitIssue.application_id)),
        )
        .exists()
    )


def _where(
    db: Database | str, f: PermitFilter, day: Any, due_by: Any, since: Any
) -> list[ColumnElement[Any]]:
    conds: list[ColumnElement[Any]] = []
    st = Permit.status
    if f.status == "current":
        # In force: issued for a year not ended, or stayed by an appeal.
        conds.append(or_((st == "issued") & (Permit.expires_on >= day), st == "appeal_pending"))
    elif f.status == "due":
        # Not a permit lapsed before ``since`` (``renewable_from``): as Today asks for none.
        conds += [st == "issued", Permit.expires_on <= due_by, Permit.year >= since]
    elif f.status == "expiring":
        # Today's "Permit expiring" items (fieldops.services.permits.module), one by one:
        # in force to within the window, reviewed if a fancier's, no renewal applied for.
        conds += [
            st == "issued",
            Permit.expires_on >= day,
            Permit.expires_on <= due_by,
            or_(Permit.kind != "fancier", reviewed_this_year()),
            ~renewal_to_issue(),
        ]
    elif f.status == "expired":
        conds += [st == "issued", Permit.expires_on < day]
    elif f.status == "review":
        conds.append(
            or_(
                st == "appeal_pending",
                st.in_(("not_renewed", "revoked")) & (Permit.appeal_by >= day),
            )
        )
    elif f.status == "applied":
        conds.append(st == "applied")
    elif f.status == "refused":
        conds.append(st == "refused")
    elif f.status == "ended":
        conds.append(st.in_(("not_renewed", "revoked")))
    if f.kind in KIND_LABELS:
        conds.append(Permit.kind == f.kind)
    text_ = v.searchable(f.text).strip()
    number = v.case_number(text_)
    if number is not None:  # a number alone is a permit number
        conds.append(Permit.id == number)
    elif text_:
        terms: list[ColumnElement[bool]] = []
        # Its own words (the holder and the address) on their index (0024), and the holder's.
        for table, column in (("permit", Permit.id), ("person", Permit.holder_id)):
            ids = fts_ids(db, table, text_)
            if ids is not None:
                terms.append(column.in_(ids))
        conds.append(or_(*terms) if terms else false())
    return conds


# Statements built once per filter and kept, as for the impounds list.
_KEPT = 256


def _params(day: date) -> dict[str, Any]:
    return {"day": day, "due_by": day + DUE_WITHIN, "since": renewable_from(day)}


@lru_cache(maxsize=_KEPT)
def _count_statement(dialect: str, f: PermitFilter) -> Select[int]:
    # No join to the holder: every permit has exactly one (a required foreign key), and
    # the filters read the permit alone, so its indexes answer the count; the join looked
    # up each match's holder row (4 ms of 1,820 at 1,000,000).
    return select(func.count()).select_from(Permit).where(*_where(dialect, f, DAY, DUE_BY, SINCE))


def count_permits(db: Database, f: PermitFilter, day: date) -> int:
    with reading(db) as conn:
        n: int = conn.execute(_count_statement(conn.dialect.name, f), _params(day)).scalar_one()
        return n


@lru_cache(maxsize=_KEPT)
def _page_statement(dialect: str, f: PermitFilter) -> Select[*tuple[Any, ...]]:
    key = SORTS.get(f.sort, Permit.expires_on)
    # No expiry last either way, ties by number. Ascending, "key IS NULL" first does it on
    # both databases, and for the expiry sort it is migration 0030's index; descending,
    # SQLite's NULLs are the smallest, so "NULLS LAST" is ix_permit_expires walked back.
    # Either way a page stops after its rows instead of sorting every match.
    order = (
        [key.desc().nulls_last(), Permit.id.desc()]
        if f.descending
        else [key.is_(None), key, Permit.id]
    )
    return (
        select(
            Permit.id,
            Permit.kind,
            Person.full_name,
            Permit.address,
            Permit.status,
            Permit.year,
            Permit.expires_on,
            Permit.list_update_due,
            Permit.appeal_by,
            Permit.first_year,
        )
        .join(Person, Person.id == Permit.holder_id)
        .where(*_where(dialect, f, DAY, DUE_BY, SINCE))
        .order_by(*order)
        .offset(bindparam("offset", type_=Integer))
        .limit(bindparam("limit", type_=Integer))
    )


def _permit_row(r: Any) -> PermitRow:
    pid, kind, holder, address, status, year, expires, list_due, appeal_by, first = r
    return PermitRow(
        pid,
        kind,
        KIND_LABELS.get(kind, kind),
        holder or "",
        address,
        status,
        status_text(status, first is not None and year > first),
        year,
        expires,
        list_due,
        appeal_by,
    )


def permits_page(
    db: Database, f: PermitFilter, offset: int, limit: int, day: date
) -> Page[PermitRow]:
    """One page of the list; each row is built when the view first reads it (``Rows``)."""
    with reading(db) as conn:
        rows = conn.execute(
            _page_statement(conn.dialect.name, f),
            {**_params(day), "offset": offset, "limit": limit},
        ).all()
    return Page(offset, Rows(rows, _permit_row))
