"""Start-up loads only what the first screen needs (issue 14).

Alembic (with Mako and Pygments) is for upgrading a database, ReportLab for
printing, SQLAlchemy's PostgreSQL dialect for a PostgreSQL database: the window
opening on an up-to-date SQLite database, ``fieldops due`` and ``fieldops --version``
load none of them. Each case runs in a fresh process, as a user starts it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fieldops.db.engine import Database
from fieldops.services.context import os_username
from fieldops.services.signin import create_first_admin
from ui.app import PHASES

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("alembic", "reportlab", "mako", "pygments")
# What a SQLite database never needs (its partial indexes name no dialect: models/base.py).
OTHER_DIALECTS = ("sqlalchemy.dialects.postgresql", "psycopg", "psycopg2")
# What Today does not need of the modules' services (fieldops/later.py): demo data,
# reports, history words, release charges, cautions, and the services behind them;
# nor the record views and URL handling imported only for their names.
NOT_FOR_TODAY = (
    "fieldops.demo",
    "fieldops.services.pound_demo",
    "fieldops.services.pound_activity",
    "fieldops.services.registers",
    "fieldops.services.history",
    "fieldops.services.quarantine.bites",
    "fieldops.services.quarantine.fees",
    "fieldops.services.quarantine.history_words",
    "fieldops.services.vicious.cases",
    "fieldops.services.vicious.reporting",
    "fieldops.services.vicious.activity",
    "fieldops.services.licences.history_words",
    "fieldops.services.permits.history_words",
    "fieldops.services.licences.selftest_steps",  # fieldops --self-test's steps
    "fieldops.services.permits.selftest_steps",
    "fieldops.services.permits.places",  # a call's history by address
    "fieldops.services.impound_views",  # the pound's record views (ui/common/text.py)
    "urllib.request",  # and with it HTTP and e-mail parsing (fieldops/check.py)
    "http.client",
)

# Runs ``fieldops ARGS`` in this process, then says which of the modules were loaded.
# and how many garbage collections of each generation ran.
SCRIPT = textwrap.dedent("""
    import gc, json, sys
    collections = [0, 0, 0]
    def count(phase, info):
        if phase == "stop":
            collections[info["generation"]] += 1
    gc.callbacks.append(count)
    import fieldops.cli
    try:
        code = fieldops.cli.main(sys.argv[2:])
    except SystemExit as exc:  # --version
        code = exc.code
    loaded = [m for m in json.loads(sys.argv[1]) if m in sys.modules]
    print("loaded " + json.dumps(loaded), flush=True)
    print("collections " + json.dumps(collections), flush=True)
    sys.exit(code)
""")


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """An up-to-date database whose administrator is this computer login (no dialog)."""
    path = tmp_path_factory.mktemp("startup") / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    try:
        create_first_admin(db, "ada", "Ada Admin", "x" * 12, os_user=os_username())
    finally:
        db.dispose()
    return path


def _start(*args: str, watch: tuple[str, ...] = HEAVY, **env: str) -> tuple[list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(watch), *args],
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    loaded: list[str] = json.loads(_said(done.stdout, "loaded"))
    return loaded, done.stdout


def _said(out: str, what: str) -> str:
    (line,) = [x for x in out.splitlines() if x.startswith(what + " ")]
    return line.removeprefix(what + " ")


def test_the_window_opens_and_fills_today_without_alembic_or_reportlab(database: Path) -> None:
    started = time.time()
    loaded, out = _start(
        "--db",
        str(database),
        watch=(*HEAVY, *OTHER_DIALECTS, *NOT_FOR_TODAY),
        FIELDOPS_EXIT_AFTER_PAINT=repr(started),
    )
    assert loaded == []
    # The frame was painted before the database layer was imported (ui/app.py).
    assert "loaded-at-paint " in out.splitlines()
    # After the frame, collections run on the GUI thread's timer: none over the whole
    # heap during the start (the imports after the paint ran some 190 more, and a full
    # one), and none while the window's modules import (fieldops/cli.py): those of the
    # command line's own imports alone, about 16 (45 with the window's).
    (young, middle, full) = json.loads(_said(out, "collections"))
    assert full == 0 and young + middle < 25, (young, middle, full)
    said = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    # The timing option saw the window painted, then Today filled, after the start.
    assert 0 < float(said["painted"]) <= float(said["today"]) < time.time() - started
    # ... and each part of the start end, in order (bench/startup.py prints them).
    phases = [line.split()[1:] for line in out.splitlines() if line.startswith("phase ")]
    assert [name for name, _ in phases] == list(PHASES)
    ends = [float(at) for _, at in phases]
    assert ends == sorted(ends) and ends[PHASES.index("today")] == float(said["today"])


def test_fieldops_due_reads_without_alembic_or_reportlab(database: Path) -> None:
    loaded, out = _start("--db", str(database), "due", watch=(*HEAVY, *OTHER_DIALECTS))
    assert loaded == []
    assert "Due on" in out


def test_fieldops_version_loads_neither_the_database_layer_nor_qt() -> None:
    loaded, out = _start("--version", watch=(*HEAVY, "sqlalchemy", "PySide6"))
    assert loaded == []
    assert out.startswith("fieldops ")


# A refused database, in a fresh process: its message is shown over the window's frame,
# already painted without the database layer, and the process ends with its status.
REFUSED = textwrap.dedent("""
    import sys
    import fieldops.cli
    import ui.app
    from PySide6.QtWidgets import QApplication

    def said(title, message, details=""):
        frames = [w for w in QApplication.topLevelWidgets()
                  if isinstance(w, ui.app.MainWindow) and w.isVisible()]
        over = frames and not frames[0].attached and frames[0].opening.text()
        print("refused " + title + " | over " + str(over), flush=True)

    ui.app.show_startup_error = said
    sys.exit(fieldops.cli.main(sys.argv[1:]))
""")


def test_a_refused_database_is_said_over_the_painted_frame_with_its_status(
    tmp_path: Path,
) -> None:
    from fieldops.failures import EXIT_CODES, NOT_A_DATABASE

    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", REFUSED, "--db", str(folder)],
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            "FIELDOPS_EXIT_AFTER_PAINT": repr(time.time()),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == EXIT_CODES[NOT_A_DATABASE], done.stdout + done.stderr
    assert "loaded-at-paint " in lines  # neither SQLAlchemy nor fieldops.db at the paint
    assert "refused FieldOps could not open its database. | over Opening the database…" in lines
    assert not any(line.startswith("today ") for line in lines)
