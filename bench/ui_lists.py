"""The People and animals page over a million people, against a bare Qt window.

Baseline (TOOLCHAIN.md): a QMainWindow with a 20-row table shown and its
first paint done, measured in this run. The page must open with its counts
and first rows, and answer a search, within a small multiple of that: the
user sees no pause. Run offscreen (``make bench``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench.common import Result, median_time


def _wait(app, done, timeout=30.0) -> None:
    end = time.perf_counter() + timeout
    while not done():
        app.processEvents()
        if time.perf_counter() > end:
            raise TimeoutError("the page did not answer in time")
        time.sleep(0.001)


def run(path: Path, people: int) -> list[Result]:
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableView

    from bench import registry
    from fieldops.services.context import Actor
    from ui.app import build_main_window, configure_application
    from ui.errors import ErrorRouter

    # The offscreen platform's note on every resize is not the app talking.
    qInstallMessageHandler(
        lambda mode, ctx, msg: None if "propagateSizeHints" in msg else print(msg)
    )
    app = QApplication.instance() or QApplication([])
    configure_application(app)
    db = registry.build(path, people)

    class Twenty(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else 20

        def columnCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else 5

        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            return (
                f"{index.row()},{index.column()}" if role == Qt.ItemDataRole.DisplayRole else None
            )

    def bare_window():
        w = QMainWindow()
        view = QTableView()
        view.setModel(Twenty())
        w.setCentralWidget(view)
        w.resize(1280, 800)
        w.show()
        app.processEvents()
        w.grab()  # the first paint, done
        w.close()
        w.deleteLater()
        app.processEvents()

    def open_people_page():
        w = build_main_window(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
        w.show()
        page = w.show_area("people")
        _wait(app, lambda: page.people_model.has_answer() and page.animals_model.has_answer())
        w.grab()
        w.ctx.shutdown()
        w.close()
        w.deleteLater()
        app.processEvents()

    w = build_main_window(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    w.show()
    page = w.show_area("people")
    _wait(app, lambda: page.people_model.has_answer())

    def search(text):
        def go():
            before = page.people_model
            before.search(text)
            _wait(app, lambda: not before.is_searching())
            w.grab()

        return go

    base = median_time(bare_window)
    results = [
        Result(
            "People page opens: counts and first rows shown",
            median_time(open_people_page),
            "bare window, 20-row table",
            base,
            10,
        ),
        Result(
            "search 'ruiz' answered and painted",
            median_time(search("ruiz")),
            "bare window, 20-row table",
            base,
            10,
        ),
        Result(
            "search '608-555-0142' answered and painted",
            median_time(search("608-555-0142")),
            "bare window, 20-row table",
            base,
            10,
        ),
    ]
    w.ctx.shutdown()
    w.close()
    db.dispose()
    return results
