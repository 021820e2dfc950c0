"""The ``fieldops`` command. With no subcommand it opens the window.

The command line needs no sign-in: it acts as the operating-system user and
is recorded as such in the audit trail. Qt is imported only when the window
opens, so every other command runs on a headless server.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from datetime import date

from fieldops import __version__
from fieldops.errors import UserError


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fieldops", description="Animal control records.")
    p.add_argument("--version", action="version", version=f"fieldops {__version__}")
    p.add_argument("--db", metavar="PATH", default=None,
                   help="database file or URL (default: $FIELDOPS_DATABASE_URL, then the "
                        "user's data folder)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="fill the database with deterministic demo data")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--people", type=int, default=200)
    sub.add_parser("check", help="check the database's integrity; exit 1 when something is wrong")
    due = sub.add_parser("due", help="what is due today (holds ending, overdue items)")
    due.add_argument("--date", type=_date, default=None, help="the day (default: today)")
    due.add_argument("--json", action="store_true", help="print JSON instead of text")
    staff = sub.add_parser("staff", help="list staff, or set one's role (administrators)")
    staff.add_argument("username", nargs="?", help="login name to add or change")
    staff.add_argument("--role", choices=["operator", "officer", "supervisor", "admin"])
    staff.add_argument("--name", default="", help="full name")
    staff.add_argument("--inactive", action="store_true", help="mark the login inactive")
    report = sub.add_parser("report", help="print a record report to a PDF file")
    report.add_argument("kind", choices=["register"],
                        help="register: every impounded animal in a period (58-528)")
    report.add_argument("--from", dest="start", type=_date, required=True, metavar="YYYY-MM-DD")
    report.add_argument("--to", dest="end", type=_date, required=True, metavar="YYYY-MM-DD")
    report.add_argument("--out", required=True, metavar="FILE.pdf")
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
    if args.command is None:
        if not has_display():
            print(NO_DISPLAY, file=sys.stderr)
            return 2
        # The one place the core reaches the front end, and only now: every other
        # command runs headless without Qt installed or loaded (tests/test_layering.py).
        window = importlib.import_module("ui.app")
        return window.run(args.db)
    try:
        return COMMANDS[args.command](args)
    except UserError as exc:
        print(f"fieldops: {exc}", file=sys.stderr)
        return 1


def _open(args):
    from fieldops.services.setup import open_database, sign_in_os_user

    opened = open_database(args.db)
    return opened.db, sign_in_os_user(opened.db)


def cmd_demo(args) -> int:
    from fieldops.demo import fill

    db, actor = _open(args)
    summary = fill(db, actor, seed=args.seed, people=args.people)
    print(f"demo data written to {db.description}: {summary}")
    return 0


def cmd_check(args) -> int:
    from fieldops.check import integrity_problems

    db, _ = _open(args)
    problems = integrity_problems(db)
    if problems:
        for p in problems:
            print(p)
        return 1
    print("ok")
    return 0


def cmd_due(args) -> int:
    from fieldops.rules import Profile, format_day, plural
    from fieldops.services.context import now
    from fieldops.services.due import due_items

    db, _ = _open(args)
    profile = Profile.default()
    day = args.date or now().astimezone(profile.timezone).date()
    items = due_items(db, day, profile)
    if args.json:
        print(json.dumps({"date": day.isoformat(), "items": [i.as_json() for i in items]},
                         indent=2))
    else:
        print(f"Due on {format_day(day)} ({plural(len(items), 'item')})")
        for i in items:
            print(f"  [{i.category}] {i.text}")
    return 0


def cmd_report(args) -> int:
    from pathlib import Path

    from fieldops.reports import impound_register
    from fieldops.rules import Profile, plural
    from fieldops.services.context import now
    from fieldops.services.registers import impound_register_views

    db, _ = _open(args)
    profile = Profile.default()
    rows = impound_register_views(db, args.start, args.end, profile)
    pdf = impound_register(rows, period_start=args.start, period_end=args.end,
                           jurisdiction=profile.name, tz=profile.timezone, printed_at=now())
    out = Path(args.out)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(pdf)
    tmp.replace(out)  # never leave a half-written report under the real name
    print(f"{plural(len(rows), 'impoundment')} from {args.start} to {args.end} written to {out}")
    return 0


def cmd_staff(args) -> int:
    from fieldops.services.staff import list_staff, set_staff

    db, actor = _open(args)
    if args.username:
        if not args.role:
            print("fieldops: give --role for the staff member", file=sys.stderr)
            return 2
        set_staff(db, actor, args.username, args.role, full_name=args.name,
                  active=not args.inactive)
    for u in list_staff(db):
        print(f"{u.username:<20} {u.role:<11} {'active' if u.active else 'inactive':<9} "
              f"{u.full_name}")
    return 0


COMMANDS = {"demo": cmd_demo, "check": cmd_check, "due": cmd_due, "report": cmd_report,
            "staff": cmd_staff}


if __name__ == "__main__":
    raise SystemExit(main())
