"""A day typed on the command line, read the one way every date option reads it.

README, "Exit codes": a date that is not one, or is outside 1900-2999, is a wrong
command line (status 2), whichever option it was given to.
"""

from __future__ import annotations

import argparse
from datetime import date

FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)  # days a record can be about

#: The exit status of a command line that is itself wrong (argparse's own).
EXIT_USAGE = 2


def day(text: str) -> date:
    """``text`` (YYYY-MM-DD) as a day from FIRST_DAY to LAST_DAY; an argparse ``type``."""
    try:
        found = date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None
    if not FIRST_DAY <= found <= LAST_DAY:
        raise argparse.ArgumentTypeError(f"{text} is not a day between {FIRST_DAY} and {LAST_DAY}")
    return found


def option_day(option: str, text: str) -> date:
    """``text`` as a day (:func:`day`), its refusal naming ``option``.

    For an option read as text so that its refusal is one line (argparse's own is two):
    the caller says the ``ArgumentTypeError`` and exits ``EXIT_USAGE``."""
    try:
        return day(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{option}: {exc}") from None
