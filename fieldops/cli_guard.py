"""What the ``fieldops`` command says when a command fails: one line, never a traceback.

The same three kinds as the window (ui/errors.py):

* ``UserError``: written for the person typing the command; said as is.
* An environment failure (the database unreachable, locked or damaged, a full
  disk, a folder one may not write in): the system's own words, one line.
* Anything else is a bug: one line that says so and where the details were
  written (``--debug`` prints them instead).

A reader that goes away (``fieldops due | head -1``) is not an error at all:
the command stops quietly with the status a command killed by SIGPIPE has.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

from fieldops import __version__
from fieldops.errors import UserError

EXIT_USER = 1
EXIT_BUG = 70  # EX_SOFTWARE (sysexits.h)
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a reader that left early


def say(message: str) -> None:
    """One line on stderr, prefixed with the command's name."""
    line = " ".join(message.split())  # one line, whatever the message holds
    with contextlib.suppress(OSError):  # nowhere left to say it
        print(f"fieldops: {line}", file=sys.stderr, flush=True)


def report(exc: Exception, *, debug: bool = False) -> int:
    """Say what went wrong in one line; the exit status for it."""
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    if isinstance(exc, UserError):
        say(str(exc))
        return EXIT_USER
    if _is_environment(exc):
        say(_environment_line(exc))
        return EXIT_USER
    details = "".join(traceback.format_exception(exc))
    if debug:
        sys.stderr.write(details)
        say(f"this is a bug in FieldOps: {type(exc).__name__}: {exc}")
        return EXIT_BUG
    log = _write_bug_log(details)
    where = f"The details were written to {log}" if log else "No detail log could be written"
    say(
        f"something went wrong; this is a bug in FieldOps, not something you did "
        f"({type(exc).__name__}: {exc}). {where}; run again with --debug to see them here."
    )
    return EXIT_BUG


def _is_environment(exc: BaseException) -> bool:
    # Imported here: the window starts through this module, and must not pay for it.
    from sqlalchemy.exc import DBAPIError, OperationalError

    if isinstance(exc, OperationalError | OSError):
        return True
    if isinstance(exc, DBAPIError):
        # A damaged file ("database disk image is malformed") is plain sqlite3.DatabaseError;
        # its subclasses (IntegrityError, ProgrammingError...) are bugs.
        return exc.connection_invalidated or type(exc.orig) is sqlite3.DatabaseError
    return False


def _environment_line(exc: BaseException) -> str:
    from sqlalchemy.exc import DBAPIError

    detail = str(getattr(exc, "orig", None) or exc).strip()
    detail = detail.splitlines()[0] if detail else type(exc).__name__
    if isinstance(exc, DBAPIError):
        return (
            f"the database could not be used: {detail}. Check that it is reachable and "
            "that you may use it, then try again; if someone is saving at this moment, "
            "waiting a few seconds may be enough."
        )
    return f"the command could not finish: {detail}"


def _silence_stdout() -> None:
    # Python flushes stdout again at exit and would complain into stderr; point the
    # descriptor at the null device instead (the recipe in Python's signal docs).
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def log_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir("FieldOps", appauthor=False))


def _write_bug_log(details: str) -> Path | None:
    """Append the details to the command's log; a temporary file if that cannot be written."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    from fieldops.logs import command_line, scrub  # no names, addresses or passwords

    entry = f"--- {stamp} fieldops {__version__}: {command_line(sys.argv)}\n{scrub(details)}\n"
    try:
        from fieldops.files import open_private_log

        path = log_folder() / "fieldops-command.log"
        with open_private_log(path) as f:
            f.write(entry)
        return path
    except OSError:
        pass
    try:
        fd, name = tempfile.mkstemp(prefix="fieldops-error-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(entry)
        return Path(name)
    except OSError:
        return None
