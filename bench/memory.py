"""Peak memory with every list scrolled to the end, and a year's register printed.

Both run in a child process, so each figure is that process's own:

- ``run``: the city's database open in the app's context, and every list model
  (Impounds on "All statuses", Quarantines and Vicious cases on "All", People)
  driven as a user drags its scroll bar: the first page, then pages a quarter,
  half and three quarters down, then the last page, each waited for. The
  figure is the child's peak resident memory (``VmHWM``); the baseline is the
  same child with only a bare Qt window and table (what any PySide6 app costs).
  Target: under 300 MB.
- ``run_register``: ``fieldops report register --from Y-01-01 --to Y-12-31 --out
  FILE`` for the city's last whole year, as a clerk runs it: wall time and peak
  memory (``getrusage(RUSAGE_CHILDREN)`` in a process whose only child it is),
  beside the same command line starting and answering (``--version``), measured
  the same way. Target: 30 s and 400 MB. It is stopped after ``REGISTER_TIMEOUT`` seconds
  (then the figure is that time, a miss).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Result

MAX_MB = 300.0
REGISTER_SECONDS = 30.0
REGISTER_MB = 400.0
REGISTER_TIMEOUT = 180.0
REGISTER_YEAR = 2025


def _python() -> list[str]:
    return [sys.executable]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def _child(*args: str, timeout: float = 900) -> dict[str, Any]:
    out = subprocess.run(
        [*_python(), "-m", "bench.memory", *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=timeout,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"bench.memory {' '.join(args)} failed:\n{out.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return answer


def peak_mb() -> float:
    """This process's resident-memory high-water mark, in MB (VmHWM)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(path: Path, size: int) -> list[Result]:
    bare = _child("bare")
    lists = _child("lists", str(path))
    rows = ", ".join(f"{k} {v:,}" for k, v in lists["rows"].items())
    print(f"   lists scrolled to the end: {rows} rows")
    return [
        Result(
            "peak memory, every list scrolled to the end",
            lists["mb"],
            "bare Qt window and table",
            bare["mb"],
            float("inf"),
            unit="MB",
            max_value=MAX_MB,
        )
    ]


def run_register(path: Path, size: int) -> list[Result]:
    from bench.generate import scratch_copy

    # Printing is audited: the report is printed from the run's scratch copy.
    copy = str(scratch_copy(path))
    start = _child("command", copy)
    answer = _child("register", copy, str(REGISTER_YEAR), timeout=REGISTER_TIMEOUT + 120)
    if answer["timed_out"]:
        print(f"   the register was stopped after {REGISTER_TIMEOUT:.0f} s")
    else:
        print(f"   register {REGISTER_YEAR}: {answer['pages']} pages, {answer['bytes']:,} bytes")
    base = "the command starting (fieldops --version)"
    return [
        Result(
            f"register of a year ({REGISTER_YEAR}) printed: time",
            answer["seconds"],
            base,
            start["seconds"],
            float("inf"),
            max_seconds=REGISTER_SECONDS,
        ),
        Result(
            f"register of a year ({REGISTER_YEAR}) printed: peak memory",
            answer["mb"],
            base,
            start["mb"],
            float("inf"),
            unit="MB",
            max_value=REGISTER_MB,
        ),
    ]


# -- the children -----------------------------------------------------------


def _bare() -> dict[str, Any]:
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableWidget

    app = QApplication.instance() or QApplication([])
    w = QMainWindow()
    w.setCentralWidget(QTableWidget(20, 5))
    w.show()
    app.processEvents()
    w.grab()
    return {"mb": peak_mb()}


def _wait(app: Any, done: Any, timeout: float = 600.0) -> None:
    end = time.perf_counter() + timeout
    while not done():
        app.processEvents()
        if time.perf_counter() > end:
            raise TimeoutError("the list did not answer in time")
        time.sleep(0.001)


def _scroll(app: Any, model: Any) -> int:
    """The first page, then a quarter, half, three quarters down, then the end."""
    _wait(app, lambda: model.has_answer() and not model.is_searching())
    n = model.rowCount()
    for row in (n // 4, n // 2, 3 * n // 4, n - 1):
        if row <= 0:
            continue
        model.index(row, 0).data()  # the view asks for a row it has not fetched
        _wait(app, lambda row=row: model.row_object(row) is not None)
    return int(n)


def _lists(path: str) -> dict[str, Any]:
    from PySide6.QtWidgets import QApplication

    from bench.city import TODAY
    from fieldops.db.engine import Database
    from fieldops.services.context import Actor
    from fieldops.services.impound_list import ImpoundFilter
    from fieldops.services.quarantine.listing import QuarantineFilter
    from fieldops.services.vicious.listing import CaseFilter
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.impounds.list_model import ImpoundTableModel
    from ui.people.page import PeopleAndAnimalsWidget
    from ui.quarantine.list_model import QuarantineTableModel
    from ui.vicious.list_model import CaseTableModel

    app = QApplication.instance() or QApplication([])
    db = Database(f"sqlite:///{path}")
    ctx = build_context(
        db, Actor("bench", "supervisor"), today=lambda: TODAY, errors=ErrorRouter(interactive=False)
    )
    rows: dict[str, int] = {}
    impounds = ImpoundTableModel(ctx)
    impounds.set_filter(ImpoundFilter(status="all"))
    rows["impoundments"] = _scroll(app, impounds)
    quarantines = QuarantineTableModel(ctx)
    quarantines.set_filter(QuarantineFilter(show="all"))
    rows["quarantines"] = _scroll(app, quarantines)
    cases = CaseTableModel(ctx)
    cases.set_filter(CaseFilter(status="all"))
    rows["vicious cases"] = _scroll(app, cases)
    page = PeopleAndAnimalsWidget(ctx)
    page.people_model.search("")
    rows["people"] = _scroll(app, page.people_model)
    page.animals_model.search("")
    rows["animals"] = _scroll(app, page.animals_model)
    ctx.shutdown()
    return {"mb": peak_mb(), "rows": rows}


def _timed(cmd: list[str], timeout: float) -> tuple[subprocess.CompletedProcess[str] | None, float]:
    """``cmd`` run to its end (None: stopped at ``timeout``) and its wall time."""
    t0 = time.perf_counter()
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, env=_env(), timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0
    return done, time.perf_counter() - t0


def _command(path: str) -> dict[str, Any]:
    """The baseline: the same command line starting and answering at once."""
    done, took = _timed([*_python(), "-m", "fieldops.cli", "--db", path, "--version"], 120)
    if done is None or done.returncode != 0:
        raise RuntimeError("fieldops --version did not answer")
    return {"seconds": took, "mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def _register(path: str, year: str) -> dict[str, Any]:
    """Runs the command in a child of this process, its only child: RUSAGE_CHILDREN is its own."""
    from fieldops.db.engine import Database
    from fieldops.services.context import Actor, os_username
    from fieldops.services.staff import set_staff

    # The command acts as the staff account this login is mapped to (on the copy).
    db = Database(f"sqlite:///{path}")
    set_staff(db, Actor("admin", "admin"), "bench", "supervisor", os_user=os_username())
    db.dispose()
    out = Path(tempfile.mkdtemp(prefix="fieldops-bench-")) / f"register-{year}.pdf"
    cmd = [
        *_python(),
        "-m",
        "fieldops.cli",
        "--db",
        path,
        "report",
        "register",
        "--from",
        f"{year}-01-01",
        "--to",
        f"{year}-12-31",
        "--out",
        str(out),
    ]
    done, took = _timed(cmd, REGISTER_TIMEOUT)
    mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    timed_out = done is None
    if done is not None and done.returncode != 0:
        raise RuntimeError(f"the register failed: {(done.stderr or done.stdout)[-2000:]}")
    size = out.stat().st_size if out.exists() else 0
    pages = out.read_bytes().count(b"/Type /Page\n") if out.exists() else 0
    out.unlink(missing_ok=True)
    out.parent.rmdir()
    return {"seconds": took, "mb": mb, "timed_out": timed_out, "bytes": size, "pages": pages}


def main(argv: list[str]) -> int:
    what, *args = argv
    children: dict[str, Callable[..., dict[str, Any]]] = {
        "bare": _bare,
        "command": _command,
        "lists": _lists,
        "register": _register,
    }
    answer = children[what](*args)
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
