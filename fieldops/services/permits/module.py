"""Chicken and animal fancier's permits as a module on the seam: due items, demo data, checks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import Connection, Date, Integer, Select, bindparam, or_, select, text

from fieldops.db.engine import Database
from fieldops.db.models import (
    Permit,
    PermitNotice,
    PermitReview,
    Person,
)
from fieldops.db.models.permit import APPEND_ONLY
from fieldops.later import LaterMapping, LaterSequence, later_call
from fieldops.modules import TODAY_EACH_UP_TO, CountedDueItem, Demo, DueItem, Module
from fieldops.rules import Profile, format_day, permit_quote, renewable_from
from fieldops.services.permits.listing import DUE_WITHIN, renewal_to_issue, reviewed_this_year
from fieldops.services.permits.views import KIND_LABELS

KEY = "permit"
HORIZON = DUE_WITHIN  # how far ahead Today looks for expiries and reviews: the list's

CATEGORIES = {
    f"{KEY}.list_update_overdue": "Fancier's animal list overdue",
    f"{KEY}.appeal_to_decide": "Appeal pending: to decide",
    f"{KEY}.appeal_due": "Appeal window open",
    f"{KEY}.notice_to_mail": "Decision made: notice to mail",
    f"{KEY}.review_due": "Annual review due",
    f"{KEY}.renewal_due": "Permit expired: renewal due",
    f"{KEY}.expiring": "Permit expiring",
    f"{KEY}.to_issue": "Applied: permit to issue",
}


@dataclass(frozen=True)
class PermitDueItem(DueItem):
    holder: str = ""
    address: str = ""


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """What the permits need on ``day``: overdue animal lists, appeals to decide, appeal
    windows open, notices to mail, reviews and renewals due, expiries, permits to issue.
    One item a permit (``fieldops due``)."""
    return _items(db, day, profile, count_expiring=False)


def today_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """What Today shows: ``due_items``, except that more than ``TODAY_EACH_UP_TO``
    permits expiring are one line with their count.

    Every permit of a town expires on 31 December, so all December each one would be a
    line of its own (every permit of the year, a few thousand in a city). A clerk works them from the permits list
    on its "expiring" filter, which lists exactly these permits: the line opens it
    (``kind`` "list_expiring")."""
    return _items(db, day, profile, count_expiring=True)


def _items(db: Database, day: date, profile: Profile, count_expiring: bool) -> tuple[DueItem, ...]:
    rank = {code: n for n, code in enumerate(CATEGORIES)}
    expiring: list[tuple[Any, ...]] = []  # each permit expiring: (pid, expires, holder, ...)
    make = PermitDueItem.maker()
    items: list[DueItem] = []
    due_by: dict[tuple[str, int], date | None] = {}  # the rules' answer, once a kind and year

    def add(
        cat: str,
        pid: int,
        due: date,
        words: str,
        holder: str,
        address: str,
        kind: str,
        overdue: bool = False,
    ) -> None:
        code = f"{KEY}.{cat}"
        items.append(
            make(
                module=KEY,
                kind="permit",
                record_id=pid,
                due=due,
                category=code,
                category_label=CATEGORIES[code],
                text=f"{KIND_LABELS[kind]} #{pid}, {holder}, {address}: {words}",
                overdue=overdue,
                sort_key=(rank[code], due.isoformat(), pid),
                holder=holder,
                address=address,
            )
        )

    with db.read() as s:
        conn = s.connection()  # Core rows: the statements name columns only
        since = renewable_from(day)  # an earlier permit not renewed has lapsed
        params = {"day": day, "horizon": day + HORIZON, "since": since}
        rows = conn.execute(_due_statement(), params).all()
        noticed = set(conn.execute(_noticed_statement()).scalars())
    for pid, kind, status, year, expires, list_due, appeal_by, holder, address, rev, pend in rows:
        h, ad = holder or "", address or ""
        if list_due is not None and list_due < day and status in ("issued", "appeal_pending"):
            add(
                "list_update_overdue",
                pid,
                list_due,
                f"the animal list was due by {format_day(list_due)}",
                h,
                ad,
                kind,
                overdue=True,
            )
        if status == "appeal_pending":
            add(
                "appeal_to_decide",
                pid,
                day,
                "appealed; enforcement stayed until decided",
                h,
                ad,
                kind,
            )
        elif status in ("not_renewed", "revoked"):
            if appeal_by is not None and appeal_by >= day:
                add(
                    "appeal_due",
                    pid,
                    appeal_by,
                    f"{status.replace('_', ' ')}; an appeal is due by {format_day(appeal_by)}",
                    h,
                    ad,
                    kind,
                )
            elif appeal_by is None and kind == "fancier" and pid not in noticed:
                add(
                    "notice_to_mail",
                    pid,
                    day,
                    f"{status.replace('_', ' ')}: mail the notice by certified mail",
                    h,
                    ad,
                    kind,
                )
        elif status == "applied":
            add(
                "to_issue",
                pid,
                day,
                f"applied for {year}; issue once the fees are paid",
                h,
                ad,
                kind,
            )
        elif (
            status == "issued"
            and expires is not None
            and expires <= day + HORIZON
            and year >= since
        ):
            if kind == "fancier" and not rev:
                add(
                    "review_due",
                    pid,
                    expires,
                    f"review the incidents of {year} before renewal (expires "
                    f"{format_day(expires)})",
                    h,
                    ad,
                    kind,
                    overdue=expires < day,
                )
            elif pend:
                continue  # renewed, to issue: the to-issue line is the application's
            elif expires < day:
                year_kind = (kind, expires.year + 1)
                if year_kind not in due_by:
                    due_by[year_kind] = _due_by(kind, expires.year + 1, day, profile)
                by = due_by[year_kind]
                late = f"; late fee after {format_day(by)}" if by else ""
                add(
                    "renewal_due",
                    pid,
                    expires,
                    f"expired {format_day(expires)}, not renewed{late}",
                    h,
                    ad,
                    kind,
                    overdue=True,
                )
            else:
                expiring.append((pid, expires, h, ad, kind))
    if count_expiring and len(expiring) > TODAY_EACH_UP_TO:
        items.append(_expiring_count(expiring, rank))
    else:
        for pid, expires, h, ad, kind in expiring:
            words = f"expires {format_day(expires)}: renewal due"
            add("expiring", pid, expires, words, h, ad, kind)
    return tuple(sorted(items, key=lambda i: i.sort_key))


def _expiring_count(expiring: list[tuple[Any, ...]], rank: dict[str, int]) -> CountedDueItem:
    """The one Today line for many permits expiring (``today_items``)."""
    code = f"{KEY}.expiring"
    first, last = min(e[1] for e in expiring), max(e[1] for e in expiring)
    by = format_day(last) if first == last else f"{format_day(first)} to {format_day(last)}"
    return CountedDueItem(
        module=KEY,
        kind="list_expiring",
        record_id=0,  # a list, not a record: the line opens the permits list
        due=first,
        category=code,
        category_label=CATEGORIES[code],
        text=f"{len(expiring):,} permits expire {'on' if first == last else 'from'} {by} "
        "with no renewal applied for; open the permits list",
        overdue=False,
        sort_key=(rank[code], first.isoformat(), 0),
        count=len(expiring),
    )


@cache
def _due_statement() -> Select[*tuple[Any, ...]]:
    """The permits with something due on the day (parameters ``day``, ``horizon``, the
    day ``HORIZON`` ahead, and ``since``, the first permit year still renewable), each
    with whether it has this year's review and a renewal application still to issue. Built once: at a few thousand permits its building
    was a fifth of the permits' items."""
    reviewed, pending = reviewed_this_year(), renewal_to_issue()
    day, horizon = bindparam("day", type_=Date()), bindparam("horizon", type_=Date())
    return (
        select(
            Permit.id,
            Permit.kind,
            Permit.status,
            Permit.year,
            Permit.expires_on,
            Permit.list_update_due,
            Permit.appeal_by,
            Person.full_name,
            Permit.address,
            reviewed,
            pending,
        )
        .join(Person, Person.id == Permit.holder_id)
        .where(
            or_(
                Permit.status.in_(("applied", "appeal_pending")),
                Permit.list_update_due < day,
                Permit.status.in_(("not_renewed", "revoked")) & Permit.appeal_by.is_(None),
                Permit.appeal_by >= day,
                (Permit.status == "issued")
                & (Permit.expires_on <= horizon)
                & (Permit.year >= bindparam("since", type_=Integer())),
            )
        )
        .order_by(Permit.id)
    )


@cache
def _noticed_statement() -> Select[*tuple[Any, ...]]:
    """The permits whose refusal to renew has its notice on record."""
    return (
        select(PermitReview.permit_id)
        .join(PermitNotice, PermitNotice.review_id == PermitReview.id)
        .where(PermitReview.renew.is_(False))
    )


def _due_by(kind: str, year: int, day: date, profile: Profile) -> date | None:
    try:
        return permit_quote(kind, year, day, profile, first=False).due_by
    except ValueError:  # the day is not in or just before that year: no quote to give
        return None


def demo(d: Demo) -> str:
    from fieldops.services.permits.demo import permits

    return f"{permits(d)} permits"


def checks(conn: Connection) -> list[str]:
    """Permits written past the services, and summaries out of step with their rows."""
    out: list[str] = []
    n = conn.execute(
        text(
            "SELECT count(*) FROM permit p WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'permit' AND e.entity_id = p.id "
            "AND e.action IN ('permit_applied', 'permit_refused'))"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} permit(s) have no audit trail of their application")
    n = conn.execute(
        text(
            "SELECT count(*) FROM permit p WHERE p.status IN ('issued', 'appeal_pending') "
            "AND NOT EXISTS (SELECT 1 FROM permit_issue i WHERE i.permit_id = p.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} permit(s) are marked issued but have no issue on record")
    n = conn.execute(
        text(
            "SELECT count(*) FROM permit p WHERE p.status = 'appeal_pending' AND NOT EXISTS "
            "(SELECT 1 FROM permit_appeal a WHERE a.permit_id = p.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} permit(s) read appeal pending but have no appeal on record")
    return out


MODULE = Module(
    KEY,
    "Permits",
    due_items=due_items,
    # Today: many permits expiring as one count (every permit expires on 31 December).
    today_items=today_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    append_only=APPEND_ONLY,
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    event_kinds=LaterMapping("fieldops.services.permits.history_words:EVENT_KINDS"),
    self_test=LaterSequence("fieldops.services.permits.selftest_steps:PERMIT_STEPS"),
    # the calls module's history by address and by owner
    places=later_call("fieldops.services.permits.places:places"),
)
