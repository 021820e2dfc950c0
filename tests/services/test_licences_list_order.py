"""The licences list at scale (issue 14): sorts on the licence's own indexes and copies,
"expired" and "late" on the renewal copy, deep pages from the nearer end, a search on
indexes; every filter and sort gives the rows, in the order, the joined query gives."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import and_, exists, insert, select, text, update
from sqlalchemy.orm import aliased

from fieldops.db.models import Animal, DogLicence, Person
from fieldops.rules import Profile
from fieldops.services.licences import listing
from fieldops.services.licences.listing import (
    FILTERS,
    LicenceFilter,
    count_licences,
    licence_page,
    stale_list_copies,
)
from fieldops.services.licences.renewals import adult_quote

AT = datetime(2026, 1, 5, 15, 0, tzinfo=UTC)
EARLY = date(2026, 1, 20)  # before the late-fee day: "due"
LATE = date(2026, 6, 1)  # after it: "late"
PROFILE = Profile.default()
NAMES = ("ash", "bo", "bo", "cy", "max", "max", "max", "rex")
OWNERS = ("amos, ann", "bell, bo", "bell, bo", "cole, cy", "moss, cy")
STATUSES = ("current", "current", "current", "replaced", "void")


def _city(db) -> None:
    """People and dogs with tied names, licences over three years with tied instants and
    totals, some renewed, one skipped year, a replaced and a void licence, an archived dog."""
    people = [
        {"id": 10 + i, "full_name": n.title(), "sort_name": n, "created_at": AT, "updated_at": AT}
        for i, n in enumerate(OWNERS)
    ]
    dogs = [
        {
            "id": 100 + i,
            "name": n,
            "species": "dog",
            "owner_id": 10 + i % len(OWNERS),
            "archived_at": AT if i == 7 else None,
            "created_at": AT,
            "updated_at": AT,
        }
        for i, n in enumerate(NAMES * 2)
    ]
    licences = []
    lid = 1000
    for i, dog in enumerate(dogs):
        # Every dog in 2024; most in 2025; some again in 2026 (a few skipping 2025).
        years = [2024] + ([2025] if i % 4 else []) + ([2026] if i % 3 == 0 else [])
        for y in years:
            lid -= 7
            licences.append(
                {
                    "id": lid,
                    "animal_id": dog["id"],
                    "owner_id": dog["owner_id"],
                    "licence_year": y,
                    "tag_number": f"T{(i * 7) % 16:02d}",  # one a year, the same over years
                    "applied_on": date(y, 1, 2),
                    "altered": True,
                    "rate": Decimal("10.00"),
                    "due_by": date(y, 3, 31),
                    "late_fee": Decimal("0.00"),
                    "total": Decimal(10 + i % 3),
                    "paid_amount": Decimal("10.00"),
                    "issued_at": datetime(y, 1, 2 + i % 2, tzinfo=UTC),
                    "issued_by": "opal",
                    "status": STATUSES[(i + y) % 5] if y < 2026 else "current",
                    "created_at": AT,
                    "updated_at": AT,
                }
            )
    with db.write() as s:
        s.execute(insert(Person.__table__), people)
        s.execute(insert(Animal.__table__), dogs)
        s.execute(insert(DogLicence.__table__), licences)


def _joined_ids(db, f: LicenceFilter, today: date) -> list[int]:
    """The list as the joined query gave it before the copies: the dog's name and the
    owner's sort name from their rows, "not renewed" asked of each licence."""
    year = today.year
    keys = {
        "tag": DogLicence.tag_number,
        "year": DogLicence.licence_year,
        "issued": DogLicence.issued_at,
        "animal": Animal.name,
        "owner": Person.sort_name,
        "status": DogLicence.status,
        "total": DogLicence.total,
    }
    other = aliased(DogLicence)
    q = (
        select(DogLicence.id)
        .join(Animal, Animal.id == DogLicence.animal_id)
        .join(Person, Person.id == DogLicence.owner_id)
    )
    current = DogLicence.status == "current"
    if f.show == "current":
        q = q.where(current, DogLicence.licence_year == year)
    elif f.show == "expired":
        later = and_(
            other.animal_id == DogLicence.animal_id,
            other.licence_year > DogLicence.licence_year,
            other.status == "current",
        )
        q = q.where(current, DogLicence.licence_year < year, ~exists().where(later))
    elif f.show in ("due", "late"):
        if (f.show == "late") != adult_quote(year, today, PROFILE, True).late:
            return []
        renewed = and_(
            other.animal_id == DogLicence.animal_id,
            other.licence_year == year,
            other.status == "current",
        )
        q = q.where(
            current,
            DogLicence.licence_year == year - 1,
            Animal.archived_at.is_(None),
            ~exists().where(renewed),
        )
    key = keys[f.sort]
    q = q.order_by(*((key.desc(), DogLicence.id.desc()) if f.descending else (key, DogLicence.id)))
    with db.read() as s:
        return list(s.scalars(q))


def _views() -> list[tuple[LicenceFilter, date]]:
    """Each filter both ways; every sort both ways on "all" and on "expired" (the one
    filter sorted apart from its index on SQLite); "due" and "late" on both sides of the
    late-fee day."""
    out = [(LicenceFilter(show=s, descending=d), EARLY) for s in FILTERS for d in (False, True)]
    for show in ("all", "expired"):
        for sort in listing.SORTS:
            for desc in (False, True):
                out.append((LicenceFilter(show=show, sort=sort, descending=desc), EARLY))
    out += [(LicenceFilter(show=s), LATE) for s in ("late", "due")]
    return out


def _assert_the_joined_order(db, step: int = 12) -> None:
    for f, today in _views():
        want = _joined_ids(db, f, today)
        assert count_licences(db, f, today, PROFILE) == len(want), f
        for offset in range(0, len(want) + step, step):
            page = licence_page(db, f, today, PROFILE, offset, step)
            assert [r.id for r in page.rows] == want[offset : offset + step], (f, offset)


@pytest.mark.parametrize("deep", [False, True], ids=["offset", "from the far end"])
def test_every_filter_and_sort_pages_as_the_joined_query_did(db, monkeypatch, deep):
    _city(db)
    if deep:  # every page past the first is "deep": walked from whichever end is nearer
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", 1)
    for show, today in (("current", EARLY), ("expired", EARLY), ("due", EARLY), ("late", LATE)):
        assert _joined_ids(db, LicenceFilter(show=show), today), show  # no empty views
    _assert_the_joined_order(db)


def test_the_copies_follow_a_renamed_dog_a_renamed_owner_a_transfer_and_a_void(db):
    _city(db)
    with db.write() as s:
        s.execute(update(Animal).where(Animal.id == 104).values(name="aaron"))
        s.execute(update(Person).where(Person.id == 13).values(sort_name="zola, zed"))
        moved = s.scalars(select(DogLicence.id).where(DogLicence.animal_id == 105)).first()
        s.execute(update(DogLicence).where(DogLicence.id == moved).values(owner_id=10))
        # A 2025 licence voided: its 2024 licence is no longer renewed.
        void = s.scalars(
            select(DogLicence.id).where(
                DogLicence.licence_year == 2025, DogLicence.status == "current"
            )
        ).first()
        s.execute(update(DogLicence).where(DogLicence.id == void).values(status="void"))
    with db.engine.connect() as conn:
        assert stale_list_copies(conn) == []
    _assert_the_joined_order(db, step=50)


def test_a_copy_changed_around_the_triggers_is_a_check_problem(db):
    _city(db)
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE dog_licence SET renewed = NOT renewed WHERE id = 993"))
        assert stale_list_copies(conn) == [
            "1 dog licence(s) are listed under a stale dog, owner or renewal"
        ]


def test_the_search_finds_by_tag_owner_dog_and_microchip(db):
    _city(db)
    with db.write() as s:
        s.execute(update(Animal).where(Animal.id == 103).values(microchip="985000000001"))

    def ids(text_: str) -> set[int]:
        f = LicenceFilter(show="all", text=text_)
        rows = licence_page(db, f, EARLY, PROFILE, 0, 100).rows
        assert count_licences(db, f, EARLY, PROFILE) == len(rows)
        return {r.id for r in rows}

    with db.read() as s:
        by = {
            "tag": set(s.scalars(select(DogLicence.id).where(DogLicence.tag_number == "T03"))),
            "chip": set(s.scalars(select(DogLicence.id).where(DogLicence.animal_id == 103))),
        }
    assert ids("t03") == by["tag"] and by["tag"]
    assert ids("985000000001") == by["chip"] and by["chip"]
    assert ids("moss") == {r for r in ids("cy") if r in ids("moss")}  # the owner's name


def test_the_sorts_and_filters_walk_their_indexes_on_sqlite(sqlite_db):
    _city(sqlite_db)
    cases = [
        (LicenceFilter(show="all", sort="owner"), "order_owner_sort_name"),
        (LicenceFilter(show="all", sort="animal", descending=False), "order_animal_name"),
        (LicenceFilter(show="current"), "current_issued"),
        (LicenceFilter(show="expired"), "unrenewed_later"),
        (LicenceFilter(show="due"), "unrenewed "),  # before the late-fee day
    ]
    with sqlite_db.engine.connect() as conn:
        for f, index in cases:
            q = (
                listing._base(f)
                .where(*listing._where(sqlite_db, f, EARLY, PROFILE))
                .order_by(*listing._order(sqlite_db, f))
                .limit(10)
            )
            sql = str(q.compile(conn, compile_kwargs={"literal_binds": True}))
            plan = " ".join(r[3] for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))
            assert index in plan, (f, plan)
            if f.show == "all":
                assert "TEMP B-TREE" not in plan, (f, plan)


def test_a_page_builds_only_the_rows_read_and_each_the_same_every_time(db, monkeypatch):
    _city(db)
    f = LicenceFilter(show="all")
    whole = licence_page(db, f, EARLY, PROFILE, 0, 100).rows
    built: list[int] = []
    build = listing._row
    monkeypatch.setattr(listing, "_row", lambda c, r: built.append(r[0]) or build(c, r))
    page = licence_page(db, f, EARLY, PROFILE, 0, 100).rows
    assert len(page) == len(whole) > 3 and built == []  # counted, none built yet
    assert page[2] == whole[2] and built == [whole[2].id]
    assert page[2] is page[2] and len(built) == 1  # built once, kept
    assert tuple(page) == tuple(whole)


def test_a_rows_amount_flag_and_day_read_as_the_licence_holds_them(db):
    _city(db)
    with db.write() as s:
        s.execute(
            update(DogLicence)
            .where(DogLicence.id == 993)
            .values(total=Decimal("12.50"), late=True, applied_on=date(2026, 2, 3))
        )
    rows = licence_page(db, LicenceFilter(show="all"), EARLY, PROFILE, 0, 100).rows
    with db.read() as s:
        held = {
            i: (t, la, d)
            for i, t, la, d in s.execute(
                select(DogLicence.id, DogLicence.total, DogLicence.late, DogLicence.applied_on)
            )
        }
    assert len(rows) == len(held) > 3
    for r in rows:
        assert (r.total, r.late, r.applied_on) == held[r.id]
        assert type(r.total) is Decimal and type(r.late) is bool and type(r.applied_on) is date
    by_id = {r.id: r for r in rows}
    assert (by_id[993].total, by_id[993].late) == (Decimal("12.50"), True)
    assert by_id[993].applied_on == date(2026, 2, 3)
    assert str(by_id[993].total) == "12.50"


def test_a_kept_page_statement_answers_for_the_year_and_the_late_fee_day_it_is_asked_on(db):
    """An unsearched view's page statement is built once and kept; the new year, and the
    late-fee day, still change what it lists (a statement kept from December must not
    list last year's licences as current in January)."""
    _city(db)
    listing._kept_page.cache_clear()
    for f, today in (
        (LicenceFilter(show="current"), EARLY),
        (LicenceFilter(show="current"), date(2027, 1, 20)),
        (LicenceFilter(show="expired"), EARLY),
        (LicenceFilter(show="expired"), date(2027, 1, 20)),
        (LicenceFilter(show="due"), EARLY),
        (LicenceFilter(show="due"), LATE),
        (LicenceFilter(show="late"), LATE),
        (LicenceFilter(show="current"), EARLY),
    ):
        got = [r.id for r in licence_page(db, f, today, PROFILE, 0, 200).rows]
        assert got == _joined_ids(db, f, today), (f, today)
    assert [
        r.id for r in licence_page(db, LicenceFilter(), date(2027, 1, 20), PROFILE, 0, 9).rows
    ] == []
    # One statement per view, year and side of the late-fee day; the repeat was reused.
    assert listing._kept_page.cache_info().misses == 7
