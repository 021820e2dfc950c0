"""Today and ``fieldops due`` read every module in one unit of work (issue 14).

A dozen units of work, one a module's read, cost more to open and close than
their statements took to run at 100,000 impoundments. One unit is also one
snapshot: a change saved while Today loads shows in every module or in none.
On SQLite and PostgreSQL (``db``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, text
from support import local

from fieldops import modules
from fieldops.services.due import due_items, today_items

DAY = local(2026, 11, 30, 12, 0).date()


@contextmanager
def transactions(db) -> Iterator[list[int]]:
    """Each transaction begun on the database inside the block."""
    begun: list[int] = []

    def on_begin(_conn) -> None:
        begun.append(1)

    event.listen(db.engine, "begin", on_begin)
    try:
        yield begun
    finally:
        event.remove(db.engine, "begin", on_begin)


@pytest.fixture
def held(rex, impound):
    """Rex, impounded a week before DAY: his hold ends on it."""
    return impound(rex.id, local(2026, 11, 23, 10, 0))


@pytest.mark.parametrize("listing", [today_items, due_items], ids=["today", "fieldops due"])
def test_every_module_is_read_in_one_unit_of_work(db, held, profile, listing):
    with transactions(db) as begun:
        items = listing(db, DAY, profile)
    assert [i.record_id for i in items if i.module == "impound"] == [held.id]
    assert len(begun) == 1
    # ... and the same items as each module read on its own
    assert due_items(db, DAY, profile) == modules.due_items(db, DAY, profile)


def test_reads_together_share_one_unit_on_their_own_thread_only(db):
    elsewhere: list[object] = []
    with db.reading_together():
        with db.read() as first, db.read() as second:
            assert first is second
            first.execute(text("SELECT 1"))

        def on_a_worker() -> None:
            with db.read() as own:
                elsewhere.append(own)

        worker = threading.Thread(target=on_a_worker)
        worker.start()
        worker.join()
        assert elsewhere[0] is not first  # a worker's read is its own
    with db.read() as after:
        assert after is not first  # the block's unit ended with it


def test_a_failure_inside_leaves_the_next_read_its_own_unit(db):
    with pytest.raises(RuntimeError), db.reading_together(), db.read() as inside:
        raise RuntimeError("a module failed")
    with transactions(db) as begun, db.read() as after:
        after.execute(text("SELECT 1"))
    assert after is not inside and len(begun) == 1
