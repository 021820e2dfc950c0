"""``fieldops check``: is this database sound?

The shared checks are here (schema, SQLite's own, search indexes, the
registry's audit trail: its append-only triggers, its hash chain, and every
audited record against the last state its events describe,
``fieldops.services.audit_verify`` and ``audit_records``); every installed module adds its own
(``fieldops.modules.Module.checks``). Every table kept by triggers from other rows is
checked against its sources (``kept_tables``: the people's words here, each module's
own by ``fieldops.modules.Module.kept_tables``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from fieldops import failures, modules
from fieldops.db.engine import READONLY, Database, sqlite_file
from fieldops.db.migrate import head_revision
from fieldops.db.search import PERSON_FTS_COLUMNS, pg_vector
from fieldops.rules import plural
from fieldops.services.audit_records import record_problems
from fieldops.services.audit_verify import chain_problems, trigger_problems

SEARCH_INDEXES = ("person_fts", "animal_fts")


def integrity_problems(db: Database, note: Callable[[str], None] | None = None) -> list[str]:
    """Everything wrong with the database, in words; empty when all is well.

    Only reads, on a read-only unit of work: it answers while another workstation
    saves. A damaged SQLite file raises ``DamagedDatabaseError`` (naming the newest
    backup) instead of a list: nothing else about it can be trusted. ``note`` hears
    what could not be checked (the search indexes of a file this process may not
    write, or while someone holds the write lock), which is not a problem found.
    """
    path = database_file(db)
    try:
        return _problems(db, path, note or (lambda _: None))
    except DBAPIError as exc:
        if path is not None and failures.environment_kind(exc, path) == failures.DAMAGED:
            raise failures.DamagedDatabaseError(
                failures.damage_failure(path, _first_line(exc))
            ) from None
        raise


def database_file(db: Database) -> Path | None:
    """The SQLite file ``db`` reads, also when it was opened as a read-only URI."""
    if db.dialect != "sqlite":
        return None
    name = make_url(db.url).database or ""
    if name.startswith("file:"):
        from urllib.request import url2pathname  # with HTTP and e-mail: not at start-up

        return Path(url2pathname(urlsplit(name).path))
    return sqlite_file(db.url)


def _problems(db: Database, path: Path | None, note: Callable[[str], None]) -> list[str]:
    from alembic.runtime.migration import MigrationContext

    problems: list[str] = []
    with db.engine.connect().execution_options(**{READONLY: True}) as conn:
        if path is not None:
            damage = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check")]
            if damage != ["ok"]:
                raise failures.DamagedDatabaseError(
                    failures.damage_failure(path, _sqlite_words(damage))
                )
        rev, head = MigrationContext.configure(conn).get_current_revision(), head_revision()
        if rev != head:
            problems.append(f"schema is at {rev or 'nothing'}, expected {head}")
        if path is not None:
            for row in conn.exec_driver_sql("PRAGMA foreign_key_check"):
                problems.append(f"broken reference: {row[0]} row {row[1]} -> {row[2]}")
        if rev == head:
            problems += _unaudited(conn)
            problems += trigger_problems(conn)
            problems += chain_problems(conn)
            problems += record_problems(conn)
            problems += stale_kept_tables(conn)
            for m in modules.installed_modules():
                if m.checks is not None:
                    problems += m.checks(conn)
            if path is not None:  # last: the one statement that wants the write lock
                problems += _search_index_problems(conn, path, note)
        conn.rollback()
    return problems


def _search_index_problems(conn: Connection, path: Path, note: Callable[[str], None]) -> list[str]:
    """FTS5's own check. It is an INSERT, so SQLite wants the write lock for it: on a
    file this process may not write, or while another holds the lock, it is skipped
    (and said) rather than reported as damage or waited for."""
    reason = failures.read_only_reason(path)
    if reason is not None:
        note(f"the search indexes were not checked: {reason}")
        return []
    problems = []
    raw = conn.connection.driver_connection
    assert isinstance(raw, sqlite3.Connection)
    (timeout,) = raw.execute("PRAGMA busy_timeout").fetchone()
    raw.execute("PRAGMA busy_timeout = 0")  # never queue behind a writer
    try:
        for fts in SEARCH_INDEXES:
            try:
                conn.exec_driver_sql(f"INSERT INTO {fts}({fts}) VALUES ('integrity-check')")
            except DBAPIError as exc:
                kind = failures.environment_kind(exc, path)
                if kind in (failures.LOCKED, failures.READ_ONLY):
                    note(
                        "the search indexes were not checked: another workstation was "
                        "saving; run the check again later to include them"
                    )
                    break
                problems.append(f"search index {fts} is damaged: {_first_line(exc)}")
    finally:
        raw.execute(f"PRAGMA busy_timeout = {int(timeout)}")
    return problems


def _expected_person_words(dialect: str) -> str:
    """Every active person's words as the search index holds them, as ``person_word``
    keeps them (migration 0030): each of four characters or more, under its first four."""
    if dialect == "sqlite":
        return (
            "SELECT substr(i.term, 1, 4) AS head, p.sort_name, p.id AS person_id, i.term AS word "
            "FROM temp.person_fts_instances AS i JOIN person AS p ON p.id = i.doc "
            "WHERE length(i.term) >= 4 AND p.archived_at IS NULL"
        )
    vector = pg_vector(tuple(f"p.{c}" for c in PERSON_FTS_COLUMNS))
    return (
        "SELECT left(w, 4) AS head, p.sort_name, p.id AS person_id, w AS word FROM person AS p, "
        f"unnest(tsvector_to_array({vector})) AS w WHERE length(w) >= 4 AND p.archived_at IS NULL"
    )


def stale_person_words(conn: Connection) -> list[str]:
    """People whose kept words (the People search's first pages) differ from the search
    index's: a trigger lost, or a row written around it, and a one-word search would
    list them wrongly or leave them out."""
    dialect = conn.dialect.name
    if dialect == "sqlite":
        conn.exec_driver_sql(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.person_fts_instances "
            "USING fts5vocab(main, person_fts, instance)"
        )
    expected = _expected_person_words(dialect)
    kept = "SELECT head, sort_name, person_id, word FROM person_word"
    ids = (
        conn.exec_driver_sql(
            f"SELECT person_id FROM ({expected} EXCEPT {kept}) AS missing "
            f"UNION SELECT person_id FROM ({kept} EXCEPT {expected}) AS extra "
            "ORDER BY person_id"
        )
        .scalars()
        .all()
    )
    if not ids:
        return []
    return [
        f"{plural(len(ids), 'person record')} kept under other words than the search index's "
        "(the People search's first pages): " + ", ".join(f"#{i}" for i in ids[:10])
    ]


def kept_tables() -> dict[str, Callable[[Connection], Sequence[str]]]:
    """Every table kept by triggers from other tables' rows, name -> its check (problems
    in words, ``[]`` when in step): the people's words (core, migration 0030), then each
    installed module's (``fieldops.modules.kept_tables``). ``fieldops migrate-to`` copies
    none of them (the target's triggers fill them) and runs every check on the copy."""
    found: dict[str, Callable[[Connection], Sequence[str]]] = {"person_word": stale_person_words}
    for name, check in modules.kept_tables().items():
        if name in found:
            raise ValueError(f"{name} is kept by the core, and a module claims it too")
        found[name] = check
    return found


def stale_kept_tables(conn: Connection) -> list[str]:
    """Every kept table's problems (``kept_tables``), in their order."""
    return [p for check in kept_tables().values() for p in check(conn)]


def _sqlite_words(lines: list[str]) -> str:
    first = lines[0]
    more = f", and {plural(len(lines) - 1, 'more problem')}" if len(lines) > 1 else ""
    return f"SQLite's integrity check: {first}{more}"


def _first_line(exc: BaseException) -> str:
    words = str(getattr(exc, "orig", None) or exc).strip()
    return words.splitlines()[0] if words else type(exc).__name__


def refuse_damaged(path: Path, read_only_uri: str) -> None:
    """``PRAGMA quick_check`` on a SQLite file about to be used for saving: refuse a
    damaged one (``DamagedDatabaseError``, naming the newest backup). Opened through
    ``read_only_uri`` (fieldops.files), so it writes and creates nothing.
    On a 136 MB demo database (``demo --people 100000``) it took 0.9-1.3 s with the
    file cached (a busy 2-core machine), 6 s from a cold cache."""
    try:
        con = sqlite3.connect(read_only_uri, uri=True)
        try:
            rows = [r[0] for r in con.execute("PRAGMA quick_check")]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if failures.environment_kind(exc, path) != failures.DAMAGED:
            raise
        rows = [str(exc)]
    if rows != ["ok"]:
        raise failures.DamagedDatabaseError(failures.damage_failure(path, _sqlite_words(rows)))


def _unaudited(conn: Connection) -> list[str]:
    """Records with no audit event for their creation: a change that bypassed the services."""
    out = []
    for table in ("person", "animal"):
        n = conn.execute(
            text(
                f"SELECT count(*) FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
                f"WHERE e.entity = '{table}' AND e.entity_id = t.id AND e.action = 'create')"
            )
        ).scalar_one()
        if n:
            out.append(f"{plural(n, table + ' record')} with no audit trail of creation")
    return out
