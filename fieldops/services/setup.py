"""Opening a database for use: resolve, migrate, and know who is acting.

Two ways in. ``open_database`` is for whoever may change the database (the
window, ``fieldops demo``, ``fieldops staff``; the command line acts as the staff
account its real login is mapped to, ``command_line_actor``): it creates a missing one and
upgrades an older one. ``open_existing_database`` is for the commands that only
read (``check``, ``due``, ``report``): it opens a FieldOps database at the
current schema as it is, and refuses anything else in words, creating nothing.
Both refuse a file that is not a FieldOps database before SQLite writes to it,
and a SQLite file on a network share before SQLite opens it (fieldops/db/placement.py).
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from fieldops import failures
from fieldops.db.engine import ENV_URL, Database, describe_url, resolve_url
from fieldops.db.migrate import (
    NotFieldOpsError,
    UpgradeResult,
    current_revision,
    require_head,
    upgrade,
)
from fieldops.db.placement import refuse_network_share
from fieldops.errors import UserError
from fieldops.files import read_only_uri
from fieldops.services.context import Actor, os_username


class DatabaseNotFoundError(UserError):
    """A command that only reads was pointed at a database that does not exist."""

    failure_kind = failures.MISSING


class NotADatabaseError(UserError):
    """The path names a folder, a device, or a file that is not a database."""

    failure_kind = failures.NOT_A_DATABASE


@dataclass(frozen=True)
class OpenedDatabase:
    db: Database
    upgrade: UpgradeResult
    created: bool = False  # there was no database file before this opening
    backup_problem: str = ""  # why the day's first backup could not be made, if it could not
    backup_due: Path | None = None  # the file whose daily backup was left to the caller


def open_database(
    db_arg: str | None = None, *, named_by_user: bool = False, daily_backup: bool = True
) -> OpenedDatabase:
    """Open (creating on first use) and upgrade the database; SchemaTooNewError if it is newer.

    A file that is not a database, or a SQLite database some other program made, is
    refused (``NotADatabaseError``, ``NotFieldOpsError``) without being changed; so are
    a damaged file (``PRAGMA quick_check``) and one this process could not write. An
    existing SQLite file gets the day's first backup (fieldops.backups); with
    ``daily_backup=False`` (the window, which makes it after its first paint) it is
    left to the caller, named in ``backup_due`` (``take_daily_backup``).
    ``named_by_user`` (the window and the commands): a ``--db`` or
    ``FIELDOPS_DATABASE_URL`` in a folder that does not exist, or through a dangling
    link, is refused rather than created; the default database is made with its folder.
    """
    url = resolve_url(db_arg)
    path = sqlite_file(url)
    created = False
    if path is not None:
        refuse_network_share(path)  # SQLite's locks do not hold over NFS/SMB
        if named_by_user and (db_arg is not None or os.environ.get(ENV_URL)):
            refuse_missing_place(path, db_arg)  # the default one is made on first run
        state = inspect_sqlite_file(path)
        refuse_read_only(path)
        if state.exists:
            from fieldops.check import refuse_damaged

            refuse_damaged(path, read_only_uri(path))  # quick_check, before any write
        refuse_foreign(state, path)
        created = not state.exists
    db = Database(url)
    try:
        result = upgrade(db.engine, url)
        due = path if path is not None and not created else None
        problem = take_daily_backup(due) if due is not None and daily_backup else ""
    except Exception:
        db.dispose()
        raise
    return OpenedDatabase(db, result, created, problem, None if daily_backup else due)


def take_daily_backup(path: Path) -> str:
    """The day's first backup (fieldops.backups); why it failed, or "".

    A damaged database raises ``DamagedDatabaseError``: nobody works on it. A backup
    that cannot be written (a full disk, a folder gone) does not stop the day's work;
    the caller says why.
    """
    from fieldops.backups import BackupError, DamagedDatabaseError, daily_backup

    try:
        daily_backup(path)
    except DamagedDatabaseError:
        raise
    except BackupError as exc:
        return str(exc)
    return ""


def refuse_foreign(state: SqliteFileState, path: Path) -> None:
    """Refuse another program's SQLite database (tables, but no FieldOps schema version),
    in the same words wherever it is opened; nothing is changed."""
    if state.tables and state.revision is None:
        raise NotFieldOpsError(
            f"{path} is a SQLite database, but not one FieldOps made (it has no FieldOps "
            "schema version); FieldOps will not add its tables to it. Nothing was changed."
        )


def open_existing_database(db_arg: str | None = None) -> Database:
    """Open a FieldOps database at the current schema without changing it or signing in.

    For the commands that only read. Refuses, with a message naming the database and
    creating nothing: a missing file (``DatabaseNotFoundError``), something that is not
    a FieldOps database (``NotADatabaseError``, ``NotFieldOpsError``), an older schema
    (``SchemaTooOldError``: the window upgrades it) or a newer one (``SchemaTooNewError``).
    """
    url = resolve_url(db_arg)
    path = sqlite_file(url)
    if path is not None:
        refuse_network_share(path)
        state = inspect_sqlite_file(path)
        if not state.exists:
            raise DatabaseNotFoundError(
                f"There is no database at {path}; check --db (or FIELDOPS_DATABASE_URL). "
                "Nothing was created."
            )
        refuse_foreign(state, path)
        require_head(state.revision, str(path))
        if failures.read_only_reason(path) is not None:
            # A file (folder, file system) we may not write: read it as SQLite's read-only
            # URI, which leaves no -wal or -shm beside it.
            return Database(f"sqlite:///{read_only_uri(path)}&uri=true")
        return Database(url)
    db = Database(url)  # a server: Database() creates nothing there
    try:
        require_head(current_revision(db.engine), describe_url(url))
    except BaseException:
        db.dispose()
        raise
    return db


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names; None for a server or an in-memory database."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    if u.database.startswith("file:"):  # a SQLite URI: leave it to SQLite
        return None
    return Path(u.database)


@dataclass(frozen=True)
class SqliteFileState:
    exists: bool
    tables: tuple[str, ...] = ()
    revision: str | None = None


def inspect_sqlite_file(path: Path) -> SqliteFileState:
    """What is at ``path``, read without writing a byte or leaving a file behind.

    Raises ``NotADatabaseError`` for a folder, a device, a file SQLite cannot read
    as a database, or a damaged one.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return SqliteFileState(exists=False)
    except NotADirectoryError:
        raise NotADatabaseError(
            f"{path} cannot be a database: part of its folder path is a file."
        ) from None
    if stat.S_ISDIR(mode):
        raise NotADatabaseError(f"{path} is a folder, not a database file.")
    if not stat.S_ISREG(mode):
        raise NotADatabaseError(f"{path} is not a regular file, so not a database.")
    try:
        con = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            tables = tuple(
                r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            )
            revision = None
            if "alembic_version" in tables:
                row = con.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = row[0] if row else None
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:  # "file is not a database", "... malformed"
        if failures.environment_kind(exc, path) not in (None, failures.NOT_A_DATABASE):
            # damaged, or a file one may not read: said as such, not as "not a database"
            raise failures.FailureError(failures.describe(exc, path)) from None
        raise NotADatabaseError(
            f"{path} is not a FieldOps database, or it is damaged ({exc}); nothing was changed."
        ) from None
    return SqliteFileState(exists=True, tables=tables, revision=revision)


def refuse_missing_place(path: Path, named: str | None) -> None:
    """Refuse a database named in a folder that does not exist, or through a dangling link.

    A typo in ``--db`` would otherwise become a new, empty database (and its first
    administrator); only the default database in the user's data folder is made
    with its folder. Nothing is created either way.
    """
    shown = named or str(path)
    link = Path(os.path.expanduser(named)) if named and "://" not in named else path
    if link.is_symlink() and not link.exists():
        raise failures.FailureError(
            failures.failure(
                failures.MISSING,
                f"{shown} is a link to {os.readlink(link)}, which does not exist.",
                "Check --db, or restore the file the link points to; nothing was created.",
            )
        )
    if not path.parent.is_dir():
        raise failures.FailureError(
            failures.failure(
                failures.MISSING,
                f"the folder {path.parent} (for the database {shown}) does not exist.",
                "Check --db for a typo, or create the folder first; nothing was created.",
            )
        )


def refuse_read_only(path: Path) -> None:
    """Refuse, before anything is written, a database this process could not save to."""
    if not path.parent.is_dir():
        return  # the default database's folder, made on first run
    reason = failures.read_only_reason(path)
    if reason is not None:
        raise failures.FailureError(
            failures.failure(
                failures.READ_ONLY,
                f"the database {path} cannot be changed: {reason}.",
                "Ask whoever manages this computer to make it writable for you, or copy "
                "the database to a folder you may write in; nothing was changed.",
            )
        )


class UnmappedLoginError(UserError):
    """The operating-system login running a command is mapped to no staff account."""


def command_line_actor(db: Database) -> Actor:
    """The staff account the process's real login is mapped to; refused when there is none.

    The login comes from the real user id (``os_username``), never from ``LOGNAME``
    or ``USER``, which anyone can set.
    """
    from fieldops.services.staff import actor_for_os_user

    login = os_username()
    actor = actor_for_os_user(db, login)
    if actor is None:
        raise UnmappedLoginError(
            f"the computer login {login!r} is not mapped to an active FieldOps staff account, "
            "so it may not change this database; an administrator maps it with "
            f"'fieldops staff ACCOUNT --role ROLE --os-user {login}'."
        )
    return actor
