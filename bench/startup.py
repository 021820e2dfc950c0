"""Start-up: ``fieldops --db FILE`` against a bare PySide6 window, in the same run.

Baseline: a process that shows a bare window with a 20-row table, lets the event
loop run one pass and exits (the whole process, launch to exit). Measured: the
app on a demo database, signed in, from launch to its painted main window (its
frame, painted before the database layer is imported) and to Today filled
(``FIELDOPS_EXIT_AFTER_PAINT``, ui/app.py: the window signs in as the command
line would, prints both times and exits). Each is the median of five
processes, after one warm-up of each so that both read compiled bytecode (kept
beside the database, not in the source tree) as an installed app does.

Before the table, the start's parts (``ui.app.PHASES``, as the window prints them):
for each, the median of when it ended and of how long it took.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bench.common import Result

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5

BARE_WINDOW = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableWidget, QTableWidgetItem

    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    table = QTableWidget(20, 5)
    for row in range(20):
        for col in range(5):
            table.setItem(row, col, QTableWidgetItem(f"row {row} column {col}"))
    window.setCentralWidget(table)
    window.resize(1280, 800)
    window.show()
    QTimer.singleShot(0, app.quit)  # one pass of the event loop: shown and painted
    app.exec()
""")


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        PYTHONPYCACHEPREFIX=str(cache),
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
    )
    return env


def _bare_window(env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", BARE_WINDOW], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def _app(db: Path, env: dict[str, str]) -> dict[str, float]:
    """Seconds from launch to the painted window ("painted"), to Today filled ("today"),
    and to the end of each of the start's parts ("phase NAME")."""
    started = time.time()
    done = subprocess.run(
        [sys.executable, "-m", "fieldops.cli", "--db", str(db)],
        env={**env, "FIELDOPS_EXIT_AFTER_PAINT": repr(started)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = dict(
        line.rsplit(" ", 1)
        for line in done.stdout.splitlines()
        if line.startswith(("painted ", "today ", "phase "))
    )
    if done.returncode != 0 or not {"painted", "today"} <= set(said):
        raise RuntimeError(
            f"the app did not start and exit (status {done.returncode}):\n"
            f"{done.stdout}\n{done.stderr}"
        )
    return {name: float(seconds) for name, seconds in said.items()}


def phases_table(runs: list[dict[str, float]]) -> str:
    """Each part of the start: when it ended and how long it took (medians, ms)."""
    lines = ["start-up, part by part (median ms: ended at, took)"]
    before = [0.0] * len(runs)
    for name in (key for key in runs[0] if key.startswith("phase ")):
        ended = [run.get(name, float("nan")) for run in runs]
        took = [end - start for end, start in zip(ended, before, strict=True)]
        lines.append(
            f"  {name.removeprefix('phase '):16} {statistics.median(ended) * 1000:7.0f}"
            f" {statistics.median(took) * 1000:+7.0f}"
        )
        before = ended
    return "\n".join(lines)


def demo_database(db: Path, env: dict[str, str]) -> None:
    """The demo database (its first administrator mapped to this login), kept between runs."""
    if db.exists():
        return
    subprocess.run(
        [sys.executable, "-m", "fieldops.cli", "--db", str(db), "demo", "--seed", "3"],
        env=env,
        check=True,
        capture_output=True,
    )


def run(db: Path) -> list[Result]:
    env = _env(db.parent / "pycache")
    demo_database(db, env)
    _bare_window(env), _app(db, env)  # warm-up: bytecode compiled, files in the OS cache
    bare, runs = [], []
    for _ in range(RUNS):  # interleaved, so a busy moment of the machine hits both
        bare.append(_bare_window(env))
        runs.append(_app(db, env))
    painted = [run["painted"] for run in runs]
    filled = [run["today"] for run in runs]
    print(phases_table(runs), flush=True)
    baseline = statistics.median(bare)
    return [
        Result(
            "start-up to painted window",
            statistics.median(painted),
            "bare window",
            baseline,
            max_ratio=1.5,
        ),
        Result(
            "start-up to Today filled",
            statistics.median(filled),
            "bare window",
            baseline,
            max_ratio=3,
        ),
    ]


if __name__ == "__main__":
    import tempfile

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir())
    for result in run(folder / "startup-demo.db"):
        print(result.line())
