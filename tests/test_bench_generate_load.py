"""How the benchmark's city is loaded (bench/generate.py): the rows as the schema's own
triggers would leave them, a load whose work grows with the city (not its square),
and the rows themselves pinned to the generator's ``VERSION``."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from bench import generate, generate_cases, generate_licences
from bench.generate_licences import licences
from bench.generate_pound import animals, people, staff

SIZE = 200

#: The audit chain's head (its count and last hash) of a city of ``SIZE`` for each
#: generator ``VERSION``: every event carries its record's values, ids and instants in
#: order, so a generator that writes anything else changes the head. Change what the
#: generator writes, bump ``VERSION`` (kept cities are rebuilt) and pin its head here.
CHAIN_HEAD = {
    "5": (1791, "cad3c362931389f8fa3d679c548c628015126191f24850274013cb6c540f2665"),
}


def _filled(template: str, path: Path, size: int = SIZE, generators=generate.GENERATORS) -> Path:
    shutil.copyfile(template, path)
    generate.fill(path, size, generators)
    return path


def _digest(path: Path) -> dict[str, str]:
    """Each table's rows in rowid order (the search indexes' own tables included) and the
    schema as a set: a trigger made again after the load is listed later in
    ``sqlite_master``, the same schema."""
    raw = sqlite3.connect(path)
    try:
        out = {
            "schema": repr(
                sorted(raw.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
            )
        }
        for (table,) in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        ).fetchall():
            rowid = "" if _without_rowid(raw, table) else "rowid, "
            rows = raw.execute(f'SELECT {rowid}* FROM "{table}" ORDER BY 1, 2').fetchall()
            out[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
        return out
    finally:
        raw.close()


def _without_rowid(raw: sqlite3.Connection, table: str) -> bool:
    try:
        raw.execute(f'SELECT rowid FROM "{table}" LIMIT 0')
    except sqlite3.OperationalError:
        return True
    return False


@pytest.fixture(scope="module")
def city(tmp_path_factory, sqlite_template) -> Path:
    return _filled(sqlite_template, tmp_path_factory.mktemp("load") / "city.db")


def test_a_replayed_trigger_leaves_the_rows_its_firings_would(
    city, sqlite_template, tmp_path, monkeypatch
):
    monkeypatch.setattr(generate, "COPY_TRIGGERS", ())  # each insert fires its triggers
    fired = _filled(sqlite_template, tmp_path / "fired.db")
    assert _digest(city) == _digest(fired)
    raw = sqlite3.connect(city)
    try:
        # Not a vacuous match: last year's licences are renewed or not, as the flags say.
        flags = dict(raw.execute("SELECT renewed, count(*) FROM dog_licence GROUP BY renewed"))
        assert flags[0] > 0 and flags[1] > 0
        # And the people's words for the search's first pages (0030) were written.
        assert raw.execute("SELECT count(DISTINCT person_id) FROM person_word").fetchone()[0] > 0
        # And the licences' counts of a year and status (0031), every licence counted.
        counted = raw.execute("SELECT count(*), sum(n) FROM dog_licence_count").fetchone()
        assert counted[0] > 1 and counted[1] == flags[0] + flags[1]
    finally:
        raw.close()


def _steps(template: str, path: Path, size: int) -> int:
    """SQLite's virtual machine steps (in thousands) to load ``size``'s people, animals
    and licences: a count of work that, unlike a time, does not vary with the machine."""
    steps = [0]

    def counted(gen):
        def run(city):
            city.raw.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1), 1000)
            gen(city)

        run.__name__ = gen.__name__
        return run

    _filled(template, path, size, [counted(g) for g in (staff, people, animals, licences)])
    return steps[0]


def test_loading_licences_grows_with_the_city_not_its_square(sqlite_template, tmp_path):
    # Each licence inserted with its renewed flags' trigger firing and the indexes dropped
    # scanned every licence before it: four times the city took 10.6 times the steps.
    # Their one UPDATE after the load, planned without the table's statistics, read
    # the current licences for each licence: 5.1 times. Loaded in a line: 4.0 times.
    small = _steps(sqlite_template, tmp_path / "small.db", 1_000)
    large = _steps(sqlite_template, tmp_path / "large.db", 4_000)
    assert large < 4.6 * small, (small, large)


def test_rows_written_as_they_go_are_the_rows_written_at_the_end(
    city, sqlite_template, tmp_path, monkeypatch
):
    # Bite reports (with their quarantines, exams and events) and licences are written
    # every CHUNK rows, not held to the end: at 1,000,000 the held ones were most of
    # the build's memory. Written every few rows, the tables are the same.
    monkeypatch.setattr(generate_cases, "CHUNK", 7)
    monkeypatch.setattr(generate_licences, "CHUNK", 7)
    chunked = _filled(sqlite_template, tmp_path / "chunked.db")
    assert _digest(chunked) == _digest(city)


def test_the_rows_are_those_pinned_to_the_generator_version(city):
    raw = sqlite3.connect(city)
    try:
        head = raw.execute("SELECT seq, hash FROM audit_chain").fetchone()
    finally:
        raw.close()
    assert generate.VERSION in CHAIN_HEAD, "a new VERSION: pin its chain head"
    assert tuple(head) == CHAIN_HEAD[generate.VERSION], (
        "the generator writes other rows: bump VERSION and pin the new chain head"
    )
