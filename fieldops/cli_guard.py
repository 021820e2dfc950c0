"""What the ``fieldops`` command says when a command fails: one line, never a traceback.

The same kinds as the window (ui/errors.py), from the one map in
fieldops/failures.py, each with its own exit status (README, "Exit codes"):

* ``UserError``: written for the person typing the command; said as is (1).
* An environment failure (not a database, damaged, locked, read-only, a full
  disk, permission, a missing folder, a schema too new or too old): what
  happened and what to do, one line.
* Anything else is a bug: one line that says so and where the details were
  written (``--debug`` prints them instead) (70).

A reader that goes away (``fieldops due | head -1``) is not an error at all:
the command stops quietly with the status a command killed by SIGPIPE has.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

from fieldops import __version__, failures
from fieldops.errors import UserError
from fieldops.failures import BUG, EXIT_CODES, USER

EXIT_USER = EXIT_CODES[USER]
EXIT_BUG = EXIT_CODES[BUG]
EXIT_INTERRUPTED = failures.EXIT_INTERRUPTED
EXIT_BROKEN_PIPE = failures.EXIT_BROKEN_PIPE  # what a shell reports for a reader that left


def say(message: str) -> None:
    """One line on stderr, prefixed with the command's name."""
    line = " ".join(message.split())  # one line, whatever the message holds
    with contextlib.suppress(OSError):  # nowhere left to say it
        print(f"fieldops: {line}", file=sys.stderr, flush=True)


def report(exc: Exception, *, debug: bool = False, database: str | None = None) -> int:
    """Say what went wrong in one line; the exit status for it.

    ``database`` is the ``--db`` the command was given: it tells a folder SQLite
    cannot write its journal in from a file one may not read."""
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    said = failures.describe(exc, _database_file(database))
    if said.kind != BUG:
        say(said.line())
        return said.exit_code
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


def _database_file(database: str | None) -> str | None:
    """The SQLite file the command used (``--db``, else the environment or the default)."""
    try:
        from fieldops.db.engine import resolve_url

        return resolve_url(database)
    except Exception:  # an unusable --db: nothing to say about a file
        return database


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


def path_option(option: str, text: str) -> Path:
    """The path an option (or argument) names, refused in one line naming it, status 1,
    when no file system could even look it up: a NUL, a folder or file name longer than
    ``NAME_MAX`` bytes, a path too long as a whole. Otherwise the first look at it
    (``Path.is_dir``) raises ENAMETOOLONG, which would be said of the database."""
    from fieldops.files import NAME_MAX

    if "\x00" in text:
        raise UserError(f"{option}: the path holds a NUL character; type it again.")
    path = Path(text).expanduser()
    if any(len(os.fsencode(part)) > NAME_MAX for part in path.parts):
        raise UserError(
            f"{option}: a folder or file name in the path is too long (at most {NAME_MAX} "
            "bytes each); choose a shorter one."
        )
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass  # nothing there (yet): the option's own checks say what that means
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return path  # a loop of links: said as "no such file" by the checks after
        raise UserError(f"{option} {text}: {exc.strerror or exc}; choose another path.") from None
    return path


def output_failure(out: Path, exc: OSError) -> failures.FailureError:
    """``--out`` could not be written: what to raise (nothing is left behind)."""
    return failures.FailureError(failures.writing_failure(f"--out {out}", exc))
