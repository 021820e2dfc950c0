"""The quarantines list answers "All" and "Closed" from an index for every sort (0016).

200,000 quarantines are a city's ten years: a sort of all of them for a page of
100 grows with the table. Timing tests would be flaky; the query plan says the
same thing deterministically, as for the impounds list.
"""

from __future__ import annotations

import itertools
import json
from datetime import date

import pytest
from sqlalchemy import func, select

from fieldops.db.models import Quarantine
from fieldops.services.quarantine.listing import SORTS, QuarantineFilter, _where, ids_query

TODAY = date(2026, 11, 30)


def _sqlite_plan(db, query) -> list[str]:
    sql = str(query.compile(db.engine, compile_kwargs={"literal_binds": True}))
    with db.engine.connect() as conn:
        return [row[3] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}")]


def _pg_plan(db, query) -> str:
    sql = str(query.compile(db.engine, compile_kwargs={"literal_binds": True}))
    with db.engine.begin() as conn:  # sorting and scanning priced out, as for the impounds
        conn.exec_driver_sql("SET LOCAL enable_sort = off")
        conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
        (plan,) = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {sql}").one()
    return json.dumps(plan)


def _assert_indexed(db, query, what: str) -> None:
    if db.dialect == "sqlite":
        plan = _sqlite_plan(db, query)
        assert not [p for p in plan if "TEMP B-TREE" in p], f"{what} sorts: {plan}"
        assert not [p for p in plan if p.startswith("SCAN quarantine") and "INDEX" not in p], (
            f"{what} scans the table: {plan}"
        )
    else:
        plan = _pg_plan(db, query)
        assert '"Node Type": "Sort"' not in plan, f"{what} sorts: {plan}"
        assert '"Node Type": "Seq Scan"' not in plan, f"{what} scans the table: {plan}"


@pytest.mark.parametrize(
    ("show", "sort", "descending"), list(itertools.product(("all", "closed"), SORTS, (False, True)))
)
def test_all_and_closed_walk_the_sorts_index(db, show, sort, descending):
    f = QuarantineFilter(show=show, sort=sort, descending=descending)
    _assert_indexed(db, ids_query(db, f, TODAY, 0, 100), f"page {f}")


def test_certificates_overdue_are_found_without_reading_the_certified(db):
    f = QuarantineFilter(show="certificates_overdue")
    count = select(func.count()).select_from(Quarantine).where(*_where(db, f, TODAY))
    if db.dialect == "sqlite":
        plan = _sqlite_plan(db, count)
        assert any("ix_quarantine_certificate_received" in p for p in plan), plan
    else:
        _assert_indexed(db, count, "count of certificates overdue")


def test_a_deep_page_and_the_closed_count_are_the_same_read_either_way(
    db, officer, supervisor, monkeypatch
):
    from quarantine_support import PROFILE, bite_input, days_ago, local_today
    from sqlalchemy import text

    from fieldops.services import quarantine as qs

    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    for i in range(7):
        kw = {"species": "dog", "animal_description": f"Dog {i}", "owner_unknown": True}
        kw["clinic_id"] = clinic.id
        qs.report_bite(db, officer, bite_input(days_ago(2 + i), **kw), PROFILE)
    with db.engine.begin() as conn:  # two closed, as the services' copies would say
        conn.execute(text("UPDATE quarantine SET status = 'certified' WHERE id IN (2, 5)"))
    today = local_today()
    f = QuarantineFilter(show="all", sort="bitten")

    def pages(deep):
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", deep)
        return [qs.quarantine_ids(db, f, today, offset, 3) for offset in (0, 3, 5, 6, 7, 9)]

    forward = pages(10**9)
    assert [len(p) for p in forward] == [3, 3, 2, 1, 0, 0]
    assert pages(0) == forward
    assert qs.count_quarantines(db, QuarantineFilter(show="closed"), today) == 2
    assert qs.count_quarantines(db, QuarantineFilter(show="closed", text="zzz"), today) == 0
