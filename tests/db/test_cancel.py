"""A statement nobody waits for is stopped: cancelled from another thread, it ends."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import text
from support import local

from fieldops.db.cancel import Cancelled, CancelToken, cancellable, running
from fieldops.services.impound_list import ImpoundFilter, count_impounds

# Minutes of work unless stopped: a sleeping function called per row on SQLite
# (the statement never returns to the virtual machine while it sleeps), a
# server-side sleep on PostgreSQL.
SLOW = {
    "sqlite": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) "
    "SELECT count(slow(x)) FROM c",
    "postgresql": "SELECT pg_sleep(600)",
}


def _slow_query(db, started: threading.Event):
    def work():
        with db.read() as s, cancellable(s):
            raw = s.connection().connection.dbapi_connection
            if db.dialect == "sqlite":

                def slow(x):
                    started.set()
                    time.sleep(0.005)
                    return x

                raw.create_function("slow", 1, slow)
            else:
                started.set()
            return s.execute(text(SLOW[db.dialect])).scalar()

    return work


def _run_in_thread(token: CancelToken, work):
    outcome: dict[str, object] = {}

    def target():
        try:
            with running(token):
                outcome["value"] = work()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


def test_a_running_query_is_interrupted_by_cancel(db):
    started = threading.Event()
    token = CancelToken()
    thread, outcome = _run_in_thread(token, _slow_query(db, started))
    assert started.wait(30)
    token.cancel()
    thread.join(30)  # the query itself would run for minutes
    assert not thread.is_alive(), "the cancelled query kept running"
    assert isinstance(outcome.get("error"), Cancelled), outcome


def test_the_connection_is_usable_after_a_cancel(db):
    started = threading.Event()
    token = CancelToken()
    thread, _ = _run_in_thread(token, _slow_query(db, started))
    assert started.wait(30)
    token.cancel()
    thread.join(30)
    assert count_impounds(db, ImpoundFilter(status="all"), local(2026, 11, 30)) == 0


def test_a_service_cancelled_before_it_starts_does_not_query(db):
    token = CancelToken()
    token.cancel()
    with running(token), pytest.raises(Cancelled):
        count_impounds(db, ImpoundFilter(status="all"), local(2026, 11, 30))


def test_without_a_token_nothing_changes(db):
    with db.read() as s, cancellable(s):
        assert s.execute(text("SELECT 1")).scalar() == 1


def test_a_database_error_is_not_mistaken_for_a_cancel(db):
    token = CancelToken()
    with running(token), pytest.raises(Exception) as caught, db.read() as s, cancellable(s):
        s.execute(text("SELECT * FROM no_such_table"))
    assert not isinstance(caught.value, Cancelled)
