"""The calls list at scale (issue 14): its order walked on an index, deep pages walked
from the nearer end, and cheaper counts, with the same rows in the same order as the
list's definition (open first, priority, age, the call number breaking ties)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from calls_support import call_input
from sqlalchemy import insert, text

from fieldops.db.models import FieldCall
from fieldops.services.calls import listing
from fieldops.services.calls.flags import set_flag
from fieldops.services.calls.listing import CallFilter, calls_page, count_calls
from fieldops.services.calls.parties import PartyInput
from fieldops.services.calls.records import create_call

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
KINDS = ("noise", "bite", "at_large")
STATUSES = ("open", "dispatched", "closed", "closed", "closed")


def _calls(db) -> list[dict]:
    """Calls with ties everywhere: a few priorities and instants, every status, 3 kinds."""
    rows = []
    for i in range(61):
        rows.append(
            {
                "id": 1000 - i * 7,  # ids not in received order: the tie break shows
                "received_at": AT - timedelta(days=(i * 5) % 4, hours=(i * 3) % 2),
                "received_how": "phone",
                "address": f"{i} Oak Ave",
                "address_key": f"{i} oak ave",
                "kind": KINDS[i % 3],
                "priority": 1 + (i % 3 == 1) + (i % 5 == 0),
                "status": STATUSES[i % 5],
                "officer": "olly" if i % 5 == 1 else "",
                "search_text": f"{i} {'elm' if i % 3 else 'oak'} ave",
                "recorded_by": "olly",
                "created_at": AT,
                "updated_at": AT,
                "version": 1,
            }
        )
    with db.write() as s:
        s.execute(insert(FieldCall.__table__), rows)
    return rows


def _expected(rows: list[dict], f: CallFilter) -> list[int]:
    def keep(r: dict) -> bool:
        if f.show == "open" and r["status"] == "closed":
            return False
        if f.show == "closed" and r["status"] != "closed":
            return False
        if f.kind and r["kind"] != f.kind:
            return False
        if f.text and f.text not in r["search_text"].split():
            return False
        return not (f.period and r["received_at"] < AT - timedelta(days=int(f.period)))

    def key(r: dict) -> tuple:
        return (r["status"] == "closed", r["priority"], r["received_at"], r["id"])

    return [r["id"] for r in sorted(filter(keep, rows), key=key)]


FILTERS = [
    CallFilter(show=show, kind=kind, period=period)
    for show in ("all", "open", "closed")
    for kind in ("", *KINDS)
    for period in ("", "1")
] + [CallFilter(show=show, text="elm") for show in ("all", "open", "closed")]


@pytest.mark.parametrize(
    ("deep", "walk"),
    [(False, False), (True, True)],
    ids=["offset, matches by id", "from the far end, matches walked"],
)
def test_every_page_of_every_filter_is_the_lists_order_and_the_count_is_right(
    db, monkeypatch, deep, walk
):
    rows = _calls(db)
    if deep:  # every page past the first is "deep": walked from whichever end is nearer
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", 1)
    if walk:  # every search walks the list's order, its matches checked on the way
        monkeypatch.setattr(listing, "WALK_MATCHES", 1)
    for f in FILTERS:
        want = _expected(rows, f)
        assert count_calls(db, f, AT) == len(want), f
        for offset in range(0, len(want) + 7, 7):
            got = [r.id for r in calls_page(db, f, offset, 7, AT).rows]
            assert got == want[offset : offset + 7], (f, offset)


def test_the_list_order_walks_its_index_on_sqlite(sqlite_db):
    """An index on "open first" serves the order only while the query spells the
    expression the index is on: a change to either would sort every call again."""
    _calls(sqlite_db)
    with sqlite_db.engine.connect() as conn:
        for kind in ("", "bite"):
            f = CallFilter(show="all", kind=kind)
            q = listing._ids_query(sqlite_db, f, AT, 0, 10)
            sql = str(q.compile(conn, compile_kwargs={"literal_binds": True}))
            plan = " ".join(r[3] for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))
            assert "open_first" in plan and "TEMP B-TREE" not in plan, plan


def test_a_search_with_many_matches_walks_the_lists_order_on_sqlite(sqlite_db, monkeypatch):
    _calls(sqlite_db)
    f = CallFilter(show="all", text="elm")
    with sqlite_db.engine.connect() as conn:
        for many, walked in ((10**6, False), (1, True)):
            monkeypatch.setattr(listing, "WALK_MATCHES", many)
            q = listing._ids_query(
                sqlite_db, f, AT, 0, 10, False, listing._many_matches(conn, sqlite_db, f)
            )
            sql = str(q.compile(conn, compile_kwargs={"literal_binds": True}))
            plan = " ".join(r[3] for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql)))
            assert ("TEMP B-TREE" not in plan) == walked, plan


def test_a_flag_on_one_calls_party_marks_that_call_alone(db, officer, supervisor, owner):
    party = create_call(
        db,
        officer,
        call_input("1 Oak Ave", parties=(PartyInput("person", "victim", person_id=owner.id),)),
    )
    other = create_call(db, officer, call_input("2 Oak Ave"))
    set_flag(db, supervisor, reason="Threatened an officer", person_id=owner.id)
    page = calls_page(db, CallFilter(show="all"), 0, 10, datetime.now(UTC))
    flagged = {r.id: r.flagged for r in page.rows}
    assert flagged == {party.id: True, other.id: False}
