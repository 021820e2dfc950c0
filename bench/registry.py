"""People and animals on the generated city (a million people at 1,000,000 impoundments):
the list opens and search answers at once.

Each service call is compared with the same query in raw sqlite3 on the same
file, measured in the same run: the ratio is what the service layer
(SQLAlchemy, the unit of work, frozen rows) costs on top of the database.
The absolute times are printed too; "no visible pause" means well under 100 ms
for the first page and a search, on a machine like the one in TOOLCHAIN.md.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from bench.common import Result, median_time
from fieldops.db.engine import Database
from fieldops.db.migrate import upgrade
from fieldops.services.people import _WALK, count_people, people_page

COLS = "p.id, p.full_name, p.address, p.city, p.phone, p.email"
FTS = "SELECT rowid FROM person_fts WHERE person_fts MATCH ?"


def build(path: Path, people: int) -> Database:
    """The generated city at ``path`` (``bench.generate``: as many people as impoundments)."""
    if not path.exists():
        raise FileNotFoundError(f"{path} is not generated yet: python -m bench.generate")
    db = Database(f"sqlite:///{path}")
    upgrade(db.engine, db.url)
    return db


def run(path: Path, people: int) -> list[Result]:
    db = build(path, people)
    raw = sqlite3.connect(path)

    def q(sql: str, *args: object) -> Callable[[], object]:
        return lambda: raw.execute(sql, args).fetchall()

    page_sql = (
        f"SELECT {COLS} FROM person p JOIN (SELECT id FROM person INDEXED BY "
        "ix_person_active_order WHERE archived_at IS NULL ORDER BY sort_name, id "
        "LIMIT 200 OFFSET ?) pg ON pg.id = p.id ORDER BY p.sort_name, p.id"
    )
    # A search of more than one word since migration 0028: the matches, in id order, joined
    # to their sort keys on ix_person_id_sort, then the page's columns.
    search_sql = (
        f"SELECT {COLS} FROM person p JOIN (SELECT m.id FROM person_fts CROSS JOIN person AS m "
        "INDEXED BY ix_person_id_sort ON m.id = person_fts.rowid WHERE person_fts MATCH ? "
        "AND m.archived_at IS NULL ORDER BY m.sort_name, m.id LIMIT 200) pg ON pg.id = p.id "
        "ORDER BY p.sort_name, p.id"
    )
    count_sql = f"SELECT count(*) FROM person WHERE archived_at IS NULL AND id IN ({FTS})"

    def word_page(word: str, limit: int) -> Callable[[], object]:
        """A one-word search's first page since migration 0030, as the service sends it:
        the bound of its head's first rows, then the matches before it with their columns."""

        def run() -> object:
            bound = raw.execute(
                "SELECT sort_name, person_id FROM person_word WHERE head = ? "
                "ORDER BY sort_name, person_id LIMIT 1 OFFSET ?",
                (word[:4], _WALK * limit),
            ).fetchone()
            return raw.execute(
                f"SELECT {COLS} FROM person p JOIN (SELECT person_id FROM person_word "
                "WHERE head = ? AND substr(word, 1, ?) = ? AND (sort_name, person_id) < (?, ?) "
                "GROUP BY sort_name, person_id ORDER BY sort_name, person_id LIMIT ?) m "
                "ON m.person_id = p.id ORDER BY p.sort_name, p.id",
                (word[:4], len(word), word, *bound, limit),
            ).fetchall()

        return run

    cases = [
        (
            "people list: count",
            lambda: count_people(db, ""),
            q("SELECT count(*) FROM person WHERE archived_at IS NULL"),
            2,
        ),
        ("people list: first page", lambda: people_page(db, "", 0, 200), q(page_sql, 0), 60),
        (
            "people list: page at the end",
            lambda: people_page(db, "", people - 200, 200),
            q(page_sql, people - 200),
            3,
        ),
        ("search 'ruiz': count", lambda: count_people(db, "ruiz"), q(count_sql, '"ruiz"*'), 3),
        (
            "search 'ruiz': first page",
            lambda: people_page(db, "ruiz", 0, 200),
            word_page("ruiz", 200),
            3,
        ),
        (
            "search 'ana ruiz elm': first page",
            lambda: people_page(db, "ana ruiz elm", 0, 200),
            q(search_sql, '"ana"* AND "ruiz"* AND "elm"*'),
            5,
        ),
        (
            "search phone '555-01': first page",
            lambda: people_page(db, "555-01", 0, 200),
            word_page("55501", 200),
            3,
        ),
    ]
    results = [
        Result(name, median_time(service), "raw sqlite3, same query", median_time(base), limit)
        for name, service, base, limit in cases
    ]
    raw.close()
    db.dispose()
    return results
