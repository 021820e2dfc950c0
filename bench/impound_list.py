"""The Impounds list at a city's scale, driven as a user drives it (issue 14).

The real list model (``ui.impounds.list_model.ImpoundTableModel``, through
the task runner) is driven to each answer a user asks for: the default view
(in custody) with its count, each status, a species and a period filter,
each sort, a search, the last page, and one record's view. Each figure is
compared with the raw ``sqlite3`` queries behind it, replayed on the same file
in the same run: the statements the services sent for that answer, captured
as the driver received them. The ratio is what the model, the services and
SQLAlchemy cost on top of the database (within 3x), and the absolute limit
(100 ms) says the queries themselves do not grow with the table.

The helpers here (``capture``, ``replay``, ``answer``) serve every list's
suite (bench/ui_lists.py).
"""

from __future__ import annotations

import math
import os
import random
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench.common import Result, median_time

IMPOUNDMENTS = 100_000
PAGE = 100  # the list model's page size
MAX_RATIO = 3
MAX_SECONDS = 0.1


BASE = 100_000  # built row by row; a larger database is this one copied over in SQL


def build(path: Path, impoundments: int = IMPOUNDMENTS):
    """A pound's ten-plus years: people, their animals, impoundments, nearly all disposed of.

    Up to ``BASE`` impoundments are generated in Python; a larger size is
    that pound copied ``impoundments // BASE`` times in SQL (people, animals,
    impoundments and dispositions, each copy with its own ids), so a million
    is built in minutes, not an hour, with every trigger firing as in use.
    """
    factor = max(impoundments // BASE, 1)
    impoundments = min(impoundments, BASE)
    from sqlalchemy import insert

    from fieldops.db.engine import Database
    from fieldops.db.migrate import upgrade
    from fieldops.db.models import Animal, Disposition, Impoundment, Person
    from fieldops.demo import CAT_BREEDS, CAT_NAMES, COLOURS, DOG_BREEDS, DOG_NAMES, FIRST, LAST
    from fieldops.services.people import sort_name

    db = Database(f"sqlite:///{path}")
    fresh = not path.exists() or path.stat().st_size == 0
    upgrade(db.engine, db.url)
    if not fresh:
        return db
    rng = random.Random(7)
    at = datetime(2026, 11, 30, tzinfo=UTC)
    people = impoundments // 2
    animals = impoundments * 2 // 3
    with db.write() as s:
        names = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(people)]
        s.execute(
            insert(Person.__table__),
            [
                {
                    "full_name": n,
                    "sort_name": sort_name(n),
                    "address": "1 Elm St",
                    "city": "Madison",
                    "search_phone": "",
                    "created_at": at,
                    "updated_at": at,
                    "version": 1,
                }
                for n in names
            ],
        )
        rows = []
        for i in range(animals):
            dog = rng.random() < 0.65
            rows.append(
                {
                    "name": rng.choice(DOG_NAMES if dog else CAT_NAMES)
                    if rng.random() < 0.8
                    else "",
                    "species": "dog" if dog else "cat",
                    "breed": rng.choice(DOG_BREEDS if dog else CAT_BREEDS),
                    "colour": rng.choice(COLOURS),
                    "sex": "unknown",
                    "owner_id": rng.randint(1, people) if rng.random() < 0.5 else None,
                    "created_at": at,
                    "updated_at": at,
                    "version": 1,
                    "microchip": None,
                    "licence_number": None,
                    "id": i + 1,
                }
            )
        s.execute(insert(Animal.__table__), rows)
        start = at - timedelta(days=3650)
        imps, disps = [], []
        for i in range(impoundments):
            when = start + timedelta(minutes=i * 3650 * 24 * 60 // impoundments)
            owner = rng.randint(1, people) if rng.random() < 0.45 else None
            day = when.date()
            imps.append(
                {
                    "id": i + 1,
                    "animal_id": rng.randint(1, animals),
                    "impounded_at": when,
                    "custody_day": day,
                    "last_claim_day": day + timedelta(days=7),
                    "release_to_others_from": when + timedelta(days=8),
                    "officer": "Off. Lee",
                    "reason": "at_large",
                    "owner_id": owner,
                    "kennel": f"K-{rng.randint(1, 40)}",
                    "recorded_by": "bench",
                    "disposed": i < impoundments - 40,
                    "created_at": at,
                    "updated_at": at,
                    "version": 1,
                }
            )
            if i < impoundments - 40:
                kind = rng.choice(
                    (
                        "reclaimed",
                        "reclaimed",
                        "adopted",
                        "transferred",
                        "euthanized",
                        "died",
                        "escaped",
                    )
                )
                out = when + timedelta(days=rng.randint(1, 20))
                disps.append(
                    {
                        "impoundment_id": i + 1,
                        "kind": kind,
                        "at": out,
                        "recipient_id": owner if kind == "reclaimed" else None,
                        "to_owner": kind == "reclaimed",
                        "recorded_by": "bench",
                        "recorded_at": out,
                    }
                )
        s.execute(insert(Impoundment.__table__), imps)
        s.execute(insert(Disposition.__table__), disps)
    if factor > 1:
        _copies(db, factor, people, animals, impoundments)
    return db


def _copies(db, factor: int, people: int, animals: int, impoundments: int) -> None:
    """The pound copied ``factor - 1`` more times, ids shifted per copy (SQL, one transaction)."""
    shift = {
        "person": {"id": people},
        "animal": {"id": animals, "owner_id": people},
        "impoundment": {"id": impoundments, "animal_id": animals, "owner_id": people},
        "disposition": {"impoundment_id": impoundments, "recipient_id": people},
    }
    first = {"person": "id", "animal": "id", "impoundment": "id", "disposition": "impoundment_id"}
    limit = {"person": people, "animal": animals, "impoundment": impoundments}
    with db.engine.begin() as conn:
        for k in range(1, factor):
            for table, moved in shift.items():
                cols = [
                    r[1]
                    for r in conn.exec_driver_sql(f"PRAGMA table_info({table})")
                    if not (table == "disposition" and r[1] == "id")
                ]
                values = [f"{c} + {k * moved[c]}" if c in moved else c for c in cols]
                top = limit.get(table, impoundments)
                conn.exec_driver_sql(
                    f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(values)} "
                    f"FROM {table} WHERE {first[table]} <= {top} ORDER BY {first[table]}"
                )


_ticks: list[Any] = []  # one wake-up timer for every wait (made on the GUI thread)


def _wait(app, done, timeout=600.0) -> None:
    """Until ``done()``, the GUI thread waits for events as the window's event loop does.

    It sleeps in the event loop and wakes when an answer is posted to it (the
    task runner's signal), not on a polling timer: a poll with sleeps between
    its looks added their length to every answer measured. A slow timer wakes
    it now and then so that the timeout is still checked.
    """
    from PySide6.QtCore import QEventLoop, QTimer

    if not _ticks:
        _ticks.append(QTimer())
        _ticks[0].setInterval(50)
    tick = _ticks[0]
    tick.start()
    end = time.perf_counter() + timeout
    try:
        while not done():
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
            if time.perf_counter() > end:
                raise TimeoutError("the list did not answer in time")
    finally:
        tick.stop()


@contextmanager
def capture(db) -> Iterator[list[tuple[str, Any]]]:
    """The SELECTs sent to the database inside the block, as the driver got them."""
    from sqlalchemy import event

    sent: list[tuple[str, Any]] = []
    lock = threading.Lock()

    def listen(_conn, _cursor, statement, parameters, _context, _many):
        if statement.lstrip().upper().startswith(("SELECT", "WITH ")):
            with lock:
                sent.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", listen)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", listen)


def replay(raw: sqlite3.Connection, sent: list[tuple[str, Any]]) -> Callable[[], None]:
    """The captured statements run again in raw sqlite3, one after the other."""

    def go() -> None:
        for statement, parameters in sent:
            raw.execute(statement, parameters or ()).fetchall()

    return go


#: The rows a list shows at once (the default window shows about 26): a view asks for
#: each of their cells when it paints them.
SCREENFUL = 30


def answer(app, model, apply: Callable[[], None]) -> Callable[[], None]:
    """``apply`` (a filter, a sort, a search) until its rows are counted and a screenful
    of them read cell by cell, as the view paints them (a model may build a row only
    when it is first read)."""

    def go() -> None:
        apply()
        _wait(app, lambda: not model.is_searching() and not model.is_counting())
        shown(model)

    return go


def shown(model, rows: int = SCREENFUL) -> None:
    """Every cell of the first ``rows`` rows, read as a view reads them to paint."""
    for r in range(min(rows, model.rowCount())):
        for c in range(model.columnCount()):
            model.index(r, c).data()


def last_page(app, model, apply: Callable[[], None]) -> float:
    """Scrolled to the end of a freshly answered list: only the last page's fetch, median."""
    times = []
    for _ in range(5):
        answer(app, model, apply)()
        row = model.rowCount() - 1
        t0 = time.perf_counter()
        model.index(row, 0).data()  # the view asks for a row not fetched yet
        _wait(app, lambda row=row: model.row_object(row) is not None)
        for r in range(max(0, row + 1 - SCREENFUL), row + 1):  # the screenful at the end
            for c in range(model.columnCount()):
                model.index(r, c).data()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def task(app, tasks, fn: Callable[..., Any], *args: Any) -> Callable[[], None]:
    """``fn(*args)`` through the task runner, as a page opens a record."""

    def go() -> None:
        done: list[object] = []
        failed: list[BaseException] = []

        def on_error(exc: BaseException) -> bool:
            failed.append(exc)
            return True

        tasks.run(fn, *args, on_done=done.append, on_error=on_error)
        _wait(app, lambda: bool(done or failed))
        if failed:
            raise failed[0]

    return go


def figure(name: str, app, model, db, raw, apply: Callable[[], None]) -> Result:
    """One answer of a list: the model's time against its statements replayed raw."""
    go = answer(app, model, apply)
    go()  # warm: the pages of the file in the cache for both sides
    with capture(db) as sent:
        go()
    return Result(
        name,
        median_time(go),
        "its raw sqlite3 queries",
        median_time(replay(raw, list(sent))),
        MAX_RATIO,
        MAX_SECONDS,
    )


def last_page_figure(name: str, app, model, db, raw, apply: Callable[[], None]) -> Result:
    answer(app, model, apply)()
    row = model.rowCount() - 1
    with capture(db) as sent:
        model.index(row, 0).data()
        _wait(app, lambda: model.row_object(row) is not None)
    return Result(
        name,
        last_page(app, model, apply),
        "its raw sqlite3 queries",
        median_time(replay(raw, list(sent))),
        MAX_RATIO,
        MAX_SECONDS,
    )


def record_figure(name: str, app, tasks, db, raw, fn: Callable[..., Any], *args: Any) -> Result:
    go = task(app, tasks, fn, *args)
    go()
    with capture(db) as sent:
        go()
    return Result(
        name,
        median_time(go),
        "its raw sqlite3 queries",
        median_time(replay(raw, list(sent))),
        MAX_RATIO,
        MAX_SECONDS,
    )


def floor_figure(name: str, app, model, tasks, db, path: Path, apply: Callable[[], None]) -> Result:
    """The least any list answer through Qt takes, for reading beside the figures: the
    answer's statements replayed raw on a worker of the app's task runner, then a
    screenful of a bare model's cells read (one constant string each), against the same
    statements replayed raw alone. No service, no row and no column of FieldOps is in it:
    what is left is the hand-over to a worker and back, and Qt asking a model for cells."""
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

    class Bare(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else SCREENFUL

        def columnCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else columns

        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            return "x" if role == Qt.ItemDataRole.DisplayRole else None

    with capture(db) as sent:
        answer(app, model, apply)()
    columns = model.columnCount()
    raw = sqlite3.connect(path, check_same_thread=False)  # used on the worker
    statements = replay(raw, list(sent))
    bare = Bare()
    done: list[object] = []

    def go() -> None:
        done.clear()
        tasks.run(statements, on_done=done.append)
        _wait(app, lambda: bool(done))
        shown(bare)

    go()
    try:
        return Result(
            name, median_time(go), "its raw sqlite3 queries", median_time(statements), math.inf
        )
    finally:
        raw.close()


def run(path: Path, impoundments: int = IMPOUNDMENTS) -> list[Result]:
    from PySide6.QtWidgets import QApplication

    from fieldops.demo import LAST
    from fieldops.services.context import Actor
    from fieldops.services.impound_list import SORTS, STATUSES, ImpoundFilter
    from fieldops.services.impounds import get_impoundment
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.impounds.list_model import ImpoundTableModel

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    ctx = build_context(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    model = ImpoundTableModel(ctx)
    raw = sqlite3.connect(path)

    def show(**kw: Any) -> Callable[[], None]:
        return lambda: model.set_filter(ImpoundFilter(**kw))

    n = f"{impoundments:,}"
    results = [
        figure(f"impounds {n}: in custody, count and first page", app, model, db, raw, show()),
        floor_figure(
            f"impounds {n}: floor: in custody's raw queries, bare model",
            app,
            model,
            ctx.tasks,
            db,
            path,
            show(),
        ),
    ]
    for status in STATUSES:
        if status != "in_custody":
            results.append(
                figure(f"impounds {n}: status {status}", app, model, db, raw, show(status=status))
            )
    results.append(
        figure(f"impounds {n}: in custody, cats", app, model, db, raw, show(species="cat"))
    )
    results.append(
        figure(
            f"impounds {n}: all statuses, cats",
            app,
            model,
            db,
            raw,
            show(status="all", species="cat"),
        )
    )
    last_year = date(2025, 12, 1), date(2026, 11, 30)
    results.append(
        figure(
            f"impounds {n}: all statuses, a year's period",
            app,
            model,
            db,
            raw,
            show(status="all", date_from=last_year[0], date_to=last_year[1]),
        )
    )
    for sort in SORTS:
        for descending in (False, True):
            arrow = "desc" if descending else "asc"
            results.append(
                figure(
                    f"impounds {n}: all statuses by {sort} {arrow}",
                    app,
                    model,
                    db,
                    raw,
                    show(status="all", sort=sort, descending=descending),
                )
            )
    for text in (LAST[0].lower(), "k-7"):
        results.append(
            figure(
                f"impounds {n}: search '{text}', all statuses",
                app,
                model,
                db,
                raw,
                show(status="all", text=text),
            )
        )
    for sort in ("impounded_at", "animal"):
        results.append(
            last_page_figure(
                f"impounds {n}: all statuses by {sort}, last page",
                app,
                model,
                db,
                raw,
                show(status="all", sort=sort, descending=False),
            )
        )
    results.append(
        record_figure(
            f"impounds {n}: one record's view",
            app,
            ctx.tasks,
            db,
            raw,
            get_impoundment,
            db,
            raw.execute("SELECT max(id) FROM impoundment").fetchone()[0] // 2,
            ctx.profile,
            ctx.now(),
        )
    )
    model.set_filter(ImpoundFilter())
    _wait(app, lambda: not model.is_searching() and not model.is_counting())
    ctx.shutdown()
    raw.close()
    db.dispose()
    return results


if __name__ == "__main__":
    import sys
    import tempfile

    size = int(sys.argv[1]) if len(sys.argv) > 1 else IMPOUNDMENTS
    where = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.gettempdir())
    for r in run(where / f"impoundments-{size}.db", size):
        print(r.line(), flush=True)
