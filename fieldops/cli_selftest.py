"""``fieldops --self-test``: the option, and the command it runs (fieldops/selftest.py)."""

from __future__ import annotations

import argparse


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="create, read back and print one record of each kind, then exit (0: all passed); "
        "on a new temporary database unless --db names a new (or empty) one",
    )


def run(args: argparse.Namespace) -> int:
    from fieldops.selftest import run as self_test

    return self_test(args.db, debug=args.debug).code
