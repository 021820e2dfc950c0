"""Run the benchmarks: ``python -m bench [--sizes 100000,1000000] [--only NAME] [--dir DIR]``.

Each suite runs on the generated city (``bench.generate``) at every size, and
prints its figures as they come; then one table of every figure (value,
baseline measured in the same run, ratio, target, met) and the growth table
(each figure at the smallest size beside the largest: a list's first page must
not grow with the table). Exits non-zero when any target is missed or a suite
fails. ``--save FILE`` appends each figure to FILE as it is measured; ``--report
FILE...`` prints the tables of saved figures together (the sizes measured in
separate runs, e.g. while the larger city is still being built).

A suite is one line of ``SUITES``: its name and a function of the run (the
city's file and size) returning ``Result``s.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from bench.common import Result, growth, growth_table, table


@dataclass(frozen=True)
class Run:
    """One size of one benchmark run: where the kept databases are, and which city."""

    dir: Path
    size: int

    @property
    def city(self) -> Path:
        """The generated city of ``size`` impoundments (built once, kept between runs)."""
        from bench.generate import ensure

        return ensure(self.dir, self.size)


@dataclass(frozen=True)
class Suite:
    """``once``: the suite has its own database, not the city; it runs at the first size only."""

    name: str
    run: Callable[[Run], list[Result]]
    once: bool = False


def _call(module: str, fn: str = "run", *args: Callable[[Run], Any]) -> Callable[[Run], Any]:
    """A suite calling ``bench.<module>.<fn>(*(arg(run) for arg in args))``, imported when run."""

    def go(r: Run) -> Any:
        return getattr(import_module(f"bench.{module}"), fn)(*(a(r) for a in args))

    return go


def city(r: Run) -> Path:
    return r.city


def size(r: Run) -> int:
    return r.size


def kept(name: str) -> Callable[[Run], Path]:
    """A suite's own database file in the run's folder (for suites not on the city yet)."""
    return lambda r: r.dir / name


#: Every suite, one line each (lists, register and startup add theirs here).
SUITES: tuple[Suite, ...] = (
    Suite("people", _call("registry", "run", city, size)),
    Suite("ui", _call("ui_lists", "run", city, size)),
    Suite("impounds", _call("impound_list", "run", city, size)),
    Suite("quarantines", _call("ui_lists", "run_quarantines", city, size)),
    Suite("vicious", _call("ui_lists", "run_vicious", city, size)),
    Suite("people-lists", _call("ui_lists", "run_people", city, size)),
    Suite("calls", _call("ui_lists_modules", "run_calls", city, size)),
    Suite("licences", _call("ui_lists_modules", "run_licences", city, size)),
    Suite("permits", _call("ui_lists_modules", "run_permits", city, size)),
    Suite("today", _call("today", "run", city, size)),
    Suite("intake", _call("intake_save", "run", city, size)),
    Suite("memory", _call("memory", "run", city, size)),
    Suite("register-year-files", _call("register_year", "run", city)),
    Suite("register", _call("register", "run", kept("register-30000.db")), once=True),
    Suite("register-pdf", _call("register_pdf", "run", kept("register-30000.db")), once=True),
    Suite("activity", _call("activity", "run", city, size)),
    Suite("reports", _call("reports", "run"), once=True),
    Suite("startup", _call("startup", "run", kept("startup-demo.db")), once=True),
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench")
    p.add_argument(
        "--sizes",
        default="100000,1000000",
        help="impoundments in the generated cities, comma-separated (default: %(default)s)",
    )
    p.add_argument(
        "--dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "fieldops-bench",
        help="where the benchmark databases are kept between runs",
    )
    p.add_argument("--only", default="", help="run only suites whose name contains this")
    p.add_argument(
        "--skip",
        default="",
        help="suites not to run: names, comma-separated (e.g. startup,reports)",
    )
    p.add_argument(
        "--save",
        type=Path,
        help="also append each figure to this file (JSON lines) as it is measured",
    )
    p.add_argument(
        "--report",
        type=Path,
        nargs="+",
        help="run nothing: the tables of figures saved by earlier runs (--save), together",
    )
    args = p.parse_args(argv)
    if args.report:
        return _report(load_results(args.report), [])
    sizes = sorted({int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()})
    args.dir.mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, Result]] = []
    broken: list[str] = []
    for n in sizes:
        run = Run(args.dir, n)
        for suite in SUITES:
            if (args.only and args.only not in suite.name) or (suite.once and n != sizes[0]):
                continue
            if suite.name in {x.strip() for x in args.skip.split(",")}:
                continue
            print(f"== {suite.name} at {n:,} impoundments", flush=True)
            t0 = time.perf_counter()
            try:
                got = suite.run(run)
            except Exception:
                traceback.print_exc()
                broken.append(f"{suite.name} at {n:,}")
                continue
            for r in got:
                r.size = n
                results.append((suite.name, r))
                print(r.line(), flush=True)
                if args.save:
                    save_result(args.save, suite.name, r)
            print(f"   ({time.perf_counter() - t0:.0f} s)", flush=True)
    return _report(results, broken)


def save_result(path: Path, suite: str, r: Result) -> None:
    """One figure appended to ``path`` as a JSON line (a long run keeps what it measured)."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"suite": suite, **asdict(r)}) + "\n")


def load_results(paths: list[Path]) -> list[tuple[str, Result]]:
    """The figures saved by ``save_result``, in the order saved (files in the order given)."""
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                out.append((d.pop("suite"), Result(**d)))
    return out


def _report(results: list[tuple[str, Result]], broken: list[str]) -> int:
    """The table of every figure and the growth table; 1 when a target was missed."""
    print()
    print(table(results))
    grown = growth(results)
    if grown:
        print()
        print(growth_table(grown))
    missed = sum(not r.ok for _, r in results) + sum(not g.ok for g in grown)
    print()
    if broken:
        print(f"failed to run: {', '.join(broken)}")
    print(f"{missed} target(s) missed" if missed else "every target met")
    return 1 if missed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
