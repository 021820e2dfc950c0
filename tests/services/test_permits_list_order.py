"""The permits list at a city's scale (issue 14): the expiry order, "no expiry" last, is
walked on migration 0030's index and the count reads the permit alone; every filter,
kind, sort and page must still be the rows, in the order, of the statements the list
answered with before (the holder joined to both, every match sorted)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from due_support import query_plans
from sqlalchemy import func, insert, select

from fieldops.db.models import Permit, Person
from fieldops.rules import renewable_from
from fieldops.services.permits import listing
from fieldops.services.permits.listing import (
    FILTERS,
    KINDS,
    SORTS,
    PermitFilter,
    count_permits,
    permits_page,
)

AT = datetime(2026, 1, 5, 15, 0, tzinfo=UTC)
DAY = date(2026, 6, 1)
STATUSES = ("issued", "issued", "issued", "appeal_pending", "applied", "refused", "revoked")
HOLDERS = ("amos, ann", "bell, bo", "bell, bo", "cole, cy", "ruiz, ana")


def _city(db) -> None:
    """Permits of both kinds in every status, expiring on tied days before, on and after
    the day (some within the 30 days of "due"), some never issued (no expiry), appeals
    due before and after the day, holders with tied names, ids out of expiry order."""
    people = [
        {"id": 10 + i, "full_name": n.title(), "sort_name": n, "created_at": AT, "updated_at": AT}
        for i, n in enumerate(HOLDERS)
    ]
    permits = []
    for i in range(60):
        status = STATUSES[i % len(STATUSES)]
        never = status in ("applied", "refused") or i % 11 == 0
        never = never or (status == "appeal_pending" and i % 2 == 0)
        holder = HOLDERS[i % len(HOLDERS)]
        permits.append(
            {
                "id": 500 - 7 * i,
                "kind": ("chicken", "fancier")[i % 3 == 0],
                "holder_id": 10 + i % len(HOLDERS),
                "address": f"{i % 9} Elm St",
                "status": status,
                "year": 2026,
                "first_year": 2024 if i % 2 else 2026,
                "expires_on": None if never else DAY + timedelta(days=(i % 13) * 9 - 50),
                "appeal_by": DAY + timedelta(days=i % 5 - 2) if i % 4 == 0 else None,
                "search_text": f"{holder} {i % 9} elm st",
                "created_at": AT,
                "updated_at": AT,
            }
        )
    with db.write() as s:
        s.execute(insert(Person), people)
        s.execute(insert(Permit), permits)


def _old_rows(db, f: PermitFilter, day: date) -> list[int]:
    """The page's statement before migration 0030: holder joined, every match sorted."""
    key = SORTS.get(f.sort, Permit.expires_on)
    way = (key.desc(), Permit.id.desc()) if f.descending else (key, Permit.id)
    q = (
        select(Permit.id)
        .join(Person, Person.id == Permit.holder_id)
        .where(*listing._where(db, f, day, day + listing.DUE_WITHIN, renewable_from(day)))
        .order_by(key.is_(None), *way)
    )
    with db.read() as s:
        return list(s.scalars(q))


def _old_count(db, f: PermitFilter, day: date) -> int:
    """The count before: joined to each match's holder."""
    q = (
        select(func.count())
        .select_from(Permit)
        .join(Person, Person.id == Permit.holder_id)
        .where(*listing._where(db, f, day, day + listing.DUE_WITHIN, renewable_from(day)))
    )
    with db.read() as s:
        n: int = s.execute(q).scalar_one()
        return n


def _filters() -> list[PermitFilter]:
    out = [PermitFilter(status=s, kind=k) for s in FILTERS for k in KINDS]
    out += [
        PermitFilter(status=s, sort=key, descending=d)
        for s in ("current", "all", "due")
        for key in SORTS
        for d in (False, True)
    ]
    out += [PermitFilter(status="all", text=t) for t in ("bell", "ruiz elm", "zzz", "374")]
    return out


def test_every_page_of_every_filter_is_the_old_statements(db):
    _city(db)
    seen = set()
    for day in (DAY, DAY + timedelta(days=40), date(2025, 1, 1)):
        for f in _filters():
            old = _old_rows(db, f, day)
            seen.add(min(len(old), 2))
            assert count_permits(db, f, day) == _old_count(db, f, day) == len(old), (f, day)
            for size in (1, 4, 25):
                got: list[int] = []
                for offset in range(0, len(old) + size, size):
                    got += [r.id for r in permits_page(db, f, offset, size, day).rows]
                assert got == old, (f, day, size)
    # The filters do what they are there for: some match many, some one, some none.
    assert seen == {0, 1, 2}


def test_in_force_first_page_puts_no_expiry_last_and_stays_in_force(db):
    _city(db)
    rows = permits_page(db, PermitFilter(), 0, 100, DAY).rows
    assert {r.status for r in rows} == {"issued", "appeal_pending"}
    dated = [r.expires_on for r in rows if r.expires_on is not None]
    assert dated == sorted(dated) and all(r.expires_on >= DAY for r in rows if r.status == "issued")
    assert rows[-1].expires_on is None  # an appeal of a permit never issued: last
    assert all(r.expires_on is None for r in rows[len(dated) :])


@pytest.mark.parametrize("descending", [False, True])
def test_the_default_first_page_walks_the_expiry_index(db, descending):
    """At 3,000 permits every permit in force and its holder was read and sorted for the
    first page (3.9x the 300 permits' time); the count looked up each match's holder."""
    if db.dialect != "sqlite":
        pytest.skip("PostgreSQL's planner weighs the same index with its statistics")
    _city(db)
    f = PermitFilter(descending=descending)
    (page,) = query_plans(db, lambda: permits_page(db, f, 0, 100, DAY))
    index = "ix_permit_expires" if descending else "ix_permit_list_expiry"
    assert f"SCAN permit USING INDEX {index}" in page and "TEMP B-TREE" not in page
    (count,) = query_plans(db, lambda: count_permits(db, f, DAY))
    assert "person" not in count


def test_a_page_builds_only_the_rows_read_and_each_the_same_every_time(db, monkeypatch):
    _city(db)
    f = PermitFilter(status="all")
    whole = permits_page(db, f, 0, 100, DAY).rows
    built: list[int] = []
    build = listing._permit_row
    monkeypatch.setattr(listing, "_permit_row", lambda r: built.append(r[0]) or build(r))
    page = permits_page(db, f, 0, 100, DAY).rows
    assert len(page) == len(whole) > 3 and built == []  # counted, none built yet
    assert page[2] == whole[2] and built == [whole[2].id]
    assert page[2] is page[2] and len(built) == 1  # built once, kept
    assert tuple(page) == tuple(whole)
