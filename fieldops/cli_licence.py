"""``fieldops licence renewals --year YYYY -o FILE``: the renewal reminder letters (a
PDF, one page a household) or, with a ``.csv`` file, the list of dogs licensed the year
before and not that year; ``--late`` keeps only the dogs past the late-fee day (the
non-compliance list). Refusals are one line, with the exit codes of fieldops.failures.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from fieldops import cli_dates as dates
from fieldops import cli_guard as guard
from fieldops.errors import UserError, ValidationError


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    licence = sub.add_parser("licence", help="dog licences: the renewal letters and lists")
    what = licence.add_subparsers(dest="licence_command", metavar="WHAT", required=True)
    renewals = what.add_parser(
        "renewals",
        help="the renewal reminder letters (.pdf) or the list (.csv) for a licence year",
        description="Dogs licensed the year before and not for --year: one letter a "
        "household (.pdf), or the list (.csv, UTF-8).",
    )
    # Read as text in cmd_licence: a bad value is refused in one line, not argparse's two.
    renewals.add_argument("--year", required=True, metavar="YYYY", help="the licence year")
    renewals.add_argument("-o", "--out", required=True, metavar="FILE", help="FILE.pdf or FILE.csv")
    renewals.add_argument(
        "--date", default=None, metavar="YYYY-MM-DD", help="the letters' day (default: today)"
    )
    renewals.add_argument(
        "--late", action="store_true", help="only the dogs past the late-fee day (non-compliance)"
    )


# The service's field names as the options that set them, so a refusal names the option.
OPTIONS = {"year": "--year", "day": "--date", "file": "--out"}


def _year(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) == 4) or not 1990 <= int(text) <= 2199:
        raise UserError(f"--year: not a licence year (YYYY, 1990-2199): {text!r}")
    return int(text)


def _out(text: str, database: str | None) -> Path:
    """Where ``--out`` says to write: a .pdf or .csv file in a folder that exists, never
    the database or a journal beside it."""
    from fieldops.db.engine import resolve_url
    from fieldops.services.reports_run import check_file_name
    from fieldops.services.setup import sqlite_file

    try:  # a name no file system keeps (control characters...), as report -o refuses it
        check_file_name(text)
    except ValidationError as exc:
        raise UserError("--out: " + "; ".join(e.message for e in exc.errors)) from None
    out = guard.path_option("--out", text)
    if out.suffix.lower() not in (".pdf", ".csv") or out.is_dir():
        raise UserError(f"--out {text}: give a file ending in .pdf (letters) or .csv (list).")
    if not out.absolute().parent.is_dir():
        raise UserError(f"--out: the folder {out.absolute().parent} does not exist.")
    db_file = sqlite_file(resolve_url(database))
    if db_file is not None:
        db_file = db_file.resolve()
        journals = {db_file.with_name(db_file.name + s) for s in ("-wal", "-shm", "-journal")}
        if out.resolve() in {db_file} | journals:
            raise UserError(f"--out {text} is the database itself; choose another file.")
    return out


def cmd_licence(args: argparse.Namespace) -> int:
    from fieldops.rules import Profile, plural
    from fieldops.services.licences.documents import export_renewals
    from fieldops.services.setup import command_line_actor, open_existing_database

    year = _year(args.year)
    try:  # read as the other commands read a date: a wrong one is the command line's (2)
        day = None if args.date is None else dates.option_day("--date", args.date)
    except argparse.ArgumentTypeError as exc:
        guard.say(str(exc))
        return dates.EXIT_USAGE
    out = _out(args.out, args.db)
    db = open_existing_database(args.db)
    try:
        profile = Profile.default()
        try:
            done = export_renewals(
                db, command_line_actor(db), year, out, profile, day=day, late_only=args.late
            )
        except OSError as exc:
            raise guard.output_failure(out, exc) from None
        except ValidationError as exc:
            raise UserError(
                "; ".join(f"{OPTIONS.get(e.field, e.field)}: {e.message}" for e in exc.errors)
            ) from None
    finally:
        db.dispose()
    what = "letters" if done.fmt == "pdf" else "list"
    late = " past the late-fee day" if args.late else ""
    print(
        f"{plural(done.dogs, 'dog')}{late} in {plural(done.households, 'household')}: "
        f"renewal {what} for {year} written to {done.path}"
    )
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"licence": cmd_licence}
