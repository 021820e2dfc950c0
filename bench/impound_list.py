"""The Impounds list over 100,000 impoundments: "All statuses" sorted by animal and by owner.

These two sorts never answered (41 s at 30,000 impoundments: the order came
from a join and a latest-disposition subquery per row). The real list model
(``ui.impounds.list_model.ImpoundTableModel``, through the task runner) is
driven to its count and first page, and to a deep page, and compared with
the same page read in raw sqlite3 on the same file through the same index,
measured in the same run: the ratio is what the model, the services and
SQLAlchemy cost on top of the database, and it must not grow with the table.
A raw first page takes about a millisecond, so its limit is the people list's
(60x, bench/registry.py): a fixed cost of two units of work and the hand-over
to the GUI thread, not a cost per row.
"""

from __future__ import annotations

import os
import random
import sqlite3
import statistics
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench.common import Result, median_time

IMPOUNDMENTS = 100_000
PAGE = 100  # the list model's page size

ROW_COLS = (
    "i.id, i.disposition_kind, i.disposition_at, a.name, a.species, a.breed, a.colour, "
    "i.impounded_at, i.custody_day, i.last_claim_day, i.release_to_others_from, "
    "coalesce(p.full_name, ''), i.kennel"
)


def build(path: Path, impoundments: int = IMPOUNDMENTS):
    """A pound's ten-plus years: people, their animals, impoundments, nearly all disposed of."""
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
            insert(Person),
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
        s.execute(insert(Animal), rows)
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
        s.execute(insert(Impoundment), imps)
        s.execute(insert(Disposition), disps)
    return db


def _wait(app, done, timeout=600.0) -> None:
    end = time.perf_counter() + timeout
    while not done():
        app.processEvents()
        if time.perf_counter() > end:
            raise TimeoutError("the list did not answer in time")
        time.sleep(0.0005)


def run(path: Path, impoundments: int = IMPOUNDMENTS) -> list[Result]:
    from dataclasses import replace

    from PySide6.QtWidgets import QApplication

    from fieldops.services.context import Actor
    from fieldops.services.impound_list import ImpoundFilter
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.impounds.list_model import ImpoundTableModel

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    ctx = build_context(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    model = ImpoundTableModel(ctx)
    raw = sqlite3.connect(path)

    def first_page(sort):
        def go():
            model.set_filter(ImpoundFilter(status="all", sort=sort, descending=False))
            _wait(app, lambda: not model.is_searching())
            assert model.rowCount() == impoundments

        return go

    def deep_page(sort, offset):
        # Scrolled to ``offset`` on a freshly opened list: only that page's fetch is timed.
        row = offset // PAGE * PAGE
        times = []
        for _ in range(5):
            model.set_filter(ImpoundFilter(status="all", sort=sort, descending=False))
            _wait(app, lambda: not model.is_searching())
            t0 = time.perf_counter()
            model.index(row, 0).data()  # the view asks for a row not fetched yet
            _wait(app, lambda: model.row_object(row) is not None)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def raw_first(key):
        # What the list needs for a first page, in raw sqlite3 through the same index.
        def go():
            raw.execute("SELECT count(*) FROM impoundment").fetchone()
            raw_page(key, 0)()

        return go

    def raw_page(key, offset):
        sql = (
            f"SELECT {ROW_COLS} FROM impoundment i JOIN animal a ON a.id = i.animal_id "
            "LEFT JOIN person p ON p.id = i.owner_id JOIN (SELECT id FROM impoundment "
            f"ORDER BY {key}, id LIMIT {PAGE} OFFSET {offset}) pg ON pg.id = i.id "
            f"ORDER BY i.{key}, i.id"
        )
        return lambda: raw.execute(sql).fetchall()

    deep = impoundments * 3 // 4
    results = []
    for label, sort, key in (
        ("animal", "animal", "animal_name"),
        ("owner", "owner", "owner_sort_name"),
    ):
        results.append(
            Result(
                f"all statuses by {label}: count and first page",
                median_time(first_page(sort)),
                "raw sqlite3, same index",
                median_time(raw_first(key)),
                60,
            )
        )
        results.append(
            Result(
                f"all statuses by {label}: page at {deep:,}",
                deep_page(sort, deep),
                "raw sqlite3, same index",
                median_time(raw_page(key, deep)),
                6,
            )
        )
    model.set_filter(replace(model.filter(), status="in_custody"))
    _wait(app, lambda: not model.is_searching())
    ctx.shutdown()
    raw.close()
    db.dispose()
    return results


if __name__ == "__main__":
    import tempfile

    for r in run(Path(tempfile.gettempdir()) / f"fieldops-bench-impounds-{date.today()}.db"):
        print(r.line())
