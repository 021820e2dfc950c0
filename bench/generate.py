"""A city's records for the benchmarks: ``python -m bench.generate --size 100000``.

Deterministic (fixed seeds, a fixed "today": ``TODAY``): the same size and
generator version give the same rows. At 1,000,000 impoundments over ten years
there are 1,000,000 people and 1,000,000 animals, the impoundments with their
dispositions (all but about 3,218 of the last days' animals disposed of, one in
fifty corrected), payments with their lines, about 210,000 bite reports with
200,000 quarantines (exams and events), 20,000 vicious-animal cases with their
declarations, incidents, notices, outcomes and steps, 300,000 dog licences,
500,000 field calls (499,880 dispatches, 14,261 complaints, 2,085 petitions,
15,623 citations; bench/generate_calls.py) with 2,000 caution flags, 3,000
chicken and fancier's permits (11,712 yearly issues with their payments;
bench/generate_permits.py), and one audit event per change as the services write
it (8,937,512: an intake writes two, each quarantine exam and event one, a
closed call three), chained as migration 0014 and
``fieldops.services.context.append_audit`` chain them, so ``fieldops check``
accepts the file. Other sizes scale every count.

The schema comes from the real migrations (``fieldops.db.migrate.upgrade``)
with their indexes and triggers (the impoundment's list copies, the search
indexes, the append-only guards), then rows go in with sqlite3 ``executemany``
in storage form (UTC instants as SQLAlchemy writes them, money in cents): the
indexes and the search indexes' insert triggers dropped for the load and made
again from their own SQL after it (each search index rebuilt; the triggers of
``COPY_TRIGGERS`` dropped too, their copies written by one statement each), journal
and sync off while building, then ANALYZE and WAL as the app keeps the file. The
file is kept in ``--dir`` as ``city-N.db`` beside ``city-N.stamp`` holding
``VERSION`` and the schema's head revision: change what the generator writes
and bump ``VERSION``, and the next run rebuilds; a new migration alone upgrades
the kept city in place, as it would a pound's database.

Each part of the city is one function of ``GENERATORS``; a module that lands
adds its own function there, one line.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.city import Audit, City
from bench.generate_calls import calls
from bench.generate_cases import bites_and_quarantines, vicious_cases
from bench.generate_licences import licences
from bench.generate_permits import permits
from bench.generate_pound import animals, impoundments, people, staff
from fieldops.rules import Profile

#: Bump when the rows written change: kept files are rebuilt.
VERSION = "5"  # 3: dog licences; 4: calls (with cautions) and permits; 5: migrations 0022-0024 filled (a city kept at their empty slots has no call search index)

Generator = Callable[[City], None]
#: One function per part, in order (a later part uses what an earlier one made).
GENERATORS: tuple[Generator, ...] = (
    staff,
    people,
    animals,
    impoundments,
    bites_and_quarantines,
    vicious_cases,
    licences,
    calls,
    permits,
)


def build(path: Path, size: int, generators: Sequence[Generator] = GENERATORS) -> None:
    """Write a fresh city of ``size`` impoundments to ``path`` (replaced if there)."""
    path.unlink(missing_ok=True)
    migrate(path)
    fill(path, size, generators)


def _licence_renewal_flags() -> str:
    """The SET list migration 0025 fills the renewal flags with (its triggers' own)."""
    from importlib import import_module

    return str(import_module("fieldops.db.migrations.versions.0025_list_indexes")._RENEWED)


def migrate(path: Path) -> None:
    """An empty database at ``path``, upgraded through the real migrations."""
    from fieldops.db.engine import Database
    from fieldops.db.migrate import upgrade

    db = Database(f"sqlite:///{path}")
    upgrade(db.engine, db.url)
    db.dispose()


def fill(path: Path, size: int, generators: Sequence[Generator] = GENERATORS) -> None:
    """The city's rows, written into the freshly migrated (empty) database at ``path``."""
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("PRAGMA journal_mode = OFF")  # one writer, and a failed build is thrown away
    raw.execute("PRAGMA synchronous = OFF")
    raw.execute("PRAGMA cache_size = -200000")
    raw.execute("PRAGMA foreign_keys = ON")
    raw.execute("BEGIN")
    # The migrations' indexes are dropped for the load and made again from their own
    # SQL after it: one sort each instead of a million inserts at random places
    # (the same indexes; a unique one still refuses a duplicate when it is remade).
    indexes = raw.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
    ).fetchall()
    for name, _ in indexes:
        raw.execute(f'DROP INDEX "{name}"')
    # The search indexes' insert triggers likewise: each external-content FTS5 index is
    # rebuilt from its table after the load (a quarter of the time of a million inserts
    # through the trigger), and the trigger made again from its own SQL.
    fts = raw.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name GLOB '*_fts_ai' "
        "ORDER BY name"
    ).fetchall()
    for name, _ in fts:
        raw.execute(f'DROP TRIGGER "{name}"')
    # The triggers that keep a copy of an answer about other rows (a licence's renewal
    # flags, migration 0025; a call's follow-up still to do, 0027) would ask it once a
    # row of tables without their indexes, a scan each (hours at 1,000,000); a person's
    # words (0030) would go through a tokenizer a person and into their table at random
    # places; the licences' counts (0031) would be counted a licence at a time where one
    # GROUP BY counts them all; what each bite still has to send (0032) would be asked of
    # its events a bite and a quarantine at a time. Dropped for the load, the copies
    # written by one statement each after it and the triggers made again from their own
    # SQL.
    copies = raw.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN "
        f"({', '.join('?' for _ in COPY_TRIGGERS)}) ORDER BY name",
        COPY_TRIGGERS,
    ).fetchall()
    for name, _ in copies:
        raw.execute(f'DROP TRIGGER "{name}"')
    city = City(raw, size, Audit(raw), Profile.default())
    for gen in generators:
        gen(city)
    city.audit.close()
    for _, sql in indexes:
        raw.execute(sql)
    for name, sql in fts:
        table = name.removesuffix("_ai")
        raw.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
        raw.execute(sql)
    if copies:
        # Each table's statistics first, as the app's file has them: without them the
        # planner reads the "renewed later" EXISTS through ix_dog_licence_year_animal
        # (status = ? AND licence_year > ?), every later current licence for each
        # licence (quadratic again); with them, by the licence's animal. The ANALYZE
        # below makes every table's statistics afresh, so the file's are the same.
        raw.execute("ANALYZE dog_licence")
        raw.execute(f"UPDATE dog_licence SET {_licence_renewal_flags()}")
        raw.execute("ANALYZE field_call")
        raw.execute(_follow_up_copies())
        # The people's words for the search's first pages (0030), from the search index
        # just rebuilt, as the migration fills them.
        for statement in _person_words():
            raw.execute(statement)
        # The licences' counts of a year and status (0031), as the migration fills them.
        raw.execute(_licence_counts())
        # What each bite still has to send (0032), as the migration fills it.
        for statement in _bites_to_send():
            raw.execute(statement)
        for _, sql in copies:
            raw.execute(sql)
    raw.execute("COMMIT")
    raw.execute("ANALYZE")
    raw.execute("PRAGMA journal_mode = WAL")  # as the app keeps it
    raw.close()


COPY_TRIGGERS = (
    "dog_licence_renewed_ai",
    "dog_licence_renewed_au",
    "dog_licence_renewed_ad",
    "field_call_follow_up_ai",
    "field_call_follow_up_au",
    "field_call_follow_up_ad",
    "call_follow_up_done_ai",
    "person_word_ai",
    "person_word_au",
    "person_word_ad",
    "dog_licence_count_ai",
    "dog_licence_count_au",
    "dog_licence_count_ad",
    "bite_to_send_bite_ai",
    "bite_to_send_event_ai",
    "bite_to_send_quarantine_ai",
    "bite_to_send_quarantine_au",
    "bite_to_send_quarantine_ad",
)


def _person_words() -> list[str]:
    """The statements migration 0030 fills ``person_word`` with, on SQLite."""
    from importlib import import_module

    migration = import_module("fieldops.db.migrations.versions.0030_first_pages")
    return list(migration.fill_sql("sqlite"))


def _licence_counts() -> str:
    """The statement migration 0031 fills ``dog_licence_count`` with."""
    from importlib import import_module

    migration = import_module("fieldops.db.migrations.versions.0031_licence_counts")
    return str(migration.FILL)


def _bites_to_send() -> tuple[str, ...]:
    """The statements migration 0032 fills ``bite_to_send`` with."""
    from importlib import import_module

    migration = import_module("fieldops.db.migrations.versions.0032_bite_to_send")
    return tuple(migration.FILL)


def _follow_up_copies() -> str:
    """Every call's copy of "follow-up still to do", from its sources, as SQLite SQL."""
    from sqlalchemy import case, update
    from sqlalchemy.dialects import sqlite

    from fieldops.db.models import FieldCall
    from fieldops.services.calls.followups import follow_up_pending_from_sources

    statement = (
        update(FieldCall)
        .where(FieldCall.follow_up_on.is_not(None))
        .values(
            follow_up_due_on=case((follow_up_pending_from_sources(), FieldCall.follow_up_on)),
            updated_at=FieldCall.updated_at,  # a copy, not a change of the call
        )
    )
    return str(statement.compile(dialect=sqlite.dialect()))


def stamp_text() -> str:
    """The generator's version and the schema's head: a change to either rebuilds."""
    from fieldops.db.migrate import head_revision

    return f"{VERSION} {head_revision()}"


def stamp_path(path: Path) -> Path:
    return path.with_suffix(".stamp")


def city_path(directory: Path, size: int) -> Path:
    return directory / f"city-{size}.db"


def _upgraded_in_place(path: Path, stamp: Path) -> bool:
    """A kept city from this generator's version brought to a newer schema by its migrations.

    A migration alone (an index, a column with its backfill) does not change what
    the generator writes: the city is upgraded as a pound's own database would
    be, which takes seconds where a rebuild of the 1,000,000 city takes a
    quarter of an hour. A city from another version of the generator is rebuilt.
    """
    if not stamp.exists() or stamp.read_text().split()[:1] != [VERSION]:
        return False
    from fieldops.db.engine import Database
    from fieldops.db.migrate import upgrade

    db = Database(f"sqlite:///{path}")
    try:
        upgrade(db.engine, db.url, backup_first=False)  # a generated city: no backup of it
    finally:
        db.dispose()
    stamp.write_text(stamp_text() + "\n")
    return True


def ensure(directory: Path, size: int, *, quiet: bool = False) -> Path:
    """The kept ``city-N.db`` in ``directory``, built (or rebuilt) when missing or stale.

    Several runs may share the folder: a lock file makes the second wait for the
    first one's build and then use it."""
    import fcntl

    directory.mkdir(parents=True, exist_ok=True)
    path = city_path(directory, size)
    stamp = stamp_path(path)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists() and stamp.exists() and stamp.read_text().strip() == stamp_text():
            return path
        if path.exists() and _upgraded_in_place(path, stamp):
            return path
        stamp.unlink(missing_ok=True)
        part = path.with_name(f"{path.name}.part-{os.getpid()}")
        t0 = time.perf_counter()
        try:
            build(part, size)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        part.replace(path)
        stamp.write_text(stamp_text() + "\n")
    if not quiet:
        mb = path.stat().st_size / 1e6
        print(f"   (built {path.name}: {mb:,.0f} MB in {time.perf_counter() - t0:.0f} s)")
    return path


_scratch: dict[Path, Path] = {}


def scratch_copy(path: Path) -> Path:
    """A copy of the kept ``path`` for figures that write (a save, a printed report's
    audit event), so the kept file stays as generated: made once per process,
    beside it as ``city-N-scratch-PID.db``, and removed when the process ends."""
    if path in _scratch:
        return _scratch[path]
    import atexit
    import shutil

    copy = path.with_name(f"{path.stem}-scratch-{os.getpid()}.db")
    shutil.copyfile(path, copy)
    _scratch[path] = copy
    atexit.register(_remove, copy)
    return copy


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.generate")
    p.add_argument("--size", type=int, default=100_000, help="impoundments")
    p.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "fieldops-bench")
    args = p.parse_args(argv)
    print(ensure(args.dir, args.size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
