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
    parser.add_argument(
        "--self-test-pdfs",
        metavar="FOLDER",
        default=None,
        help="with --self-test: also keep the documents it printed in FOLDER (an existing one)",
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from fieldops.errors import UserError
    from fieldops.selftest import run as self_test

    keep = Path(args.self_test_pdfs) if args.self_test_pdfs else None
    if keep is not None and not keep.is_dir():
        raise UserError(f"--self-test-pdfs: {keep} is not a folder; create it first.")
    return self_test(args.db, debug=args.debug, keep=keep).code
