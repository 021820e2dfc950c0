"""Cancellable statements: a query nobody waits for any more is stopped, not finished.

A caller that may give up on a query (the window's task runner: the user typed
again, changed a filter, closed the list or the window) runs it under a
:class:`CancelToken` (``with running(token): ...``). A service marks the
statements worth stopping with ``with cancellable(session): ...``: while they
run, the token holds the session's DB-API connection, and ``token.cancel()``
from any thread stops them: ``sqlite3.Connection.interrupt()`` on SQLite (and a
progress handler that sees the token, so a cancel that lands between two
statements is not lost), a server-side cancel on PostgreSQL. The service then
raises :class:`Cancelled`, which the runner drops silently.

Without a token (the command line, tests calling services directly) nothing
changes. Nothing here knows Qt.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

# SQLite calls the progress handler every this many virtual-machine steps: often
# enough to stop within a millisecond, rarely enough to cost nothing measurable.
_PROGRESS_STEPS = 10_000
_PG_CANCEL_RETRY_S = 0.25


class Cancelled(Exception):
    """The statement was stopped because its answer is no longer wanted."""


class CancelToken:
    """One piece of work that may be cancelled from another thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._connections: list[Any] = []

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    @property
    def querying(self) -> bool:
        """True while a cancellable statement block runs (``cancel()`` reaches it)."""
        return bool(self._connections)

    def cancel(self) -> None:
        """Stop whatever statement runs under this token now, and any later one.

        Never waits for the statement: safe to call from the GUI thread.
        """
        if self._cancelled:
            return
        with self._lock:
            # Under the lock: a connection still listed is still running this
            # token's work, never yet another caller's statement.
            self._cancelled = True
            for conn in self._connections:
                if isinstance(conn, sqlite3.Connection):
                    conn.interrupt()  # documented as safe from another thread
                else:
                    # A PostgreSQL cancel is a round trip to the server on a new
                    # socket: made on a thread of its own so the caller never waits.
                    threading.Thread(
                        target=self._cancel_on_server,
                        args=(conn,),
                        daemon=True,
                        name="fieldops-cancel",
                    ).start()

    def _cancel_on_server(self, conn: Any) -> None:
        # A cancel request reaching the server before the statement does is
        # lost, so it is repeated until the worker hands the connection back.
        cancel = getattr(conn, "cancel_safe", None) or conn.cancel
        while True:
            with self._lock:  # the worker cannot hand the connection back meanwhile
                if not any(c is conn for c in self._connections):
                    return
                # The statement may have ended already: nothing left to stop.
                with contextlib.suppress(Exception):
                    cancel()
            time.sleep(_PG_CANCEL_RETRY_S)

    def check(self) -> None:
        if self._cancelled:
            raise Cancelled("the answer is no longer wanted")

    @contextmanager
    def watching(self, dbapi_connection: Any) -> Iterator[None]:
        """Let ``cancel()`` reach the statements run on ``dbapi_connection`` meanwhile."""
        is_sqlite = isinstance(dbapi_connection, sqlite3.Connection)
        with self._lock:
            self._connections.append(dbapi_connection)
        if is_sqlite:
            dbapi_connection.set_progress_handler(self._stop_now, _PROGRESS_STEPS)
        try:
            self.check()
            yield
        finally:
            if is_sqlite:
                dbapi_connection.set_progress_handler(None, 0)
            with self._lock:
                self._connections.remove(dbapi_connection)

    def _stop_now(self) -> int:
        return 1 if self._cancelled else 0


_local = threading.local()


def current_token() -> CancelToken | None:
    """The token the work on this thread runs under, if any."""
    return getattr(_local, "token", None)


@contextmanager
def running(token: CancelToken) -> Iterator[CancelToken]:
    """Run the block on this thread under ``token``."""
    previous = current_token()
    _local.token = token
    try:
        yield token
    finally:
        _local.token = previous


@contextmanager
def cancellable(session: Session | Connection) -> Iterator[None]:
    """Statements run on ``session`` (or a bare connection, as the lists read) inside the
    block stop when the current token is cancelled.

    Raises :class:`Cancelled` instead of the database's own error when that
    happened, and when the token was cancelled while the block ran at all.
    """
    token = current_token()
    if token is None:
        yield
        return
    token.check()
    conn = session.connection() if isinstance(session, Session) else session
    dbapi_connection = conn.connection.dbapi_connection
    with token.watching(dbapi_connection):
        try:
            yield
        except Exception as exc:
            if token.cancelled:
                raise Cancelled("the answer is no longer wanted") from exc
            raise
    token.check()


__all__ = ["CancelToken", "Cancelled", "cancellable", "current_token", "running"]
