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
