"""Starting the desktop app: the one place that builds the database, context and windows."""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QMessageBox

from fieldops import failures, resources
from fieldops.db.engine import Database, describe_url, resolve_url
from fieldops.rules import Profile
from fieldops.services.context import Actor
from fieldops.services.setup import command_line_actor, open_database, take_daily_backup
from ui.account.dialogs import sign_in_at_start
from ui.areas import AREAS, Area
from ui.context import AppContext
from ui.errors import ErrorRouter
from ui.main_window import MainWindow
from ui.tasks import TaskRunner

# The window ends with the command line's exit statuses (fieldops/failures.py); 4 when
# the failure to open is not one of the kinds there (a bug).
EXIT_SCHEMA_TOO_NEW = failures.EXIT_CODES[failures.TOO_NEW]
EXIT_CANNOT_OPEN = 4

# Test-only (bench/startup.py times the start-up with it; no user sets it). Set, the
# window signs in as the command line does (the staff account the real login is mapped
# to, fieldops/services/setup.py: no more than ``fieldops staff`` may already do), prints
# "painted SECONDS" at its first paint and "today SECONDS" once Today is filled, and
# exits. SECONDS count from the variable's value, a time.time() taken before the process
# was started (from run() when it is not a number).
EXIT_AFTER_PAINT = "FIELDOPS_EXIT_AFTER_PAINT"


def stylesheet() -> str:
    return resources.read_text(resources.STYLESHEET)


def app_icon() -> QIcon:
    """The FieldOps badge at every size it was rendered at (resources/icons)."""
    icon = QIcon()
    for size in resources.ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(resources.read_bytes(resources.icon_png(size)), "PNG"):
            icon.addPixmap(pixmap)
    return icon


def configure_application(app: QApplication) -> None:
    app.setApplicationName("FieldOps")
    app.setOrganizationName("City Animal Control")
    app.setOrganizationDomain("fieldops.local")
    app.setDesktopFileName(resources.APP_ID)  # the desktop entry, so docks show our icon
    app.setWindowIcon(app_icon())  # every window and dialog without its own icon shows it
    app.setStyle("Fusion")  # the same look on every desktop; the stylesheet builds on it
    app.setStyleSheet(stylesheet())


def build_context(
    db: Database,
    actor: Actor,
    *,
    today: Callable[[], date] | None = None,
    errors: ErrorRouter | None = None,
) -> AppContext:
    """Everything a page needs; ``today`` and ``errors`` are for tests to fix."""
    profile = Profile.default()  # the jurisdiction (RULES.md section 5)
    zone = profile.timezone
    errors = errors or ErrorRouter()
    if errors.database is None:
        errors.database = db.url
    return AppContext(
        db=db,
        actor=actor,
        tasks=TaskRunner(errors),
        errors=errors,
        today=today or (lambda: datetime.now(zone).date()),
        timezone=zone,
        jurisdiction=profile.name,
        profile=profile,
    )


def build_main_window(
    db: Database,
    actor: Actor,
    *,
    today: Callable[[], date] | None = None,
    errors: ErrorRouter | None = None,
    backup: Path | None = None,
    backup_problem: str = "",
    areas: Sequence[Area] = AREAS,
) -> MainWindow:
    """The main window for an open database and a signed-in actor (not yet shown)."""
    from ui.account.lock import SessionController

    ctx = build_context(db, actor, today=today, errors=errors)
    window = MainWindow(ctx, areas, backup=backup, backup_problem=backup_problem)
    window.session = SessionController(window)  # type: ignore[attr-defined]
    return window


def show_startup_error(title: str, message: str, details: str = "") -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, "FieldOps", f"<b>{title}</b>")
    box.setInformativeText(message)
    if details:
        box.setDetailedText(details)
    box.exec()


def _database_name(db_arg: str | None) -> str:
    try:
        return describe_url(resolve_url(db_arg))
    except Exception:  # an unparseable --db: show what was typed
        return str(db_arg)


def _refuse_start(db_arg: str | None, exc: Exception) -> int:
    """Say why the database cannot be used, and what to do; the exit status."""
    said = failures.describe(exc, resolve_url(db_arg) if _parses(db_arg) else db_arg)
    if said.kind == failures.TOO_NEW:
        show_startup_error("This database is newer than this copy of FieldOps.", said.line())
        return said.exit_code
    if said.kind == failures.DAMAGED:
        show_startup_error(
            "This database is damaged: FieldOps will not work on it.",
            f"{said.message}\n\n{said.what_to_do}",
        )
        return said.exit_code
    if said.kind == failures.BUG:
        message = f"{exc}\n\nCheck that the file or server exists and that you may use it."
    else:
        message = f"{said.message}\n\n{said.what_to_do}".strip()
    show_startup_error(
        "FieldOps could not open its database.",
        f"Database: {_database_name(db_arg)}\n\n{message}",
        traceback.format_exc(),
    )
    return EXIT_CANNOT_OPEN if said.kind == failures.BUG else said.exit_code


def _parses(db_arg: str | None) -> bool:
    try:
        resolve_url(db_arg)
    except Exception:
        return False
    return True


def run(db_arg: str | None) -> int:
    """Open the database, sign in (the first administrator on a new one), show the window."""
    running = QApplication.instance()  # a QCoreApplication, as Qt declares it
    app = running if isinstance(running, QApplication) else QApplication(sys.argv[:1])
    configure_application(app)
    timing, began = os.environ.get(EXIT_AFTER_PAINT), time.time()
    try:
        # Refuses, before the window, a damaged file (PRAGMA quick_check), a missing
        # folder or dangling link, a read-only or unreadable one, and a newer schema;
        # an older one is backed up and upgraded now. The day's backup waits for the
        # first paint (below).
        opened = open_database(db_arg, named_by_user=True, daily_backup=False)
    except Exception as exc:
        return _refuse_start(db_arg, exc)
    try:
        # A new database asks for its first administrator; then everyone signs in.
        actor = command_line_actor(opened.db) if timing else sign_in_at_start(opened.db)
    except Exception as exc:
        opened.db.dispose()
        said = failures.describe(exc, opened.db.url)
        message = f"{said.message}\n\n{said.what_to_do}".strip() if said.environment else str(exc)
        show_startup_error("FieldOps could not sign you in.", message, traceback.format_exc())
        return said.exit_code if said.environment else EXIT_CANNOT_OPEN
    if actor is None:  # sign-in cancelled: nothing to show
        opened.db.dispose()
        return 0
    window = build_main_window(
        opened.db, actor, backup=opened.upgrade.backup, backup_problem=opened.backup_problem
    )
    window.show()
    if opened.backup_due is not None:  # after the first paint, on a worker thread
        due = opened.backup_due
        QTimer.singleShot(0, window, lambda: _start_daily_backup(window, due))
    if timing:
        _StartupTimer(window, _since(timing, began))
    try:
        return app.exec()
    finally:
        window.ctx.shutdown()
        opened.db.dispose()


def _start_daily_backup(window: MainWindow, path: Path) -> None:
    """The day's first backup, made while the clerk already works; its problem is shown."""
    window.ctx.tasks.run(take_daily_backup, path, owner=window, on_done=window.show_backup_problem)


def _since(value: str, began: float) -> float:
    try:
        return float(value)
    except ValueError:
        return began


class _StartupTimer(QObject):
    """``EXIT_AFTER_PAINT``: when the window was first painted and Today filled; then quit."""

    def __init__(self, window: MainWindow, started: float) -> None:
        super().__init__(window)
        self.started = started
        self.painted: float | None = None
        self.filled: float | None = None
        self.done = False
        window.installEventFilter(self)
        today = window.page("today")
        model = getattr(today, "model", None)
        if model is None:  # no Today page: filled as soon as painted
            self.filled = 0.0
        else:
            model.modelReset.connect(self._on_today_filled)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.painted is None and event.type() == QEvent.Type.Paint:
            # Stamped once the paint is done: the next pass of the event loop.
            QTimer.singleShot(0, self, self._on_painted)
            self.painted = 0.0
        return False

    def _on_painted(self) -> None:
        self.painted = time.time()
        print(f"painted {self.painted - self.started:.4f}", flush=True)
        self._finish()

    def _on_today_filled(self) -> None:
        self.filled = self.filled or time.time()
        self._finish()

    def _finish(self) -> None:
        if self.done or not self.painted or self.filled is None:
            return
        self.done = True
        filled = max(self.filled, self.painted)  # on screen once painted
        print(f"today {filled - self.started:.4f}", flush=True)
        QApplication.quit()
