"""UI fixtures: the main window on a fresh SQLite database, with errors recorded
instead of shown, and helpers that wait for background tasks like a user waits
for the screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QApplication, QWidget

from ui.app import build_main_window, configure_application
from ui.errors import BUG, ErrorRouter

# The offscreen platform cannot resize a shown window to a new minimum size and
# says so on every layout change; it is the test platform talking, not the app.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/ui/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture
def errors() -> ErrorRouter:
    return ErrorRouter(interactive=False)


@pytest.fixture
def window(qtbot, qapp, sqlite_db, operator, today, errors):
    """The main window on an empty database, showing People and animals."""
    configure_application(qapp)
    w = build_main_window(sqlite_db, operator, today=lambda: today, errors=errors)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    # These tests are about People and animals, whichever area the app opens on.
    w.show_area("people")
    # Shown as a user sees it: the first lists counted and shown.
    qtbot.waitUntil(lambda: w.ctx.tasks.pending_count() == 0, timeout=10_000)
    yield w
    w.ctx.shutdown()
    QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"


@pytest.fixture
def ctx(window):
    return window.ctx


@pytest.fixture
def wait_idle(qtbot, ctx) -> Callable[[], None]:
    """Wait until every background task has delivered its result."""

    def wait() -> None:
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)

    return wait


@pytest.fixture
def wait_dialog(qtbot) -> Callable[[str], QWidget]:
    """Wait for a visible window with the given object name (a dialog that opened)."""

    def wait(name: str) -> QWidget:
        found: list[QWidget] = []

        def shown() -> bool:
            found[:] = [
                w
                for w in QApplication.topLevelWidgets()
                if w.objectName() == name and w.isVisible()
            ]
            return bool(found)

        qtbot.waitUntil(shown, timeout=10_000)
        dialog = found[-1]
        # A window manager activates a new dialog; the offscreen platform needs asking.
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5_000)
        return dialog

    return wait


@pytest.fixture
def activate(qtbot) -> Callable[[QWidget], None]:
    """Make a window active, as the window manager does when the dialog above it closes."""

    def make_active(window: QWidget) -> None:
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)

    return make_active


@pytest.fixture
def rows_of() -> Callable[..., list[tuple[str, ...]]]:
    """The rows of a table view as a user reads them (the first ``columns`` columns)."""

    def rows(view, columns: int | None = None) -> list[tuple[str, ...]]:
        model = view.model()
        n = columns or model.columnCount()
        return [
            tuple(model.index(r, c).data() or "" for c in range(n)) for r in range(model.rowCount())
        ]

    return rows
