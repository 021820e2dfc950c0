"""Peak memory with every list scrolled to the end.

It runs in a child process, so the figure is that process's own:

- ``run``: the city's database open in the app's context, and every list model
  (Impounds on "All statuses", Quarantines, Vicious cases, Calls, Licences and
  Permits on "All", People and Animals)
  driven as a user drags its scroll bar: the first page, then pages a quarter,
  half and three quarters down, then the last page, each waited for. The
  figure is the child's peak resident memory (``VmHWM``); the baseline is the
  same child with only a bare Qt window and table (what any PySide6 app costs).
  Target: under 300 MB.
The year's register printed (time and memory) is bench/register_year.py's.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Result

MAX_MB = 300.0


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
    from fieldops.services.calls.listing import CallFilter
    from fieldops.services.context import Actor
    from fieldops.services.impound_list import ImpoundFilter
    from fieldops.services.licences.listing import LicenceFilter
    from fieldops.services.permits.listing import PermitFilter
    from fieldops.services.quarantine.listing import QuarantineFilter
    from fieldops.services.vicious.listing import CaseFilter
    from ui.app import build_context
    from ui.calls.list_model import CallTableModel
    from ui.errors import ErrorRouter
    from ui.impounds.list_model import ImpoundTableModel
    from ui.licences.list_model import LicenceTableModel
    from ui.people.page import PeopleAndAnimalsWidget
    from ui.permits.list_model import PermitTableModel
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
    calls = CallTableModel(ctx)
    calls.set_filter(CallFilter(show="all"))
    rows["calls"] = _scroll(app, calls)
    licences = LicenceTableModel(ctx)
    licences.set_filter(LicenceFilter(show="all"))
    rows["licences"] = _scroll(app, licences)
    permits = PermitTableModel(ctx)
    permits.set_filter(PermitFilter(status="all"))
    rows["permits"] = _scroll(app, permits)
    page = PeopleAndAnimalsWidget(ctx)
    page.people_model.search("")
    rows["people"] = _scroll(app, page.people_model)
    page.animals_model.search("")
    rows["animals"] = _scroll(app, page.animals_model)
    ctx.shutdown()
    return {"mb": peak_mb(), "rows": rows}


def main(argv: list[str]) -> int:
    what, *args = argv
    children: dict[str, Callable[..., dict[str, Any]]] = {
        "bare": _bare,
        "lists": _lists,
    }
    answer = children[what](*args)
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
