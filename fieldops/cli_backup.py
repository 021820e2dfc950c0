"""``fieldops backup [--to DIR]`` and ``fieldops restore FILE``.

Both are the administrator's (Permission.BACKUPS): the command acts as the staff
account its real login is mapped to, as every writing command does. ``restore``
checks that account in the database it is about to replace; when that database
is missing, too damaged to read, or at a schema this FieldOps cannot read (older,
or newer: going back to the copy taken before a newer FieldOps upgraded it), the
file system's own permissions decide (whoever may rename the file could replace
it anyway), and it says so. The replaced database is always kept aside.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from fieldops import cli_guard as guard
from fieldops.errors import UserError

if TYPE_CHECKING:
    from fieldops.services.context import Actor


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    backup = sub.add_parser(
        "backup",
        help="back the database up now (administrators)",
        description="Back the SQLite database up into its backup folder (kept in the "
        "rotation: 7 daily, 4 weekly, 12 monthly), or once into --to DIR.",
    )
    backup.add_argument(
        "--to", metavar="DIR", default=None, help="a folder for one copy, outside the rotation"
    )
    restore = sub.add_parser(
        "restore",
        help="replace the database with a backup (administrators)",
        description="Check a backup, then put it in place of the database; the "
        "database it replaces is kept aside and named.",
    )
    restore.add_argument("file", metavar="FILE", help="the backup to restore")


def _database_file(args: argparse.Namespace) -> Path:
    from fieldops.db.engine import resolve_url
    from fieldops.services.setup import sqlite_file

    path = sqlite_file(resolve_url(args.db))
    if path is None:
        raise UserError(
            "fieldops backup and restore work on a SQLite database file; a database "
            "server is backed up with its own tools (pg_dump)."
        )
    return path


def cmd_backup(args: argparse.Namespace) -> int:
    from fieldops.backups import refuse_if_damaged
    from fieldops.services.backups import back_up_now
    from fieldops.services.setup import command_line_actor, open_existing_database

    to = None
    if args.to is not None:
        to = guard.path_option("--to", args.to).absolute()
        if not to.is_dir():
            raise UserError(f"--to {args.to}: there is no such folder; create it first.")
    path = _database_file(args)
    if path.is_file():  # damage is said as such, with the backup to restore
        refuse_if_damaged(path)
    db = open_existing_database(args.db)
    try:
        made = back_up_now(db, command_line_actor(db), to)
    finally:
        db.dispose()
    where = "" if to is not None else " (in the rotation)"
    print(f"backed up {db.description} to {made.path}{where}, {made.size:,} bytes")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from fieldops.restore import check_backup, restore

    database = _database_file(args)
    source = guard.path_option("FILE", args.file).absolute()
    check_backup(source)  # a bad file is refused before anything else is looked at
    actor = _authorize(args, database) if database.exists() else None
    result = restore(database, source, by=actor)
    print(result.sentence())
    return 0


def _authorize(args: argparse.Namespace, database: Path) -> Actor | None:
    """The login's account must hold Permission.BACKUPS in the database being replaced;
    that account (None: the database could not be read to check it)."""
    from fieldops.db.migrate import NotFieldOpsError, SchemaTooNewError, SchemaTooOldError
    from fieldops.permissions import Permission, authorize
    from fieldops.services.setup import (
        NotADatabaseError,
        command_line_actor,
        open_existing_database,
    )

    try:
        db = open_existing_database(args.db)
    except (NotADatabaseError, NotFieldOpsError, SchemaTooOldError, SchemaTooNewError) as exc:
        guard.say(
            f"the current database cannot be read to check your account ({exc}); "
            "restoring on the strength of your permission to replace its file."
        )
        return None
    try:
        actor = command_line_actor(db)
        with db.read() as s:
            authorize(s, actor, Permission.BACKUPS)
    finally:
        db.dispose()
    return actor


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "backup": cmd_backup,
    "restore": cmd_restore,
}
