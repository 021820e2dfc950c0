"""``fieldops migrate-to URL``: copy this SQLite database into an empty PostgreSQL one.

The administrator's command (it acts as the account the computer login is mapped
to, as every writing command does). The copy and its checks are
fieldops/migrate_to.py; this module reads the options, opens the source without
upgrading or creating anything, and says what was done and what to do next.
Nothing heavy is imported until the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

EPILOG = """\
The target must be an empty PostgreSQL database, e.g. one made with
'createdb -O fieldops fieldops'. Close FieldOps on every workstation first.
Leave the password out of the URL: the PostgreSQL client reads it from
PGPASSWORD or ~/.pgpass. Afterwards set FIELDOPS_DATABASE_URL (or --db) to the
URL on each workstation and stop using the SQLite file."""


def add_parser(sub: Any) -> None:
    """Register ``migrate-to`` on the ``fieldops`` command's subparsers."""
    p = sub.add_parser(
        "migrate-to",
        help="copy this SQLite database into an empty PostgreSQL database (administrators)",
        description="Copy every record of the SQLite database (--db, or the default one) "
        "into an empty PostgreSQL database, then check that every table's rows and the "
        "audit trail arrived whole. On any failure the PostgreSQL database is left empty.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("url", metavar="URL", help="postgresql+psycopg://USER@SERVER/DATABASE")


def cmd_migrate_to(args: argparse.Namespace) -> int:
    from fieldops.db.engine import Database, resolve_url
    from fieldops.db.migrate import require_head
    from fieldops.errors import UserError
    from fieldops.migrate_to import check_target_url, migrate_to
    from fieldops.services.setup import (
        command_line_actor,
        inspect_sqlite_file,
        refuse_foreign,
        sqlite_file,
    )

    check_target_url(args.url)  # a mistyped URL is refused before the source is opened
    url = resolve_url(args.db)
    path = sqlite_file(url)
    if path is None:
        raise UserError(
            "migrate-to copies a SQLite database file, and --db (or FIELDOPS_DATABASE_URL) "
            "names a server database; nothing was copied."
        )
    # Opened as it is, network share or not (copying it off the share is the way out),
    # never created and never upgraded.
    state = inspect_sqlite_file(path)
    if not state.exists:
        raise UserError(f"There is no database at {path}; check --db. Nothing was copied.")
    refuse_foreign(state, path)
    require_head(state.revision, str(path))
    db = Database(url)
    try:
        actor = command_line_actor(db)
        result = migrate_to(db, actor, args.url, progress=_progress)
    finally:
        db.dispose()
    print(
        f"copied {result.rows} rows in {len(result.tables)} tables from {result.source} "
        f"to {result.target}"
    )
    print(
        "checked: every table's row count and rows match the source, and the audit trail "
        f"verifies ({result.audit_events} events, ending at number {result.head_seq})"
    )
    print(
        f"next: on each workstation set FIELDOPS_DATABASE_URL={result.target_url} (or start "
        f"FieldOps with --db {result.target_url}), and stop using {result.source}"
    )
    return 0


def _progress(table: str, rows: int) -> None:
    if sys.stderr.isatty():
        print(f"  {table}: {rows} rows", file=sys.stderr, flush=True)
