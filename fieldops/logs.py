"""What FieldOps lets into log files: never a person's name, phone, address or a password.

Records hold people's names, addresses and phone numbers, bite victims'
contacts and (with accounts) password hashes; log files are copied around
when something goes wrong. So:

* the database driver's loggers never log statements' parameters or rows,
  whatever level the logging is set to (``quiet_database_loggers``; the
  engine also hides parameters from its error messages, ``hide_parameters``);
* a bug's details are scrubbed of the row data a database error quotes
  (PostgreSQL's "Failing row contains (...)" and "Key (...)=(...)", a
  statement's parameters) before they are written (``scrub``);
* the command line in a bug log keeps the command and its option names, not
  the values typed (``command_line``): ``fieldops staff ana --name "Ana Ruiz"``
  is logged as ``fieldops staff … --name …``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

#: Loggers that would write statements' parameters and result rows at INFO/DEBUG.
DATABASE_LOGGERS = ("sqlalchemy.engine", "sqlalchemy.pool", "sqlalchemy.orm", "psycopg")

HIDDEN = "…"

_SCRUB = (
    # SQLAlchemy's "[parameters: (...)]" (when an engine does not hide them)
    (re.compile(r"\[parameters: .*?\](?=\n|$)", re.S), f"[parameters: {HIDDEN}]"),
    # PostgreSQL's quotes of the row: "DETAIL:  Failing row contains (...)." and "Key (a)=(b)"
    (re.compile(r"(Failing row contains )\(.*?\)(?=\.?\s*$)", re.M), rf"\1({HIDDEN})"),
    (re.compile(r"(Key \([^)]*\)=)\(.*?\)(?= |$)", re.M), rf"\1({HIDDEN})"),
    # psycopg's "CONTEXT:" and "PARAMETERS:" lines can quote values too
    (re.compile(r"^(\s*(?:CONTEXT|PARAMETERS|DETAIL):).*$", re.M), rf"\1 {HIDDEN}"),
)


def quiet_database_loggers() -> None:
    """Keep the database loggers at WARNING (errors only, never data) unless echo is asked."""
    for name in DATABASE_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET or logger.level < logging.WARNING:
            logger.setLevel(logging.WARNING)


def scrub(details: str) -> str:
    """A bug's details without the record data database errors quote."""
    for pattern, replacement in _SCRUB:
        details = pattern.sub(replacement, details)
    return details


def command_line(argv: Sequence[str]) -> str:
    """The command as logged: the program, its command word and option names; no values."""
    if not argv:
        return ""
    out = [argv[0].rsplit("/", 1)[-1]]
    command_seen = False
    for arg in argv[1:]:
        if arg.startswith("-"):
            out.append(arg.split("=", 1)[0] + ("=" + HIDDEN if "=" in arg else ""))
        elif not command_seen and re.fullmatch(r"[a-z][a-z-]*", arg):
            out.append(arg)  # the command word: check, demo, report, staff...
            command_seen = True
        else:
            out.append(HIDDEN)
    return " ".join(out)
