"""The one map from a failure to what a person is told: what happened, and what to do.

Both front ends use it: the command line says ``Failure.line()`` and exits with
``Failure.exit_code`` (fieldops/cli_guard.py), the window shows ``message`` and
``what_to_do`` in a dialog and keeps the form open (ui/errors.py). Nothing here
imports Qt, and SQLAlchemy only when an exception is looked at.

Environment failures are recognised by what the system says, never by the
wording of a message: SQLite's result code (``sqlite_errorcode``), PostgreSQL's
SQLSTATE, and ``errno``. Where the same code has several causes (SQLite's
"unable to open database file" is a missing folder, a file one may not read, or
a folder or filesystem it cannot write its journal in), the database's path
says which.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from fieldops.errors import UserError

# The kinds, each with its own exit status (README, "Exit codes").
USER = "user"
NOT_A_DATABASE = "not_a_database"
DAMAGED = "damaged"
LOCKED = "locked"
READ_ONLY = "read_only"
DISK_FULL = "disk_full"
PERMISSION = "permission"
MISSING = "missing"
TOO_NEW = "schema_too_new"
TOO_OLD = "schema_too_old"
UNAVAILABLE = "unavailable"
NETWORK_SHARE = "network_share"
BUG = "bug"

EXIT_CODES: dict[str, int] = {
    USER: 1,
    NOT_A_DATABASE: 10,
    DAMAGED: 11,
    LOCKED: 12,
    READ_ONLY: 13,
    DISK_FULL: 14,
    PERMISSION: 15,
    MISSING: 16,
    TOO_NEW: 17,
    TOO_OLD: 18,
    UNAVAILABLE: 19,
    NETWORK_SHARE: 20,
    BUG: 70,  # EX_SOFTWARE (sysexits.h)
}
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE

ENVIRONMENT_KINDS = frozenset(EXIT_CODES) - {USER, BUG}


@dataclass(frozen=True)
class Failure:
    kind: str
    message: str  # what happened, in a sentence
    what_to_do: str = ""  # the next step, in a sentence ("" for a user error: it says)
    exit_code: int = 1

    def line(self) -> str:
        """The failure in one line, for the command line."""
        return " ".join(p for p in (self.message, self.what_to_do) if p)

    @property
    def environment(self) -> bool:
        return self.kind in ENVIRONMENT_KINDS


def failure(kind: str, message: str, what_to_do: str = "") -> Failure:
    return Failure(kind, message, what_to_do, EXIT_CODES[kind])


class FailureError(UserError):
    """A failure already described (``fieldops check`` finding damage, a refused start)."""

    def __init__(self, described: Failure) -> None:
        self.failure = described
        super().__init__(described.line())


class DamagedDatabaseError(FailureError):
    """SQLite's own check found the database file damaged."""


# SQLite's primary result codes (https://sqlite.org/rescode.html).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 11, 13, 14
_SQLITE_NOTADB, _SQLITE_AUTH = 26, 23

# PostgreSQL's SQLSTATE codes (Appendix A of its manual).
_PG_KINDS = {
    "53100": DISK_FULL,
    "55P03": LOCKED,  # lock_not_available
    "57014": LOCKED,  # query_canceled: the lock or statement timeout
    "40P01": LOCKED,  # deadlock_detected
    "42501": PERMISSION,
    "28000": PERMISSION,  # invalid authorization
    "28P01": PERMISSION,  # invalid password
    "25006": READ_ONLY,  # read_only_sql_transaction (a standby)
    "XX001": DAMAGED,
    "XX002": DAMAGED,
    "3D000": MISSING,  # the database does not exist on the server
}


def describe(exc: BaseException, database: str | Path | None = None) -> Failure:
    """What to tell a person about ``exc``; ``database`` is the SQLite file in use, if any.

    A ``UserError`` is its own message; an environment failure gets a kind, a
    message and what to do; anything else is a bug (the caller words that, with
    where the details went).
    """
    if isinstance(exc, FailureError):
        return exc.failure
    path = _database_path(database)
    kind = _schema_kind(exc)
    if kind is not None:  # these messages already say what to do
        return failure(kind, str(exc))
    if isinstance(exc, UserError):
        return failure(USER, str(exc))
    kind = environment_kind(exc, path)
    if kind is None:
        return failure(BUG, f"{type(exc).__name__}: {exc}")
    if kind == DAMAGED and path is not None:
        return damage_failure(path, _system_words(exc))
    return failure(kind, _what_happened(kind, exc, path), _WHAT_TO_DO[kind])


def _schema_kind(exc: BaseException) -> str | None:
    from fieldops.db.migrate import NotFieldOpsError, SchemaTooNewError, SchemaTooOldError

    if isinstance(exc, SchemaTooNewError):
        return TOO_NEW
    if isinstance(exc, SchemaTooOldError):
        return TOO_OLD
    if isinstance(exc, NotFieldOpsError):
        return NOT_A_DATABASE
    kind = getattr(exc, "failure_kind", None)  # set by the refusals that know their kind
    return kind if kind in EXIT_CODES else None


def environment_kind(exc: BaseException, database: Path | None = None) -> str | None:
    """The kind of an environment failure; None when ``exc`` is not one (a bug)."""
    orig = getattr(exc, "orig", None)  # SQLAlchemy wraps the driver's exception
    if orig is not None and isinstance(orig, BaseException):
        inner = environment_kind(orig, database)
        if inner is not None:
            return inner
        return _sqlalchemy_kind(exc)
    if isinstance(exc, sqlite3.Error):
        return _sqlite_kind(exc, database)
    sqlstate = getattr(exc, "sqlstate", None)
    if isinstance(sqlstate, str):
        if sqlstate in _PG_KINDS:
            return _PG_KINDS[sqlstate]
        if sqlstate.startswith("08"):  # connection exception
            return UNAVAILABLE
        return None
    if isinstance(exc, OSError):
        return _errno_kind(exc)
    return None


def _sqlalchemy_kind(exc: BaseException) -> str | None:
    from sqlalchemy.exc import DBAPIError, OperationalError

    if isinstance(exc, OperationalError) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    ):
        return UNAVAILABLE  # a server gone away, a network error
    return None


def _sqlite_kind(exc: sqlite3.Error, database: Path | None) -> str | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return None
    primary = code & 0xFF
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return LOCKED
    if primary == _SQLITE_CORRUPT:
        return DAMAGED
    if primary == _SQLITE_NOTADB:
        return NOT_A_DATABASE
    if primary == _SQLITE_FULL:
        return DISK_FULL
    if primary in (_SQLITE_PERM, _SQLITE_AUTH):
        return PERMISSION
    if primary == _SQLITE_READONLY:
        return READ_ONLY
    if primary in (_SQLITE_CANTOPEN, _SQLITE_IOERR):
        return _path_kind(database) or UNAVAILABLE
    if isinstance(exc, sqlite3.OperationalError):
        return UNAVAILABLE
    return None  # IntegrityError, ProgrammingError...: bugs


def _errno_kind(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return DISK_FULL
    if exc.errno == errno.EROFS:
        return READ_ONLY
    if exc.errno in (errno.EACCES, errno.EPERM):
        return PERMISSION
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return MISSING
    return UNAVAILABLE


def _path_kind(database: Path | None) -> str | None:
    """Why SQLite could not open or write ``database``, told by the file system."""
    if database is None:
        return None
    folder = database.parent
    if not folder.is_dir():
        return MISSING
    if _read_only_filesystem(folder):
        return READ_ONLY
    if database.exists() and not os.access(database, os.R_OK):
        return PERMISSION
    if not os.access(folder, os.W_OK | os.X_OK):
        return READ_ONLY  # SQLite writes its journal beside the file, even to read
    if database.exists() and not os.access(database, os.W_OK):
        return READ_ONLY
    return None


def _read_only_filesystem(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs on Windows
        return False


def read_only_reason(database: Path) -> str | None:
    """Why FieldOps cannot write ``database`` (file, folder or filesystem); None if it can."""
    folder = database.parent
    if _read_only_filesystem(folder):
        return f"the disk or share holding {folder} is mounted read-only"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"you may not write in the folder {folder}, and SQLite keeps its journal "
            "beside the database"
        )
    if database.exists() and not os.access(database, os.W_OK):
        return f"the file {database} is read-only for you"
    return None


def _database_path(database: str | Path | None) -> Path | None:
    if database is None:
        return None
    if isinstance(database, Path):
        return database
    if "://" not in database:
        return Path(database).expanduser().absolute()
    from fieldops.db.engine import sqlite_file

    try:
        return sqlite_file(database)
    except Exception:  # an unparseable URL: nothing to say about a file
        return None


def _what_happened(kind: str, exc: BaseException, path: Path | None) -> str:
    where = f"the database {path}" if path is not None else "the database"
    system = _system_words(exc)
    if kind == READ_ONLY:
        reason = read_only_reason(path) if path is not None else None
        return f"{where} cannot be changed: {reason or system}."
    if kind == MISSING and path is not None and not path.parent.is_dir():
        return f"the folder {path.parent} does not exist ({system})."
    return f"{_HAPPENED[kind].format(where=where)} ({system})."


def _system_words(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    inner = getattr(exc, "orig", None) or exc
    text = str(inner).strip()
    return text.splitlines()[0] if text else type(inner).__name__


_HAPPENED = {
    NOT_A_DATABASE: "{where} is not a FieldOps database",
    DAMAGED: "{where} is damaged",
    LOCKED: "{where} stayed busy: another workstation or program held it "
    "for longer than FieldOps waits",
    READ_ONLY: "{where} cannot be changed",
    DISK_FULL: "the disk is full, so nothing was saved",
    PERMISSION: "you may not use {where} or a file it needs",
    MISSING: "a file or folder FieldOps needs does not exist",
    UNAVAILABLE: "{where} or a file it needs could not be reached",
}

_WHAT_TO_DO = {
    NOT_A_DATABASE: "Check that --db (or FIELDOPS_DATABASE_URL) names a FieldOps "
    "database; nothing was changed.",
    DAMAGED: "Stop using it: restore the newest backup (fieldops check names it) "
    "and keep the damaged file for support; nothing was changed.",
    LOCKED: "Nothing was saved. Wait a moment and try again; if it keeps "
    "happening, close FieldOps on the other workstations.",
    READ_ONLY: "Nothing was changed. Ask whoever manages this computer to make it "
    "writable for you, or copy the database to a folder you may write in.",
    DISK_FULL: "Free some space on the disk (or ask whoever manages it), then try "
    "again; what you typed is still there.",
    PERMISSION: "Nothing was changed. Ask whoever manages this computer for access, "
    "or sign in to the computer as the person the database belongs to.",
    MISSING: "Check the path (--db or FIELDOPS_DATABASE_URL) for a typo; nothing was created.",
    UNAVAILABLE: "Check that the database's disk, share or server is reachable, then try again.",
}


def writing_failure(what: str, exc: OSError) -> Failure:
    """A file other than the database could not be written (``what`` names it)."""
    kind = _errno_kind(exc)
    words = _system_words(exc)
    to_do = {
        DISK_FULL: "Free some space on that disk, or choose another place, then try again.",
        READ_ONLY: "Choose a folder you may write in.",
        PERMISSION: "Choose a folder you may write in.",
        MISSING: "Choose a folder that exists.",
    }.get(kind, "Check the disk or share, then try again.")
    return failure(kind, f"{what}: nothing was written ({words}).", to_do)


def damage_failure(database: Path, detail: str) -> Failure:
    """The database file is damaged: say so, and which backup to restore."""
    from fieldops.backups import default_backup_folder, newest_backup

    backup = newest_backup(database)
    if backup is not None:
        to_do = (
            f"Stop using it: restore the newest backup, {backup} (fieldops restore "
            f"{backup}), and keep the damaged file for support. Nothing was changed."
        )
    else:
        to_do = (
            f"Stop using it: no backup of it was found in {default_backup_folder(database)}; "
            "keep the damaged file as it is and call support. Nothing was changed."
        )
    return failure(DAMAGED, f"the database {database} is damaged ({detail}).", to_do)
