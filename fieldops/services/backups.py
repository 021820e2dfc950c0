"""Backups as the administrator's actions: where they go, making one, restoring one.

The work itself is in fieldops.backups and fieldops.restore (SQLite files, no
session); these are the permission-checked verbs the window and the command line
call. The backup folder is an app setting, changed in an audited unit of work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from fieldops import backups
from fieldops.backups import FOLDER_SETTING_KEY, BackupFile
from fieldops.db.engine import Database, sqlite_file
from fieldops.db.models import AppSetting
from fieldops.errors import UserError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.restore import RestoreResult, restore
from fieldops.services.context import Actor, audit


class NotSqliteError(UserError):
    """Backups here are of a SQLite file; a server database has its own tools."""


@dataclass(frozen=True)
class BackupStatus:
    folder: Path
    is_default_folder: bool
    last: BackupFile | None  # the newest backup (any kind), or None


def _database_file(db: Database) -> Path:
    path = sqlite_file(db.url)
    if path is None:
        raise NotSqliteError(
            "FieldOps backs up a SQLite database file; this one is on a database server, "
            "which its own backup tools (pg_dump) back up."
        )
    return path


def backup_status(db: Database) -> BackupStatus:
    """Where backups go and the newest one, for Administration to show."""
    path = _database_file(db)
    configured = backups.configured_backup_folder(path)
    found = backups.all_backups(path)
    folder = configured or backups.default_backup_folder(path)
    return BackupStatus(folder, configured is None, found[-1] if found else None)


@requires(Permission.BACKUPS)
def back_up_now(db: Database, actor: Actor, to: Path | None = None) -> BackupFile:
    """Back the database up: into its folder (and rotate), or once into ``to``."""
    return backups.make_backup(_database_file(db), to=to)


@requires(Permission.BACKUPS)
def set_backup_folder(db: Database, actor: Actor, folder: str | None) -> Path:
    """Set the folder backups go to (None or "": the default one); the folder in force."""
    path = _database_file(db)
    text = (folder or "").strip()
    chosen = Path(text).expanduser() if text else None
    if chosen is not None:
        if "\x00" in text or len(text) > 500:
            raise ValidationError({"folder": "is not a folder's name"})
        if not chosen.is_absolute():
            raise ValidationError({"folder": "give the whole path of the folder"})
        if not chosen.is_dir():
            raise ValidationError({"folder": f"{chosen} does not exist or is not a folder"})
        if not os.access(chosen, os.W_OK | os.X_OK):
            raise ValidationError({"folder": f"you may not write in {chosen}"})
        if chosen.resolve() == path.parent.resolve():
            raise ValidationError(
                {"folder": "the database's own folder holds its live files; choose another"}
            )
    value = str(chosen) if chosen is not None else ""
    with db.write() as s:
        row = s.get(AppSetting, FOLDER_SETTING_KEY)
        before = None if row is None else {FOLDER_SETTING_KEY: row.value}
        if (row.value if row is not None else "") != value:
            if row is None:
                row = AppSetting(key=FOLDER_SETTING_KEY, value="")
                s.add(row)
            row.value = value
            audit(
                s,
                actor,
                "update",
                "app_setting",
                0,
                before=before,
                after={FOLDER_SETTING_KEY: value},
            )
    return chosen or backups.default_backup_folder(path)


@requires(Permission.BACKUPS)
def restore_database(db: Database, actor: Actor, backup: Path) -> RestoreResult:
    """Replace the database with ``backup``; ``db`` is closed first and must not be used after.

    The caller (the window) starts again on the restored database: every page,
    and the signed-in account, belonged to the one that was replaced. The restored
    trail records ``actor`` as who restored it (fieldops.restore).
    """
    if not isinstance(backup, Path):
        raise ValidationError({"backup": "choose a backup file"})
    path = _database_file(db)
    db.dispose()  # this process's own connections would make the database "in use"
    return restore(path, backup, by=actor)
