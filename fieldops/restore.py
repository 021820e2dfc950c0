"""Putting a backup back in place of a SQLite database, checked before anything is replaced.

In order, and the current database is untouched until the last step:

1. The backup is read only through SQLite, read-only: it must be a FieldOps database
   that passes ``PRAGMA integrity_check`` and ``foreign_key_check``, at a schema this
   FieldOps knows. A damaged file, another program's database or a NEWER schema is
   refused in words. An OLDER schema is restored and upgraded (a restore is most
   often of an old copy, and the upgrade is the one the window makes at start-up).
2. It is copied (online backup API) into a hidden file beside the database, 0600
   from the first byte; that private copy is upgraded when it is older, and its audit
   trail is verified there (the append-only triggers and the whole hash chain,
   fieldops.services.audit_verify): a broken trail refuses the restore.
3. The current database must not be open anywhere: switching it out of WAL mode
   (which SQLite allows only to its one connection) and then taking an EXCLUSIVE
   lock both fail while any other connection, in any process, has it open or holds
   its write lock; then it is refused as "in use", with nothing changed. The window
   closes its own connections first.
4. Holding that lock, the current database is renamed aside
   (``<stem>-before-restore-<UTC stamp>Z.db``, 0600, named in the result) and the
   checked copy renamed into its place; the folder is flushed.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fieldops import failures
from fieldops.backups import open_source, source_problems
from fieldops.errors import UserError
from fieldops.files import read_only_uri, sync_folder


class RestoreRefusedError(UserError):
    """The backup cannot be restored (damaged, not FieldOps, newer); nothing was changed."""

    code = "restore_refused"


class DatabaseInUseError(RestoreRefusedError):
    """Another connection has the database open, so it cannot be replaced."""

    code = "database_in_use"
    failure_kind = failures.LOCKED  # another program holds it, as for a held lock


@dataclass(frozen=True)
class RestoreResult:
    database: Path
    source: Path
    kept_aside: Path | None  # the database that was replaced; None when there was none
    revision_of_backup: str
    revision: str  # the schema it is at now

    @property
    def upgraded(self) -> bool:
        return self.revision != self.revision_of_backup

    def sentence(self) -> str:
        upgraded = (
            f", upgraded from schema {self.revision_of_backup} to {self.revision}"
            if self.upgraded
            else ""
        )
        aside = (
            f"; the database it replaced was kept as {self.kept_aside}"
            if self.kept_aside is not None
            else ""
        )
        return (
            f"restored {self.database} from {self.source}{upgraded} "
            f"(its audit trail verified){aside}."
        )


def check_backup(backup: Path) -> str:
    """The schema revision of a backup that may be restored; refused in words otherwise."""
    from fieldops.db.migrate import _known, head_revision, script_directory

    if not backup.is_file():
        raise RestoreRefusedError(f"There is no backup file at {backup}; nothing was changed.")
    try:
        con = sqlite3.connect(read_only_uri(backup), uri=True)
        try:
            problems = source_problems(con)
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
            row = (
                con.execute("SELECT version_num FROM alembic_version").fetchone()
                if "alembic_version" in tables
                else None
            )
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise RestoreRefusedError(
            f"{backup} is not a database FieldOps can restore ({exc}); nothing was changed."
        ) from None
    if problems:
        raise RestoreRefusedError(
            f"{backup} is damaged ({'; '.join(problems[:3])}); it was not restored and "
            "nothing was changed. Choose an older backup."
        )
    if row is None:
        raise RestoreRefusedError(
            f"{backup} is not a FieldOps backup (it has no FieldOps schema version); "
            "nothing was changed."
        )
    revision = str(row[0])
    if not _known(script_directory(), revision):
        raise RestoreRefusedError(
            f"{backup} was made by a newer FieldOps (schema {revision}; this one knows up "
            f"to {head_revision()}); install the newer FieldOps to restore it. "
            "Nothing was changed."
        )
    return revision


def restore(database: Path, backup: Path, *, now: datetime | None = None) -> RestoreResult:
    """Replace ``database`` with ``backup`` as the module's docstring says; the result."""
    database, backup = database.absolute(), backup.absolute()
    if database.exists() and backup.exists() and os.path.samefile(database, backup):
        raise RestoreRefusedError(f"{backup} is the database itself; choose a backup file.")
    revision = check_backup(backup)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%S")
    temp = database.with_name(f".{database.name}.restore-{os.getpid()}.part")
    _remove_with_journals(temp)
    try:
        fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
    except OSError as exc:
        raise RestoreRefusedError(
            f"Nothing could be written in {database.parent} ({exc.strerror or exc}); "
            "nothing was changed."
        ) from None
    try:
        _copy(backup, temp)
        now_at = _upgrade_and_verify(temp, backup)
        aside = _swap(database, temp, stamp)
    except BaseException:
        _remove_with_journals(temp)
        raise
    return RestoreResult(database, backup, aside, revision, now_at)


def _copy(backup: Path, temp: Path) -> None:
    src = sqlite3.connect(read_only_uri(backup), uri=True)
    try:
        dst = sqlite3.connect(temp)
        try:
            dst.execute("PRAGMA journal_mode=OFF")
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    fd = os.open(temp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _upgrade_and_verify(temp: Path, backup: Path) -> str:
    from fieldops.db.engine import Database
    from fieldops.db.migrate import current_revision, upgrade
    from fieldops.services.audit_verify import chain_problems, trigger_problems

    db = Database(f"sqlite:///{temp}")
    try:
        upgrade(db.engine, db.url, backup_first=False)  # the backup itself is the copy
        with db.engine.connect() as conn:
            problems = trigger_problems(conn) + chain_problems(conn)
        revision = current_revision(db.engine)
    finally:
        db.dispose()
    if problems:
        raise RestoreRefusedError(
            f"{backup} was not restored: {problems[0]}. Nothing was changed; choose another backup."
        )
    assert revision is not None
    return revision


def _swap(database: Path, temp: Path, stamp: str) -> Path | None:
    if not database.exists():
        os.replace(temp, database)
        sync_folder(database.parent)
        return None
    aside = database.with_name(f"{database.stem}-before-restore-{stamp}Z{database.suffix}")
    con = _exclusive(database)
    try:
        os.replace(database, aside)
        try:
            os.replace(temp, database)
        except BaseException:
            os.replace(aside, database)
            raise
        os.chmod(aside, 0o600)
        sync_folder(database.parent)
    finally:
        with contextlib.suppress(sqlite3.Error):
            con.rollback()
        con.close()
    return aside


def _exclusive(database: Path) -> sqlite3.Connection:
    """The database's only connection, holding its exclusive lock; refused while in use."""
    in_use = DatabaseInUseError(
        f"{database} is open in FieldOps or another program (or someone is saving to it); "
        "close every FieldOps window and command that uses it, then restore again. "
        "Nothing was changed."
    )
    con = open_source(database)
    con.isolation_level = None
    try:
        con.execute("PRAGMA busy_timeout=0")
        mode = con.execute("PRAGMA journal_mode=DELETE").fetchone()
        if mode is None or str(mode[0]).lower() != "delete":
            raise in_use
        con.execute("BEGIN EXCLUSIVE")
    except sqlite3.OperationalError:
        con.close()
        raise in_use from None
    except BaseException:
        con.close()
        raise
    return con


def _remove_with_journals(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()
