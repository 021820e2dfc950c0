"""Today: every module's due items, through the service the Today page calls.

``fieldops.services.due.today_items`` (every installed module's items, merged;
dog licences to renew as one count a category)
on the generated city's "today", on the real ``Database`` with the app's
pragmas. The baseline is the same SQL statements, captured from this very call
(``before_cursor_execute``) and replayed in raw sqlite3 on the same file in the
same run: what remains is the services' own cost (SQLAlchemy, the rules that
word each item). Target: within 3x of that and under 50 ms (issue 14).

Measured in the app's collection regime (``ui.gc``): automatic garbage collection
off, the GUI thread collecting on a timer between answers, never inside a query's
run. A whole ``make bench`` ran Today in it already (the list suites before it start
task runners, which install it); run alone, Today paid 20-25 collections a call the
app never makes inside it (17 ms at 1,000,000, before the heap was frozen).
"""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.city import TODAY
from bench.common import Result, median_time

MAX_RATIO = 3.0
MAX_SECONDS = 0.050


def capture_queries(db: Any, fn: Any) -> list[tuple[str, Any]]:
    """The SELECT statements (with their parameters) ``fn()`` sends to the database."""
    seen: list[tuple[str, Any]] = []

    def note(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    return seen


def run(path: Path, size: int) -> list[Result]:
    from fieldops.db.engine import Database
    from fieldops.rules import Profile
    from fieldops.services.due import today_items

    db = Database(f"sqlite:///{path}")
    profile = Profile.default()

    def service() -> object:
        return today_items(db, TODAY, profile)

    items = service()  # warms the file cache and SQLAlchemy's statement cache
    queries = capture_queries(db, service)
    raw = sqlite3.connect(path)

    def raw_queries() -> None:
        for sql, params in queries:
            raw.execute(sql, params).fetchall()

    collecting = gc.isenabled()
    gc.disable()  # the app's regime (ui.gc), whether or not a list suite installed it
    try:
        base = median_time(raw_queries, 9)
        took = median_time(service, 9)
        n = len(items) if isinstance(items, tuple) else 0
        print(f"   Today on {TODAY}: {n:,} items from {len(queries)} queries")
        for line in _by_module(db, raw, profile):
            print(f"     {line}")
    finally:
        if collecting:
            gc.enable()
    raw.close()
    db.dispose()
    return [
        Result(
            "Today: every module's due items",
            took,
            "raw sqlite3, the same queries",
            base,
            MAX_RATIO,
            max_seconds=MAX_SECONDS,
        )
    ]


def _by_module(db: Any, raw: sqlite3.Connection, profile: Any) -> list[str]:
    """Each module's part of Today (what a miss is made of): its items, its statements
    and their time replayed raw, against the module's own call (median of 5 each)."""
    from fieldops import modules

    out = []
    for m in modules.installed_modules():
        fn = m.today_items or m.due_items  # as fieldops.services.due.today_items
        if fn is None:
            continue

        def call(fn: Any = fn) -> Any:
            return fn(db, TODAY, profile)

        queries = capture_queries(db, call)

        def replay(queries: list[tuple[str, Any]] = queries) -> None:
            for sql, params in queries:
                raw.execute(sql, params).fetchall()

        replay()
        took, base = median_time(call, 5), median_time(replay, 5)
        out.append(
            f"{m.key}: {len(call()):,} items, {len(queries)} statements, "
            f"{took * 1000:.1f} ms (raw {base * 1000:.1f} ms)"
        )
    return out
