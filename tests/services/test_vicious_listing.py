"""The cases list: filters, search and the deadline sort in SQL; the countdown's words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from support import local
from vicious_cases import declared, owner_and_dog

from fieldops.services.vicious.listing import CaseFilter, cases_page, count_cases, countdown_text
from fieldops.services.vicious.notices import NoticeInput, serve_notice


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    tests here record them as one."""
    return officer


AT = local(2026, 11, 27, 15)


def test_filters_search_and_sort(db, operator, profile, today):
    _, rex = owner_and_dog(db, operator, today)
    _, max_ = owner_and_dog(db, operator, today, "Bea Quinn", "Maximilian")
    _, bo = owner_and_dog(db, operator, today, "Cy Dunn", "Bo")
    a = declared(db, operator, profile, rex.id)
    b = declared(db, operator, profile, max_.id)
    c = declared(db, operator, profile, bo.id, applies={"law_enforcement_dog": "K-9"})
    serve_notice(
        db,
        operator,
        a.id,
        NoticeInput("in_person", local(2026, 11, 20, 9), "Off. L", "12 Elm St"),
        profile,
    )  # expired by AT
    serve_notice(
        db,
        operator,
        b.id,
        NoticeInput("in_person", local(2026, 11, 26, 9), "Off. L", "12 Elm St"),
        profile,
    )
    # Served on Thanksgiving (left out, as the Sunday): due Sat 28 Nov at 12 midnight.

    def ids(**kw):
        f = CaseFilter(**kw)
        page = cases_page(db, f, 0, 50, AT)
        assert count_cases(db, f, AT) == len(page.rows)
        return [r.id for r in page.rows]

    assert ids(status="open") == [a.id, b.id]  # the earliest deadline first
    assert ids(status="open", descending=True) == [b.id, a.id]
    assert ids(status="overdue") == [a.id]
    assert ids(status="refused") == [c.id]
    assert ids(status="all", text="Maximil") == [b.id]
    assert ids(status="all", text="quinn") == [b.id]
    assert ids(status="all", text=str(c.id)) == [c.id]
    rows = cases_page(db, CaseFilter(status="open"), 0, 50, AT).rows
    assert rows[0].overdue and not rows[1].overdue
    assert rows[1].countdown(AT) == "1 d 9 h 0 min left"
    assert not rows[1].overdue_at(AT + timedelta(hours=32))
    assert rows[1].overdue_at(AT + timedelta(hours=33))


def test_countdown_words():
    assert countdown_text(AT + timedelta(days=1, hours=2, minutes=5), AT) == "1 d 2 h 5 min left"
    assert countdown_text(AT - timedelta(minutes=7), AT) == "overdue by 7 min"
    assert countdown_text(None, AT) == ""


@pytest.mark.parametrize("descending", [False, True])
def test_all_cases_by_opening_walk_its_index(db, descending):
    """No sort of every case for a page (a city's 20,000): the opening time is never empty."""
    from datetime import UTC, datetime

    from fieldops.services.vicious.listing import ids_query

    f = CaseFilter(status="all", sort="opened", descending=descending)
    sql = str(
        ids_query(db, f, datetime(2026, 11, 30, tzinfo=UTC), 0, 100).compile(
            db.engine, compile_kwargs={"literal_binds": True}
        )
    )
    with db.engine.begin() as conn:
        if db.dialect == "sqlite":
            plan = " | ".join(r[3] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
            assert "TEMP B-TREE" not in plan and "ix_vicious_case_opened" in plan, plan
        else:
            conn.exec_driver_sql("SET LOCAL enable_sort = off")
            conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
            plan = str(conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {sql}").one()[0])
            assert "'Node Type': 'Sort'" not in plan, plan
