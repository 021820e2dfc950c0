"""Closing the window with a list query still running ends the process (issue 7, item 8).

The query is made slow on purpose (minutes unless interrupted); the window is
closed while it runs, exactly as a user would, through ``ui.app.run``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import sys, threading, time
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    from sqlalchemy import text

    import ui.app
    import ui.impounds.list_model as list_model
    from fieldops.db.cancel import cancellable
    from ui.main_window import MainWindow

    started = threading.Event()

    real_page = list_model.impounds_page

    def page(db, f, *args):  # the page: a short one is its own count, never waited for
        with db.read() as s, cancellable(s):
            def slow(x):
                started.set()
                time.sleep(0.005)
                return x
            s.connection().connection.dbapi_connection.create_function("slow", 1, slow)
            s.execute(text(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                "WHERE x < 100000) SELECT count(slow(x)) FROM c")).scalar()
        return real_page(db, f, *args)

    list_model.impounds_page = page
    # Signed in without typing (issue 12): the first administrator of the new database.
    from fieldops.services.signin import create_first_admin
    ui.app.sign_in_at_start = lambda db: create_first_admin(db, "ada", "Ada", "x" * 12)
    app = QApplication(sys.argv[:1])

    def step():
        windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
        if not windows:
            return
        window = windows[0]
        if window.current_page() is not window._pages.get("impounds"):
            window.show_area("impounds")
        elif started.is_set():
            print("closing with the query running", flush=True)
            timer.stop()
            window.close()

    timer = QTimer()
    timer.timeout.connect(step)
    timer.start(20)
    code = ui.app.run(sys.argv[1])
    print("run returned", code, flush=True)
    sys.exit(code)
""")


def test_closing_the_window_with_a_query_running_exits(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    script = tmp_path / "close_while_busy.py"
    script.write_text(SCRIPT, encoding="utf-8")
    # Uninterrupted, the query runs for about ten minutes; a waiting exit times out.
    result = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "f.db")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert "closing with the query running" in result.stdout, result.stderr
    assert "run returned 0" in result.stdout, result.stderr
    assert result.returncode == 0, result.stderr
