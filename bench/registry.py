"""People and animals with a million people: the list opens and search answers at once.

Baseline: the same kind of query in raw sqlite3 on the same file (an indexed
ORDER BY ... LIMIT 200), measured in the same run. The target is "no visible
pause": each service call within a small multiple of the raw query and, as a
sanity bound, of a fixed 100 ms budget reported alongside.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from bench.common import Result, median_time
from fieldops.db.engine import Database
from fieldops.db.migrate import upgrade
from fieldops.services.context import Actor
from fieldops.services.people import count_people, people_page


def build(path: Path, people: int) -> Database:
    from fieldops.demo import _bulk_people

    db = Database(f"sqlite:///{path}")
    fresh = not path.exists() or path.stat().st_size == 0
    upgrade(db.engine, db.url)
    if fresh:
        _bulk_people(db, Actor("bench", "admin"), random.Random(1), people, 0)
    return db


def run(path: Path, people: int) -> list[Result]:
    db = build(path, people)
    raw = sqlite3.connect(path)

    def raw_first_page():
        raw.execute("SELECT id, full_name, address, city, phone, email FROM person "
                    "ORDER BY sort_name, id LIMIT 200").fetchall()

    base = median_time(raw_first_page)
    results = [
        Result("people list: count", median_time(lambda: count_people(db, "")),
               "raw first page", base, 40),
        Result("people list: first page", median_time(lambda: people_page(db, "", 0, 200)),
               "raw first page", base, 10),
        Result("people list: page at the end",
               median_time(lambda: people_page(db, "", people - 200, 200)),
               "raw first page", base, 200),
        Result("search 'ruiz': count", median_time(lambda: count_people(db, "ruiz")),
               "raw first page", base, 40),
        Result("search 'ruiz': first page", median_time(lambda: people_page(db, "ruiz", 0, 200)),
               "raw first page", base, 60),
        Result("search 'ana ruiz elm': first page",
               median_time(lambda: people_page(db, "ana ruiz elm", 0, 200)),
               "raw first page", base, 60),
        Result("search phone '555-01': first page",
               median_time(lambda: people_page(db, "555-01", 0, 200)),
               "raw first page", base, 60),
    ]
    raw.close()
    db.dispose()
    return results
