"""Bring a database to the app's schema, safely.

At start-up: an empty database is created at the current schema; an older
one is first backed up into its backup folder (fieldops.backups: SQLite's online
backup API, as a file copy of a live WAL database misses recent commits; 0600
from the first byte; a damaged one is refused, not upgraded) and then upgraded; a
database whose schema is newer than this app is refused.

Alembic (and Mako, Pygments and every SQL dialect behind it) is imported only
when a database needs upgrading: the revision a database is at is one plain query
against ``alembic_version``, and the revisions this app knows are read from the
migration files' ``revision =`` lines (``known_revisions``), so a start-up on an
up-to-date database never loads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from fieldops.db.engine import READONLY
from fieldops.errors import UserError

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
VERSION_TABLE = "alembic_version"  # Alembic's own, one row: the revision a database is at


def __getattr__(name: str) -> Any:
    """``migrate.command``: Alembic's commands, imported on first use (tests patch them)."""
    if name == "command":
        from alembic import command

        return command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SchemaTooNewError(UserError, RuntimeError):
    """The database was written by a newer FieldOps; opening it could damage it."""


class SchemaTooOldError(UserError):
    """The database is at an older schema: only a command that may upgrade it can use it."""


class NotFieldOpsError(UserError):
    """The database has tables, but none of them say FieldOps made it."""


@dataclass(frozen=True)
class UpgradeResult:
    before: str | None
    after: str
    backup: Path | None


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # The option is read with configparser's interpolation: a "%" in a path or in a URL's
    # escapes (a password's %40, a query's %3D) must be doubled or Alembic fails.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["url"] = url
    return cfg


def script_directory() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://"))


_REVISION = re.compile(r"""^revision\s*(?::[^=]*)?=\s*["']([^"']+)["']""", re.MULTILINE)
_DOWN = re.compile(r"""^down_revision\s*(?::[^=]*)?=\s*(None|["']([^"']+)["'])""", re.MULTILINE)


@cache
def known_revisions() -> tuple[tuple[str, ...], str]:
    """Every revision the migration files define, and the head: read, not imported.

    The chain is linear (tests/db/test_migrations.py); the head is the revision no
    other file names as its ``down_revision``. Alembic reads the same two lines.
    """
    revisions: list[str] = []
    downs: set[str] = set()
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        source = script.read_text(encoding="utf-8")
        rev, down = _REVISION.search(source), _DOWN.search(source)
        if rev is None or down is None:
            continue  # not a migration (Alembic skips it too)
        revisions.append(rev.group(1))
        if down.group(2):
            downs.add(down.group(2))
    heads = [r for r in revisions if r not in downs]
    if len(heads) != 1:  # a broken install (e.g. a bundle without its migrations)
        raise RuntimeError(f"FieldOps cannot find its database migrations in {MIGRATIONS}")
    return tuple(revisions), heads[0]


def head_revision() -> str:
    return known_revisions()[1]


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: no FieldOps schema), by one plain query.

    The schema is read only when that query fails: a new database has no version table,
    and any other failure (a lock, a damaged file) is raised, never taken for one.
    """
    # Read-only: on SQLite the unit of work begins DEFERRED, taking no write lock.
    with engine.connect().execution_options(**{READONLY: True}) as conn:
        try:
            rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
        except DBAPIError:
            conn.rollback()  # PostgreSQL refuses any statement in the failed transaction
            if inspect(conn).has_table(VERSION_TABLE):
                raise
            return None
    if len(rows) > 1:  # Alembic's own answer to a branched database
        raise RuntimeError(f"the database is at several schema versions at once: {rows}")
    return rows[0] if rows else None


def backup_sqlite(url: str, revision: str | None) -> Path | None:
    """The pre-upgrade copy of a SQLite database (fieldops.backups); returns its path.

    Written 0600 from its first byte, checked, and kept apart from the daily rotation.
    """
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    from fieldops.backups import backup_before_upgrade

    return backup_before_upgrade(Path(database), revision).path


def upgrade(engine: Engine, url: str, *, backup_first: bool = True) -> UpgradeResult:
    """Upgrade to head, backing up first when there is data at an older schema.

    ``backup_first=False`` is for a file that is itself a copy (a restore upgrades
    its private copy of a backup before it replaces anything).
    """
    head = head_revision()
    before = current_revision(engine)
    if before is not None and not _is_known(before):
        raise SchemaTooNewError(_too_new(before, head))
    if before == head:
        return UpgradeResult(before, head, None)  # the usual start: Alembic is not loaded
    from alembic import command

    backup = None
    if backup_first and before is not None and engine.dialect.name == "sqlite":
        backup = backup_sqlite(url, before)
    cfg = alembic_config(url)
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        raw = conn.connection.driver_connection
        assert raw is not None  # a live DBAPI connection while the Connection is open
        if sqlite:
            # Batch migrations recreate tables; foreign keys are checked once, at the end.
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"migration left broken references: {broken[:5]}")
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys=ON")
    return UpgradeResult(before, head, backup)


def require_head(revision: str | None, name: str) -> None:
    """Refuse, in words, a database a read-only command cannot use as it is.

    ``revision`` is the database's current one (``current_revision``); ``name``
    says which database, as the user named it. Nothing is changed either way.
    """
    head = head_revision()
    if revision == head:
        return
    if revision is None:
        raise NotFieldOpsError(
            f"{name} holds no FieldOps data yet (no schema version); nothing was changed."
        )
    if not _is_known(revision):
        raise SchemaTooNewError(f"{name}: {_too_new(revision, head)}")
    raise SchemaTooOldError(
        f"{name} uses schema version {revision}, older than this FieldOps ({head}); "
        "open it once in the FieldOps window to upgrade it (a backup is made first). "
        "Nothing was changed."
    )


def _too_new(revision: str, head: str) -> str:
    return (
        f"This database uses schema version {revision}, which is newer than this copy of "
        f"FieldOps understands (it knows up to {head}). Install the newer FieldOps; "
        "the database was not changed."
    )


def _is_known(revision: str) -> bool:
    return revision in known_revisions()[0]


def _known(scripts: ScriptDirectory, revision: str) -> bool:
    try:
        return scripts.get_revision(revision) is not None
    except Exception:
        return False
