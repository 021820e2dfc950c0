"""Backups of a SQLite database: where they are kept, and which is newest.

Only the lookup lives here so far; making, rotating and restoring them follow.
"""

from __future__ import annotations

from pathlib import Path

BACKUP_FOLDER_NAME = "backups"


def default_backup_folder(database: Path) -> Path:
    """Where a database's backups go unless Administration names another folder."""
    return database.parent / BACKUP_FOLDER_NAME


def newest_backup(database: Path) -> Path | None:
    """The most recent backup of ``database`` in its default folder, or None."""
    folder = default_backup_folder(database)
    try:
        found = sorted(folder.glob(f"{database.stem}-*.db"), key=lambda p: p.stat().st_mtime)
    except OSError:
        return None
    return found[-1] if found else None
