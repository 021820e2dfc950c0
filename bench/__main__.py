"""Run the benchmarks: ``python -m bench [--people N] [--dir DIR]``.

Exits non-zero when a result exceeds its limit (a ratio to a baseline taken
in the same run).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path


def main() -> int:
    p = argparse.ArgumentParser(prog="bench")
    p.add_argument("--people", type=int, default=1_000_000)
    p.add_argument(
        "--dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "fieldops-bench",
        help="where the benchmark databases are kept between runs",
    )
    p.add_argument("--impoundments", type=int, default=100_000)
    p.add_argument("--only", default="", help="run only suites whose name contains this")
    args = p.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    from bench import registry

    suites = {"registry": lambda: registry.run(args.dir / f"people-{args.people}.db", args.people)}
    try:
        from bench import ui_lists

        suites["ui"] = lambda: ui_lists.run(args.dir / f"people-{args.people}.db", args.people)
    except ImportError:
        pass
    from bench import register

    suites["register"] = lambda: register.run(args.dir / "register-30000.db")
    from bench import activity, register_pdf, register_year

    suites["register-pdf"] = lambda: register_pdf.run(args.dir / "register-30000.db")
    suites["activity"] = lambda: activity.run(args.dir / f"activity-{activity.IMPOUNDMENTS}.db")
    suites["register-year"] = lambda: register_year.run(
        args.dir / f"activity-{activity.IMPOUNDMENTS}.db"
    )
    try:
        from bench import impound_list

        suites["impounds"] = lambda: impound_list.run(
            args.dir / f"impoundments-{args.impoundments}.db", args.impoundments
        )
    except ImportError:
        pass
    try:
        from bench import reports

        suites["reports"] = reports.run
    except ImportError:
        pass
    failed = 0
    for name, suite in suites.items():
        if args.only and args.only not in name:
            continue
        print(f"== {name}")
        for result in suite():
            print(result.line())
            failed += not result.ok
    print(f"{failed} over the limit" if failed else "all within limits")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
