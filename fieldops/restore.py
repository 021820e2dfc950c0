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
   (``<stem>-before-restore-<UTC stamp>Z.db``, 0600, named in the result; a name
   already taken, by a restore in the same second, gets ``-2``, ``-3``...: a kept copy
   is never overwritten) and the checked copy renamed into its place; the folder is
   flushed.

Before the swap, the checked copy's own audit trail gets a ``restore`` event (through
``audit()``, so the chain ``fieldops check`` verifies goes on): who restored, the
backup's name, path and SHA-256, its schema, and where the replaced database was kept.
The restored trail so says that every record made after the backup was set aside.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fieldops import failures
from fieldops.backups import open_source, source_problems
from fieldops.errors import UserError
from fieldops.files import read_only_uri, sync_folder
from fieldops.services.context import Actor, audit, os_username


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

    try:
        found = backup.is_file()
    except OSError as exc:  # a name too long, a folder that may not be searched...
        raise RestoreRefusedError(
            f"{backup} cannot be looked at ({exc.strerror or exc}); nothing was changed."
        ) from None
    if not found:
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


def restore(
    database: Path, backup: Path, *, now: datetime | None = None, by: Actor | None = None
) -> RestoreResult:
    """Replace ``database`` with ``backup`` as the module's docstring says; the result.

    ``by``: the staff account restoring, recorded in the restored trail; None when it
    could not be checked (the computer login alone is recorded then, as it always is).
    """
    database, backup = database.absolute(), backup.absolute()
    with contextlib.suppress(OSError):  # either missing (or unreadable): not the same file
        if os.path.samefile(database, backup):
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
    aside: Path | None = None
    try:
        _copy(backup, temp)
        now_at = _upgrade_and_verify(temp, backup)
        if database.exists():
            aside = _reserve_aside(database, stamp)
        _record_restore(temp, backup, revision, aside, by)
        _swap(database, temp, aside)
    except BaseException:
        _remove_with_journals(temp)
        if aside is not None:
            _remove_placeholder(aside)
        raise
    return RestoreResult(database, backup, aside, revision, now_at)


def _reserve_aside(database: Path, stamp: str) -> Path:
    """A name for the replaced database that no file has, taken (O_EXCL) so that no
    other restore takes it: an empty 0600 placeholder the swap renames the database onto."""
    base = f"{database.stem}-before-restore-{stamp}Z"
    for n in range(1, 1000):
        aside = database.with_name(f"{base}{'' if n == 1 else f'-{n}'}{database.suffix}")
        try:
            fd = os.open(aside, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise RestoreRefusedError(
                f"Nothing could be written in {database.parent} ({exc.strerror or exc}); "
                "nothing was changed."
            ) from None
        os.close(fd)
        return aside
    raise RestoreRefusedError(
        f"{database.parent} already holds 999 databases set aside by restores at {stamp}Z; "
        "nothing was changed. Move some of them elsewhere and restore again."
    )


def _remove_placeholder(aside: Path) -> None:
    """The reserved name, while it is still the empty placeholder (never a kept database)."""
    with contextlib.suppress(OSError):
        if aside.stat().st_size == 0:
            aside.unlink()


def _shown(path: Path) -> str:
    """A path as text the audit trail can hold (a name that is not UTF-8 keeps its bytes
    as replacement characters rather than refusing the restore)."""
    return os.fsencode(path).decode("utf-8", "replace")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _record_restore(
    temp: Path, backup: Path, revision: str, aside: Path | None, by: Actor | None
) -> None:
    """The restore's event, appended to the checked copy's trail before it goes live."""
    from fieldops.db.engine import Database

    login = os_username()
    db = Database(f"sqlite:///{temp}")
    try:
        with db.write() as s:
            audit(
                s,
                by or Actor(login, role="", full_name=""),
                "restore",  # a literal, for the history's scan (services/history.py)
                "database",
                0,
                after={
                    "backup": _shown(Path(backup.name)),
                    "backup_path": _shown(backup),
                    "backup_sha256": _sha256(backup),
                    "backup_schema": revision,
                    "kept_aside": None if aside is None else _shown(aside),
                    "os_user": login,
                    "account_checked": by is not None,
                },
                reason="database restored from a backup",
            )
    finally:
        db.dispose()


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


def _swap(database: Path, temp: Path, aside: Path | None) -> None:
    if aside is None:
        os.replace(temp, database)
        sync_folder(database.parent)
        return
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
