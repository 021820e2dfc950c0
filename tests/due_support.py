"""Counting what a call reads: its SELECT statements and the rows they return (issue 14)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event


def _statement(statement: str, parameters: Any) -> Any:
    return statement


@contextmanager
def sent_selects(
    db: Any,
    keep: Callable[[str, Any], Any] = _statement,
    kinds: tuple[str, ...] = ("SELECT",),
) -> Iterator[list[Any]]:
    """What ``db`` is sent while inside: ``keep(statement, parameters)`` of each SELECT."""
    sent: list[Any] = []

    def note(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        if statement.lstrip().upper().startswith(kinds):
            sent.append(keep(statement, parameters))

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", note)


def query_plans(db: Any, call: Callable[[], Any], sep: str = " | ") -> list[str]:
    """SQLite's plan of each statement ``call()`` sends: its steps joined by ``sep``."""
    with sent_selects(db, lambda statement, parameters: (statement, parameters)) as sent:
        call()
    with db.engine.connect() as conn:
        return [
            sep.join(r[3] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", params))
            for sql, params in sent
        ]


def reads(db: Any, fn: Any) -> tuple[int, int]:
    """(statements, rows returned) of ``fn()``: its SELECTs captured, then replayed."""
    with sent_selects(db, lambda s, p: (s, p), ("SELECT", "WITH")) as seen:
        fn()
    with db.engine.connect() as conn:
        rows = sum(len(conn.exec_driver_sql(sql, params).fetchall()) for sql, params in seen)
    return len(seen), rows
