"""The ``fieldops`` command. With no subcommand it opens the window.

The command line needs no password: it acts as the staff account that the
process's real operating-system login is mapped to (``os_user``), and a login
mapped to none may only read. A new database's first administrator is made with
``fieldops staff NAME --role admin`` (mapped to the login that runs it) or by
``fieldops demo``. Qt is imported only when the window
opens, so every other command runs on a headless server.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from fieldops import __version__, cli_backup, cli_licence, cli_migrate, cli_selftest
from fieldops import cli_dates as dates
from fieldops import cli_guard as guard
from fieldops.errors import UserError, ValidationError

if TYPE_CHECKING:
    from fieldops.db.engine import Database
    from fieldops.services.context import Actor


class _ReportNames:
    """The report names for ``--help``, read from the seam only when help is printed.

    Every name passes argparse's check: ``cmd_report`` refuses an unknown one in
    one line of its own (argparse would print its usage over two), and loading
    every module to build the parser would slow every other command down.
    """

    def __contains__(self, name: object) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:
        from fieldops.services.reports_run import report_names

        return iter(report_names())


class _Roles:
    """The staff roles for ``--role``, read from fieldops.permissions only when needed.

    That module brings SQLAlchemy with it: ``fieldops --version``, ``--help`` and the
    window's start need not wait for it to build the parser.
    """

    def __contains__(self, name: object) -> bool:
        from fieldops.permissions import ROLES

        return name in ROLES

    def __iter__(self) -> Iterator[str]:
        from fieldops.permissions import ROLES

        return iter(ROLES)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fieldops", description="Animal control records.")
    p.add_argument("--version", action="version", version=f"fieldops {__version__}")
    p.add_argument(
        "--debug", action="store_true", help="on an unexpected error, print the full traceback"
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="database file or URL (default: $FIELDOPS_DATABASE_URL, then the user's data folder)",
    )
    cli_selftest.add_option(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="fill the database with deterministic demo data")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--people", type=int, default=200)
    sub.add_parser("check", help="check the database's integrity; exit 1 when something is wrong")
    due = sub.add_parser("due", help="what is due today (holds ending, overdue items)")
    due.add_argument("--date", type=dates.day, default=None, help="the day (default: today)")
    due.add_argument("--json", action="store_true", help="print JSON instead of text")
    staff = sub.add_parser("staff", help="list staff, or set one's role (administrators)")
    staff.add_argument("username", nargs="?", help="login name to add or change")
    staff.add_argument("--role", choices=_Roles(), metavar="ROLE", help="%(choices)s")
    staff.add_argument(
        "--os-user", default=None, metavar="LOGIN", help="the computer login this account acts as"
    )
    staff.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the account's (first) password from standard input",
    )
    staff.add_argument("--name", default="", help="full name")
    staff.add_argument("--inactive", action="store_true", help="mark the login inactive")
    staff.add_argument(
        "--new",
        action="store_true",
        help="add a login that is not (yet) an account on this computer",
    )
    report = sub.add_parser(
        "report",
        help="print a record report to a PDF or CSV file",
        description="Print a record report for a period. The file's suffix chooses "
        "the format: .pdf or .csv (UTF-8, for a spreadsheet).",
    )
    report.add_argument(
        "kind",
        metavar="NAME",
        choices=_ReportNames(),
        help="the report: %(choices)s",
    )
    # Dates as text, read in cmd_report: a bad one is refused in one line, not argparse's two.
    report.add_argument("--from", dest="start", required=True, metavar="YYYY-MM-DD")
    report.add_argument("--to", dest="end", required=True, metavar="YYYY-MM-DD")
    report.add_argument("-o", "--out", required=True, metavar="FILE", help="FILE.pdf or FILE.csv")
    report.add_argument(
        "--redacted",
        action="store_true",
        help="the public-records copy: private parts withheld, and said so on the copy",
    )
    cli_migrate.add_parser(sub)
    cli_backup.add_parsers(sub)
    cli_licence.add_parsers(sub)
    return p


def has_display() -> bool:
    if sys.platform != "linux":
        return True
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in ("offscreen", "minimal", "vnc"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


NO_DISPLAY = """fieldops: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).
  On a server, run it under a virtual display:   xvfb-run -a fieldops
  or use the command-line tools:                 fieldops --help"""


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.self_test:
            return cli_selftest.run(args)
        if args.command is None:
            if not has_display():
                print(NO_DISPLAY, file=sys.stderr)
                return 2
            # The database layer loads after the window's first paint (ui/app.py).
            # The one place the core reaches the front end, and only now: every other
            # command runs headless without Qt installed or loaded (tests/test_layering.py).
            # No collection while Qt and the window's modules import (some 27 of
            # them, 5 ms before the first paint, issue 14): the window's own collector
            # on the GUI thread takes over once it starts (ui/gc.py).
            gc.disable()
            window = importlib.import_module("ui.app")
            code: int = window.run(args.db)
            return code
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a closed pipe shows here, inside the guard, not at exit
        return code
    except Exception as exc:
        return guard.report(exc, debug=args.debug, database=args.db)
    except KeyboardInterrupt:
        guard.say("interrupted.")
        return guard.EXIT_INTERRUPTED


def _open(args: argparse.Namespace) -> Database:
    """The database for a command that may change it (created on first use)."""
    from fieldops.services.setup import open_database

    opened = open_database(args.db, named_by_user=True)
    if opened.created:  # said, so that a mistyped --db does not pass unnoticed
        guard.say(f"created a new database at {opened.db.description}")
    if opened.backup_problem:  # the day's first backup failed: the work goes on, said
        guard.say(opened.backup_problem)
    return opened.db


def _actor(db: Database) -> Actor:
    """Who a writing command acts as: the account the real login is mapped to."""
    from fieldops.services.setup import command_line_actor

    return command_line_actor(db)


def _open_existing(args: argparse.Namespace) -> Database:
    """The database for a command that only reads: no upgrade, no sign-in, nothing created."""
    from fieldops.services.setup import open_existing_database

    return open_existing_database(args.db)


DEMO_PEOPLE_MAX = 10_000


def cmd_demo(args: argparse.Namespace) -> int:
    from fieldops.demo import fill
    from fieldops.services.context import os_username
    from fieldops.services.demo_accounts import ensure_demo_staff
    from fieldops.services.staff import actor_for_os_user

    if args.people < 0:
        raise UserError(f"--people: {args.people} is fewer than none; give 0 or more.")
    if args.people > DEMO_PEOPLE_MAX:  # each is saved through the services: hours, not data
        raise UserError(
            f"--people: {args.people:,} is more than a demonstration needs; give at most "
            f"{DEMO_PEOPLE_MAX:,} (make bench builds databases of a city's size)."
        )
    db = _open(args)
    try:
        login = os_username()
        staff = ensure_demo_staff(db, actor_for_os_user(db, login), login)
        summary = fill(db, staff.writer, seed=args.seed, people=args.people)
    finally:
        db.dispose()
    print(f"demo data written to {db.description}: {summary}")
    if staff.passwords:
        print("demo accounts (the passwords are shown this once):")
        for name, password in staff.passwords.items():
            print(f"  {name:<18} {password}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from fieldops.check import integrity_problems

    db = _open_existing(args)
    try:
        problems = integrity_problems(db, note=guard.say)
    finally:
        db.dispose()
    if problems:
        for p in problems:
            print(p)
        return 1
    print("ok")
    return 0


def cmd_due(args: argparse.Namespace) -> int:
    from fieldops.rules import Profile, format_day, plural
    from fieldops.services.context import now
    from fieldops.services.due import due_items

    db = _open_existing(args)
    try:
        profile = Profile.default()
        day = args.date or now().astimezone(profile.timezone).date()
        items = due_items(db, day, profile)
    finally:
        db.dispose()
    if args.json:
        print(
            json.dumps({"date": day.isoformat(), "items": [i.as_json() for i in items]}, indent=2)
        )
    else:
        print(f"Due on {format_day(day)} ({plural(len(items), 'item')})")
        for i in items:
            late = "overdue: " if i.overdue else ""
            print(f"  [{late}{i.category_label}] {i.text}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from fieldops.rules import Profile, plural
    from fieldops.services import reports_run

    # Everything the user typed is checked before the database is opened or a page drawn.
    kind = reports_run.find_report(args.kind)
    try:
        args.start = dates.option_day("--from", args.start)
        args.end = dates.option_day("--to", args.end)
    except argparse.ArgumentTypeError as exc:  # the command line itself: one line, status 2
        guard.say(str(exc))
        return dates.EXIT_USAGE
    if args.end < args.start:
        raise UserError(
            f"--to {args.end} is before --from {args.start}; the period cannot "
            "end before it starts."
        )
    out = output_path(args.out, database=args.db)
    try:
        fmt = reports_run.file_format(out)
    except UserError as exc:
        raise UserError(f"--out {exc}") from None
    db = _open_existing(args)
    try:
        profile = Profile.default()
        actor = _actor(db)  # the export is audited: the login's account, or a refusal
        produced = reports_run.produce(
            db,
            actor,
            kind.name,
            args.start,
            args.end,
            profile,
            redacted=args.redacted,
            audited=False,  # the export below is the event
        )
        # All or nothing: never half a report under its name, and audited with the file.
        try:
            reports_run.export(db, actor, produced, out)
        except OSError as exc:
            raise guard.output_failure(out, exc) from None
    except ValidationError as exc:  # the service names its fields; the user typed options
        raise UserError(
            "; ".join(f"{PERIOD_OPTIONS.get(e.field, e.field)}: {e.message}" for e in exc.errors)
        ) from None
    finally:
        db.dispose()
    n = len(produced.output.table.rows)
    public = ", the public-records copy" if args.redacted else ""
    print(
        f"{plural(n, 'row')} of the {kind.title} from {args.start} to {args.end} "
        f"written to {out} ({fmt.upper()}{public})"
    )
    return 0


PERIOD_OPTIONS = {"period_start": "--from", "period_end": "--to"}


def output_path(text: str, *, database: str | None) -> Path:
    """Where ``--out`` says to write, refused in words before anything is drawn.

    The report may go anywhere the user may write, the database's own folder
    included: this process holds the database open only while it reads, and never
    touches the database file's descriptors while writing the report. What it must
    never do is write over the database or the journals beside it.
    """
    from fieldops.db.engine import resolve_url
    from fieldops.services.reports_run import check_file_name
    from fieldops.services.setup import sqlite_file

    try:  # a name no file system keeps is the user's to change, before anything is asked of it
        check_file_name(text)
    except ValidationError as exc:
        raise UserError("--out: " + "; ".join(e.message for e in exc.errors)) from None
    out = guard.path_option("--out", text)
    if out.is_dir():
        raise UserError(
            f"--out {text} is a folder; give the file to write, e.g. {out / 'register.pdf'}"
        )
    folder = out.absolute().parent
    if not folder.is_dir():
        raise UserError(
            f"--out: the folder {folder} does not exist; create it first or choose another."
        )
    if not os.access(folder, os.W_OK):
        raise UserError(f"--out: you may not write in the folder {folder}.")
    db_file = sqlite_file(resolve_url(database))
    if db_file is not None:
        target = out.resolve()
        protected = {db_file.resolve()} | {
            db_file.resolve().with_name(db_file.name + s) for s in ("-wal", "-shm", "-journal")
        }
        if target in protected:
            raise UserError(
                f"--out {text} is the database itself (or its journal); choose another file name."
            )
    return out


def refuse_unknown_login(username: str, staff: set[str]) -> None:
    """Refuse a name that is neither a staff login nor a person's account on this computer.

    A typo (``fieldops staff nobdy``) would otherwise become a login nobody can use,
    with a role. ``--new`` says the login is meant to exist before its account does.
    """
    name = username.strip()
    if name in staff or _is_login_account(name):
        return
    raise UserError(
        f"{name!r} is neither a FieldOps staff login nor an account that can log "
        "in to this computer; check the spelling, or add --new to create the "
        "staff login anyway."
    )


def _is_login_account(name: str) -> bool:
    """An operating-system account a person logs in with (not a service like ``nobody``)."""
    try:
        import pwd
    except ImportError:  # Windows: no account database to ask; --new says it is meant
        return False
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return False
    return os.path.basename(entry.pw_shell) not in ("nologin", "false")


def _password(args: argparse.Namespace) -> str | None:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    if not sys.stdin.isatty():
        return None
    import getpass

    first = getpass.getpass("Password for the account (at least 10 characters): ")
    if getpass.getpass("The same password again: ") != first:
        raise UserError("the two passwords differ; nothing was changed.")
    return first


def cmd_staff(args: argparse.Namespace) -> int:
    from fieldops.permissions import FIRST_ROLE
    from fieldops.services.context import os_username
    from fieldops.services.signin import create_first_admin, needs_first_admin
    from fieldops.services.staff import list_staff, set_staff

    if args.username and not args.role:
        print("fieldops: give --role for the staff member", file=sys.stderr)
        return 2
    db = _open(args)
    try:
        if args.username and needs_first_admin(db):
            # A database no administrator can sign in to: this makes its first one.
            if args.role != FIRST_ROLE:
                raise UserError(
                    f"this database has no administrator yet; make one first with "
                    f"'fieldops staff NAME --role {FIRST_ROLE}'."
                )
            password = _password(args)
            if password is None:
                raise UserError(
                    "the first administrator needs a password: run this at a terminal, "
                    "or give --password-stdin."
                )
            login = args.os_user or os_username()
            create_first_admin(db, args.username, args.name, password, os_user=login)
            guard.say(f"{args.username} is this database's administrator, acting for {login!r}")
        elif args.username:
            actor = _actor(db)
            if not args.new and not args.os_user:
                # (a non-administrator is refused by set_staff, whatever the name)
                refuse_unknown_login(args.username, {u.username for u in list_staff(db)})
            # The account and its password in one unit of work: a refused password
            # leaves no account made or changed.
            set_staff(
                db,
                actor,
                args.username,
                args.role,
                full_name=args.name,
                active=not args.inactive,
                os_user=args.os_user,
                password=_password(args) if args.password_stdin else None,
            )
        staff = list_staff(db)
    finally:
        db.dispose()
    for u in staff:
        state = "active" if u.active else "inactive"
        print(f"{u.username:<20} {u.role:<11} {state:<9} {u.os_user or '-':<12} {u.full_name}")
    return 0


COMMANDS = {
    "demo": cmd_demo,
    "check": cmd_check,
    "due": cmd_due,
    "report": cmd_report,
    "staff": cmd_staff,
    "migrate-to": cli_migrate.cmd_migrate_to,
    **cli_backup.COMMANDS,
    **cli_licence.COMMANDS,
}


if __name__ == "__main__":
    raise SystemExit(main())
