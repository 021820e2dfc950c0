"""The lists' answers as they read them (issue 14's fixed cost): one read per page, even
a deep one walked from the list's far end, and the impounds list's statements kept
between answers that still answer for the moment each answer is asked at."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from fieldops.services.impound_list import ImpoundFilter, count_impounds, impounds_page
from fieldops.services.people import PersonInput, create_person, people_page

START = datetime(2026, 11, 2, 15, tzinfo=UTC)


@contextmanager
def _begins(db):
    """The units of work (transactions) the database saw inside the block."""
    seen: list[object] = []

    def begun(conn):
        seen.append(conn)

    event.listen(db.engine, "begin", begun)
    try:
        yield seen
    finally:
        event.remove(db.engine, "begin", begun)


def test_a_deep_page_is_one_read_and_the_same_rows_either_way(
    db, rex, impound, escaped, profile, monkeypatch
):
    ids = []
    for i in range(7):  # Rex seven times that morning, each time out again within the hour
        ids.append(impound(rex.id, START + timedelta(hours=i)).id)
        escaped(ids[-1], START + timedelta(hours=i, minutes=30))
    at = START + timedelta(days=30)
    f = ImpoundFilter(status="all", descending=False)

    def pages(deep):
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", deep)
        return [
            [r.id for r in impounds_page(db, f, offset, 3, at, profile).rows]
            for offset in (0, 3, 5, 6, 7, 9)
        ]

    forward = pages(10**9)
    assert forward == [ids[0:3], ids[3:6], ids[5:7], ids[6:7], [], []]
    with _begins(db) as begins:
        assert pages(0) == forward  # every page walked from the nearer end: the same rows
    # Each page one unit of work: the count that chooses the end and the page together.
    assert len(begins) == len(forward)


def test_a_kept_statement_answers_for_the_moment_asked(db, rex, impound, profile):
    held = impound(rex.id, START)
    on_hold = ImpoundFilter(status="on_hold")
    adoptable = ImpoundFilter(status="adoptable")
    early, late = START + timedelta(days=1), START + timedelta(days=60)
    assert count_impounds(db, on_hold, early) == 1 and count_impounds(db, adoptable, early) == 0
    # The same filters again (their statements kept), at a later moment: the hold is over.
    assert count_impounds(db, on_hold, late) == 0 and count_impounds(db, adoptable, late) == 1
    rows = impounds_page(db, adoptable, 0, 10, late, profile).rows
    assert [(r.id, r.status_code) for r in rows] == [(held.id, "adoptable")]
    assert impounds_page(db, adoptable, 0, 10, early, profile).rows == ()


def test_a_deep_people_page_is_one_read(db, operator, monkeypatch):
    for name in ("Abe Ames", "Bo Bell", "Cy Cole", "Di Dunn", "Ed Eyre"):
        create_person(db, operator, PersonInput(full_name=name))
    monkeypatch.setattr(
        "fieldops.services.listing.DEEP_OFFSET", 0
    )  # every page counts to choose its end
    with _begins(db) as begins:
        assert [r.full_name for r in people_page(db, "", 3, 3).rows] == ["Di Dunn", "Ed Eyre"]
    assert len(begins) == 1


def test_a_quarantines_payments_are_found_on_the_charge_index(sqlite_db):
    """Its record's fees read the payment lines of its own charges, not every line."""
    from sqlalchemy import select
    from sqlalchemy.dialects import sqlite

    from fieldops.db.models import PaymentLine
    from fieldops.services.quarantine.fees import _charged_under

    q = select(PaymentLine.id).where(_charged_under("quarantine:12:"))
    sql = str(q.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))
    with sqlite_db.engine.connect() as conn:
        plan = " ".join(str(r[-1]) for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
    assert "ix_payment_line_charge" in plan, plan
