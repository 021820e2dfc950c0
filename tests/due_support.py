"""Counting what a call reads: its SELECT statements and the rows they return (issue 14)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event


def reads(db: Any, fn: Any) -> tuple[int, int]:
    """(statements, rows returned) of ``fn()``: its SELECTs captured, then replayed."""
    seen: list[tuple[str, Any]] = []

    def note(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    with db.engine.connect() as conn:
        rows = sum(len(conn.exec_driver_sql(sql, params).fetchall()) for sql, params in seen)
    return len(seen), rows
