"""The impounds list answers from indexes: every status and sort, on both databases.

"All statuses" sorted by animal or owner went through a join and a
latest-disposition subquery per row and never answered on a real pound's
history (41 s at 30,000 impoundments). Timing tests would be flaky; the query
plan says the same thing deterministically: no sort of the whole table, no
scan of it without an index.
"""

from __future__ import annotations

import itertools
import json
from datetime import date

import pytest
from sqlalchemy import text
from support import local

from fieldops.services.animals import AnimalInput, create_animal, get_animal, update_animal
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import record_escape
from fieldops.services.impound_list import (
    SORTS,
    STATUSES,
    ImpoundFilter,
    count_impounds,
    count_query,
    ids_query,
    impounds_page,
)
from fieldops.services.impound_views import DISPOSITIONS
from fieldops.services.people import PersonInput, get_person, update_person

AT = local(2026, 11, 26)
COMBINATIONS = list(itertools.product(STATUSES, SORTS, (False, True)))


def _sqlite_plan(db, query) -> list[str]:
    sql = str(query.compile(db.engine, compile_kwargs={"literal_binds": True}))
    with db.engine.connect() as conn:
        return [row[3] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]


def _pg_plan(db, query) -> str:
    sql = str(query.compile(db.engine, compile_kwargs={"literal_binds": True}))
    with db.engine.begin() as conn:
        # An empty table would be scanned and sorted whatever the indexes; with
        # sorting and scanning priced out, a plan still sorting or scanning
        # means no index can answer the query.
        conn.exec_driver_sql("SET LOCAL enable_sort = off")
        conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
        (plan,) = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {sql}").one()
    return json.dumps(plan)


def _assert_indexed(db, query, what: str) -> None:
    if db.dialect == "sqlite":
        plan = _sqlite_plan(db, query)
        assert not [p for p in plan if "TEMP B-TREE" in p], f"{what} sorts: {plan}"
        assert not [p for p in plan if p.startswith("SCAN impoundment") and "INDEX" not in p], (
            f"{what} scans the table: {plan}"
        )
        assert any("impoundment USING" in p for p in plan), f"{what}: {plan}"
    else:
        plan = _pg_plan(db, query)
        assert '"Node Type": "Sort"' not in plan, f"{what} sorts: {plan}"
        assert '"Node Type": "Seq Scan"' not in plan, f"{what} scans the table: {plan}"


@pytest.mark.parametrize(("status", "sort", "descending"), COMBINATIONS)
def test_every_status_and_sort_walks_an_index(db, status, sort, descending):
    f = ImpoundFilter(status=status, sort=sort, descending=descending)
    _assert_indexed(db, ids_query(db, f, AT, 0, 100), f"page {f}")
    _assert_indexed(db, ids_query(db, f, AT, 50_000, 100), f"deep page {f}")


@pytest.mark.parametrize("status", list(STATUSES))
def test_every_count_uses_an_index(db, status):
    _assert_indexed(db, count_query(db, ImpoundFilter(status=status), AT), f"count {status}")


@pytest.mark.parametrize("status", ["all", "in_custody", "released"])
def test_a_species_filter_does_not_sort_the_species(db, status):
    # SQLite, with no statistics, would take the species index and sort every cat.
    f = ImpoundFilter(status=status, species="cat", sort="animal")
    _assert_indexed(db, ids_query(db, f, AT, 0, 100), f"page {f}")


@pytest.mark.parametrize("status", ["in_custody", "released", "disposed"])
def test_a_search_starts_from_its_matches(db, status):
    # Not from the status index, checking the search on every disposed row.
    f = ImpoundFilter(status=status, text="ruiz", sort="owner")
    if db.dialect == "sqlite":
        plan = _sqlite_plan(db, ids_query(db, f, AT, 0, 100))
        assert plan[0] == "MULTI-INDEX OR", plan
        assert not [p for p in plan if p.startswith("SCAN impoundment")], plan


# -- the copies the indexes are built on ------------------------------------


def _rows(db, profile, **kw):
    f = ImpoundFilter(**{"status": "all", **kw})
    return impounds_page(db, f, 0, 50, AT, profile).rows


def test_sorted_by_animal_and_owner_with_renames_followed(
    db, operator, owner, adopter, impound, profile, today
):
    def dog(name, owner_id=None):
        return create_animal(
            db, operator, AnimalInput(species="dog", name=name, owner_id=owner_id), today=today
        )

    zed, abe, max_ = dog("Zed", owner.id), dog("Abe"), dog("Max", adopter.id)
    a = impound(zed.id, local(2026, 11, 2), owner_id=owner.id)
    b = impound(abe.id, local(2026, 11, 3))
    c = impound(max_.id, local(2026, 11, 4), owner_id=adopter.id)
    assert [r.id for r in _rows(db, profile, sort="animal", descending=False)] == [b.id, c.id, a.id]
    # Unknown owners first, then Quinn (Bea) before Ruiz (Ana).
    assert [r.id for r in _rows(db, profile, sort="owner", descending=False)] == [b.id, c.id, a.id]
    view = get_animal(db, abe.id)
    update_animal(
        db,
        operator,
        abe.id,
        AnimalInput(species="cat", name="Zoe"),
        expected_version=view.version,
        today=today,
    )
    person = get_person(db, owner.id)
    update_person(
        db,
        operator,
        owner.id,
        PersonInput(full_name="Ana Abbott", address="12 Elm St"),
        expected_version=person.version,
    )
    assert [r.id for r in _rows(db, profile, sort="animal", descending=False)] == [c.id, a.id, b.id]
    assert [r.id for r in _rows(db, profile, sort="owner", descending=False)] == [b.id, a.id, c.id]
    assert [r.id for r in _rows(db, profile, species="cat")] == [b.id]
    assert next(r.id for r in _rows(db, profile, sort="species", descending=False)) == b.id


def test_status_follows_dispositions_and_corrections(
    db, operator, supervisor, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2))
    assert count_impounds(db, ImpoundFilter(status="in_custody"), AT) == 1
    record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3), notes="gate")
    (row,) = _rows(db, profile, status="disposed")
    assert row.status == DISPOSITIONS["escaped"] and row.days_held == 1
    correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="died",
        at=local(2026, 11, 5),
        reason="found dead in run 4",
        profile=profile,
    )
    (row,) = _rows(db, profile, status="disposed")
    assert row.status == DISPOSITIONS["died"] and row.days_held == 3
    assert count_impounds(db, ImpoundFilter(status="in_custody"), AT) == 0
    assert count_impounds(db, ImpoundFilter(status="released"), AT) == 0


def test_a_release_is_listed_as_released(db, operator, owner, rex, impound, profile, vaccinate):
    from fieldops.services.dispositions import ReleaseRequest, release
    from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment

    imp = impound(rex.id, local(2026, 11, 2), owner_id=owner.id)
    vaccinate(rex.id)
    at = local(2026, 11, 4)
    fees = quote(db, imp.id, at, True, profile)
    lines = tuple(
        LineInput("boarding" if f.label.startswith("Boarding") else "impound", f.amount)
        for f in fees.lines
        if f.amount > 0
    )
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(lines, "cash", "R-1", payer_id=owner.id, paid_at=at),
        profile,
    )
    release(
        db,
        operator,
        imp.id,
        ReleaseRequest(True, owner.id, at=local(2026, 11, 4), licence_receipt="L-1"),
        profile,
    )
    assert count_impounds(db, ImpoundFilter(status="released"), AT) == 1
    (row,) = _rows(db, profile, status="released", sort="owner")
    assert row.id == imp.id and row.status == DISPOSITIONS["reclaimed"]


def test_an_upgraded_database_gets_its_copies(tmp_path):
    """Impoundments written before the copies existed are filled in by the upgrade."""
    from alembic import command

    from fieldops.db.engine import Database
    from fieldops.db.migrate import alembic_config, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    db = Database(url)
    cfg = alembic_config(url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        conn.commit()
    now = "2026-11-01 10:00:00.000000"
    with db.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO person (id, full_name, sort_name, address, city, postal_code, in_city, "
                "phone, search_phone, email, is_veterinarian, notes, created_at, updated_at, version)"
                " VALUES (1, 'Ana Ruiz', 'ruiz ana', '', '', '', 1, '', '', '', 0, '', :t, :t, 1)"
            ),
            {"t": now},
        )
        conn.execute(
            text(
                "INSERT INTO animal (id, name, species, species_detail, breed, colour, sex, markings,"
                " notes, created_at, updated_at, version) VALUES (1, 'Rex', 'dog', '', '', '', "
                "'male', '', '', :t, :t, 1)"
            ),
            {"t": now},
        )
        conn.execute(
            text(
                "INSERT INTO impoundment (id, animal_id, impounded_at, custody_day, last_claim_day, "
                "release_to_others_from, found_place, officer, reason, reason_detail, bit_person, "
                "surrendered, owner_id, kennel, notes, recorded_by, disposed, created_at, "
                "updated_at, version) VALUES (1, 1, :t, '2026-11-01', '2026-11-08', :t, '', 'x', "
                "'at_large', '', 0, 0, 1, '', '', 'x', 1, :t, :t, 1)"
            ),
            {"t": now},
        )
        conn.execute(
            text(
                "INSERT INTO disposition (impoundment_id, kind, at, to_owner, transfer_to, notes, "
                "hopeless_or_threat, recorded_by, recorded_at, correction_reason) "
                "VALUES (1, 'escaped', :t, 0, '', '', 0, 'x', :t, '')"
            ),
            {"t": now},
        )
    upgrade(db.engine, url)
    with db.engine.connect() as conn:
        row = conn.execute(
            text(
                "SELECT animal_name, animal_species, owner_sort_name, "
                "disposition_kind FROM impoundment"
            )
        ).one()
    assert tuple(row) == ("Rex", "dog", "ruiz ana", "escaped")
    assert (
        count_impounds(
            db, ImpoundFilter(status="disposed", species="dog", date_from=date(2026, 11, 1)), AT
        )
        == 1
    )
    db.dispose()


def test_the_copy_triggers_are_in_place(db):
    """A later batch migration on SQLite would drop them silently; this says so."""
    if db.dialect == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
        expected = {
            "impoundment_list_keys_ai",
            "impoundment_list_keys_au",
            "animal_impound_list_au",
            "person_impound_list_au",
            "disposition_impound_list_ai",
        }
    else:
        sql = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
        expected = {
            "impoundment_list_keys",
            "animal_impound_list",
            "person_impound_list",
            "disposition_impound_list",
        }
    with db.engine.connect() as conn:
        names = {row[0] for row in conn.exec_driver_sql(sql)}
    assert expected <= names


def test_the_integrity_check_reports_a_stale_copy(db, operator, rex, impound, profile):
    from fieldops.check import integrity_problems

    imp = impound(rex.id, local(2026, 11, 2))
    record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3), notes="gate")
    assert integrity_problems(db) == []
    with db.engine.begin() as conn:  # a change made around the triggers
        conn.execute(text("UPDATE impoundment SET disposition_kind = NULL"))
    (problem,) = integrity_problems(db)
    assert "1 impoundment(s)" in problem


def test_a_deep_page_is_the_same_walked_from_either_end(
    db, operator, impound, profile, today, monkeypatch
):
    """The last page of a million is read from the list's far end: the same rows, in order."""

    for i, name in enumerate(("Abe", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")):
        a = create_animal(db, operator, AnimalInput(species="dog", name=name), today=today)
        impound(a.id, local(2026, 11, 1 + i))
    f = ImpoundFilter(status="all", sort="animal", descending=False)

    def pages(deep):
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", deep)
        return [
            [r.animal for r in impounds_page(db, f, offset, 3, AT, profile).rows]
            for offset in (0, 3, 5, 6, 7, 9)
        ]

    forward = pages(10**9)
    assert forward[1] == ["Di", "Ed", "Flo"] and forward[3] == ["Gus"] and forward[4] == []
    assert pages(1) == forward
    assert pages(0) == forward


@pytest.mark.parametrize("status", ["all", "in_custody", "disposed"])
@pytest.mark.parametrize("descending", [False, True])
def test_a_period_in_time_order_walks_the_custody_days(db, status, descending):
    f = ImpoundFilter(
        status=status,
        date_from=date(2025, 12, 1),
        date_to=date(2026, 11, 30),
        descending=descending,
    )
    _assert_indexed(db, ids_query(db, f, AT, 0, 100), f"page {f}")


def test_a_period_keeps_its_time_order_and_disposed_are_counted(
    db, operator, rex, impound, profile
):
    days = [local(2026, 11, d, h) for d, h in ((3, 9), (2, 23), (3, 1), (4, 0))]
    # Rex twice (the first ran off), and two more dogs: one animal is in the pound once.
    more = [
        create_animal(db, operator, AnimalInput(species="dog", name=n), today=date(2026, 11, 1))
        for n in ("Bo", "Max")
    ]
    ids = []
    for animal, when in zip((rex, rex, *more), days, strict=True):
        ids.append(impound(animal.id, when).id)
        if len(ids) == 1:
            record_escape(db, operator, ids[0], profile, at=local(2026, 11, 3, 10), notes="gate")
    record_escape(db, operator, ids[1], profile, at=local(2026, 11, 3, 8), notes="gate")
    f = ImpoundFilter(status="all", date_from=date(2026, 11, 1), date_to=date(2026, 11, 30))
    by_time = [i for _, i in sorted(zip(days, ids, strict=True), reverse=True)]
    assert [r.id for r in impounds_page(db, f, 0, 10, AT, profile).rows] == by_time
    assert count_impounds(db, ImpoundFilter(status="disposed"), AT) == 2
    assert count_impounds(db, ImpoundFilter(status="disposed", species="cat"), AT) == 0
