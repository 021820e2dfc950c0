"""Starting the desktop app: the one place that builds the database, context and windows."""

from __future__ import annotations

import gc
import importlib
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication, QMessageBox

from fieldops import failures, resources
from ui.areas import AREAS, Area
from ui.gc import collect_on_gui_thread
from ui.main_window import MainWindow

if TYPE_CHECKING:
    from fieldops.db.engine import Database
    from fieldops.services.context import Actor
    from fieldops.services.setup import (
        OpenedDatabase,
        command_line_actor,
        open_database,
        take_daily_backup,
    )
    from ui.account.dialogs import sign_in_at_start
    from ui.context import AppContext
    from ui.errors import ErrorRouter

# The database layer, imported once the window's frame is painted (issue 14): these names
# are this module's, so that tests may replace them, and are loaded by the first use.
_LATE = {
    "command_line_actor": "fieldops.services.setup",
    "open_database": "fieldops.services.setup",
    "take_daily_backup": "fieldops.services.setup",
    "sign_in_at_start": "ui.account.dialogs",
}


def __getattr__(name: str) -> Any:
    if name not in _LATE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LATE[name]), name)
    globals()[name] = value
    return value


def _load_database_layer(mark: Callable[[str], object] = lambda _phase: None) -> None:
    """Import what opening the database, signing in and the pages' context need:
    SQLAlchemy and the models first, so that the timing hook can tell the parts apart.

    On the GUI thread, after the paint, not on a thread of its own beside the frame:
    these imports hold the GIL nearly throughout (one started with the application
    spent 300 ms of CPU in its 324 ms), so the frame's own Python work waited on them,
    painted 20 ms later and Today filled no sooner (issue 14)."""
    importlib.import_module("sqlalchemy.orm")
    mark("sqlalchemy")
    importlib.import_module("fieldops.db.models")
    mark("models")
    for name in _LATE:
        if name not in globals():  # a test's replacement stays
            __getattr__(name)
    mark("services")


# The window ends with the command line's exit statuses (fieldops/failures.py); 4 when
# the failure to open is not one of the kinds there (a bug).
EXIT_SCHEMA_TOO_NEW = failures.EXIT_CODES[failures.TOO_NEW]
EXIT_CANNOT_OPEN = 4

# Test-only (bench/startup.py times the start-up with it; no user sets it). Set, the
# window signs in as the command line does (the staff account the real login is mapped
# to, fieldops/services/setup.py: no more than ``fieldops staff`` may already do), prints
# "painted SECONDS" at its frame's first paint (then "loaded-at-paint" and which of
# WATCHED_AT_PAINT were imported by then: none) and "today SECONDS" once Today is filled,
# and exits. SECONDS count from the variable's value, a time.time() taken before the process
# was started (from run() when it is not a number). On the way it prints "phase NAME
# SECONDS" as each part of the start ends (PHASES, in order), for bench/startup.py.
EXIT_AFTER_PAINT = "FIELDOPS_EXIT_AFTER_PAINT"
PHASES = (
    "window-modules",  # the interpreter, PySide6, fieldops.cli and the window's modules
    "painted",  # the application, its style and the frame, shown and painted
    "sqlalchemy",  # SQLAlchemy's engine and ORM imported
    "models",  # the mapped classes
    "services",  # opening, signing in, the pages' context
    "opened",  # the file checked, the engine and its pragmas, the migration check
    "signed-in",  # the staff account (the ORM's mappers configured by its query)
    "built",  # the context, the pages, Today's page and its query started
    "today",  # Today's rows in its table (its query on a worker thread)
    "today-painted",  # the table painted with them
)
_IMPORTED = time.time()  # this module and the frame's imported


def _uses_pyside(module: ModuleType) -> bool:
    """Whether the module uses PySide6: whether it holds a module or a class of PySide6's,
    read from the imported module's names, not from its file."""
    for value in tuple(vars(module).values()):
        if isinstance(value, type):
            owner = value.__module__
        elif isinstance(value, ModuleType):
            owner = value.__name__
        else:
            continue
        if isinstance(owner, str) and owner.startswith("PySide6"):
            return True
    return False


#: PySide6's own test, once replaced by ``lighten_pyside_import_hook``.
PYSIDE_OWN: list[Callable[[ModuleType], bool]] = []


def lighten_pyside_import_hook() -> None:
    """After every import PySide6 asks whether the new module uses it (for its optional
    ``__feature__`` switches, which FieldOps never selects), by searching
    the module's source: ``inspect.getsource`` walks every loaded module, reads the file
    and keeps its lines. The start imports some 360 modules after the frame is painted
    (issue 14); the same question is answered from each module's names instead."""
    try:
        feature = importlib.import_module("shibokensupport.feature")
    except ImportError:  # a PySide6 without it asks nothing
        return
    own = getattr(feature, "_mod_uses_pyside", None)
    if callable(own) and own is not _uses_pyside:
        PYSIDE_OWN.append(own)  # kept: a test compares the two answers
        setattr(feature, "_mod_uses_pyside", _uses_pyside)  # noqa: B010 (a module of PySide6)


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
    from fieldops.rules import Profile
    from ui.context import AppContext
    from ui.errors import ErrorRouter
    from ui.tasks import TaskRunner

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
    window: MainWindow | None = None,
) -> MainWindow:
    """The main window for an open database and a signed-in actor (not yet shown);
    given ``window``, the frame already on screen gets its context and pages."""
    from ui.account.lock import SessionController

    ctx = build_context(db, actor, today=today, errors=errors)
    if window is None:
        window = MainWindow(ctx, areas, backup=backup, backup_problem=backup_problem)
    else:
        window.attach(ctx, backup=backup, backup_problem=backup_problem)
    window.session = SessionController(window)  # type: ignore[attr-defined]
    return window


def show_startup_error(title: str, message: str, details: str = "") -> None:
    # Over the window's frame, which is on screen while the database opens.
    box = QMessageBox(QMessageBox.Icon.Critical, "FieldOps", f"<b>{title}</b>")
    parent = next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)), None)
    if parent is not None and parent.isVisible():
        box.setParent(parent, box.windowFlags())
    box.setInformativeText(message)
    if details:
        box.setDetailedText(details)
    box.exec()


def _database_name(db_arg: str | None) -> str:
    from fieldops.db.engine import describe_url, resolve_url

    try:
        return describe_url(resolve_url(db_arg))
    except Exception:  # an unparseable --db: show what was typed
        return str(db_arg)


def _refuse_start(db_arg: str | None, exc: Exception) -> int:
    """Say why the database cannot be used, and what to do; the exit status."""
    from fieldops.db.engine import resolve_url

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
    from fieldops.db.engine import resolve_url

    try:
        resolve_url(db_arg)
    except Exception:
        return False
    return True


def run(db_arg: str | None) -> int:
    """Show the window's frame, then open the database, sign in (the first administrator
    on a new one) and fill the window; the exit status."""
    lighten_pyside_import_hook()
    running = QApplication.instance()  # a QCoreApplication, as Qt declares it
    app = running if isinstance(running, QApplication) else QApplication(sys.argv[:1])
    configure_application(app)
    # Collections on the GUI thread's timer from now on (ui/gc.py), none inside the start:
    # the imports after the paint would otherwise run a dozen collections over every
    # object they make (issue 14); what the start made is frozen once it is done.
    collect_on_gui_thread()
    timing, began = os.environ.get(EXIT_AFTER_PAINT), time.time()
    # Painted from PySide6 and the window's own modules alone; the database layer (about
    # half a second of imports) loads after the first paint (issue 14).
    window = MainWindow(None)
    start = _Start(
        app, window, db_arg, _StartupTimer(window, _since(timing, began)) if timing else None
    )
    window.show()
    try:
        code = app.exec()
    finally:
        if window.attached:
            window.ctx.shutdown()
        if start.opened is not None:
            start.opened.db.dispose()
        window.hide()
        window.deleteLater()
        gc.unfreeze()  # a process that goes on (a test) collects all of it again
    return start.exit_code if start.exit_code is not None else code


class _Start(QObject):
    """After the frame's first paint: open the database (each refusal said over the frame,
    then the exit status), sign in, and give the window its context and pages."""

    def __init__(
        self, app: QApplication, window: MainWindow, db_arg: str | None, timer: _StartupTimer | None
    ) -> None:
        super().__init__(window)
        self.app, self.window, self.db_arg, self.timer = app, window, db_arg, timer
        self.opened: OpenedDatabase | None = None
        self.exit_code: int | None = None
        self.begun = False
        window.installEventFilter(self)
        # Should no paint come (a window manager that never exposes it), open anyway.
        QTimer.singleShot(2000, self, self._begin)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.begun:
            self.window.removeEventFilter(self)
            QTimer.singleShot(0, self, self._begin)  # once this paint is done
        return False

    def _begin(self) -> None:
        if self.begun:
            return
        self.begun = True
        if self.timer is not None:
            self.timer.on_painted()
        code = self._open()
        if code is not None:
            self.exit_code = code
            self.app.exit(code)

    def _open(self) -> int | None:
        """None once the window shows Today; else the exit status to end with."""
        _load_database_layer(self._mark)
        try:
            # Refuses a damaged file (PRAGMA quick_check), a missing folder or dangling
            # link, a read-only or unreadable one, and a newer schema; an older one is
            # backed up and upgraded now. The day's backup waits until Today shows.
            opened = open_database(self.db_arg, named_by_user=True, daily_backup=False)
        except Exception as exc:
            return _refuse_start(self.db_arg, exc)
        self.opened = opened
        self._mark("opened")
        try:
            # A new database asks for its first administrator; then everyone signs in.
            actor = command_line_actor(opened.db) if self.timer else sign_in_at_start(opened.db)
        except Exception as exc:
            said = failures.describe(exc, opened.db.url)
            message = (
                f"{said.message}\n\n{said.what_to_do}".strip() if said.environment else str(exc)
            )
            show_startup_error("FieldOps could not sign you in.", message, traceback.format_exc())
            return said.exit_code if said.environment else EXIT_CANNOT_OPEN
        if actor is None:  # sign-in cancelled: nothing to show
            return 0
        self._mark("signed-in")
        window = build_main_window(
            opened.db,
            actor,
            backup=opened.upgrade.backup,
            backup_problem=opened.backup_problem,
            window=self.window,
        )
        self._mark("built")
        if self.timer is not None:
            self.timer.watch_today()
        # The modules, classes and functions imported so far live as long as the app:
        # later collections need not walk them again (gc.freeze moves them out of reach).
        gc.freeze()
        if opened.backup_due is not None:  # once Today has its rows, on a worker thread
            _after_today(window, partial(_start_daily_backup, window, opened.backup_due))
        return None

    def _mark(self, phase: str) -> None:
        if self.timer is not None:
            self.timer.phase(phase)


# The day's backup starts at the latest this long after the window has its pages, should
# Today's first answer never come (its query cancelled with its page: a switch of user).
BACKUP_AT_LATEST_MS = 10_000


def _after_today(window: MainWindow, then: Callable[[], object]) -> None:
    """``then`` once the Today page has its first answer (at once without the page): the
    day's backup must not hold back the queries the clerk is waiting for."""
    page = window.page("today")
    settled = getattr(page, "settled", None)
    if page is None or settled is None:
        QTimer.singleShot(0, window, then)
        return
    done = False

    def once() -> None:
        nonlocal done
        if not done:
            done = True
            then()

    settled.connect(once)
    QTimer.singleShot(BACKUP_AT_LATEST_MS, window, once)  # e.g. a switch of user at once


def _start_daily_backup(window: MainWindow, path: Path) -> None:
    """The day's first backup, made while the clerk already works; its problem is shown."""
    window.ctx.tasks.run(take_daily_backup, path, owner=window, on_done=window.show_backup_problem)


def _since(value: str | None, began: float) -> float:
    try:
        return float(value or "")
    except ValueError:
        return began


# What ``EXIT_AFTER_PAINT`` says was loaded at the first paint (tests/test_startup_imports.py).
WATCHED_AT_PAINT = ("sqlalchemy", "fieldops.db", "fieldops.services", "alembic", "reportlab")


class _StartupTimer(QObject):
    """``EXIT_AFTER_PAINT``: when the window was first painted and Today filled; then quit."""

    def __init__(self, window: MainWindow, started: float) -> None:
        super().__init__(window)
        self.window = window
        self.started = started
        self.painted: float | None = None
        self.filled: float | None = None
        self.done = False

    def on_painted(self) -> None:
        """The frame's first paint is done (before the database layer is imported)."""
        self.painted = time.time()
        self.phase("window-modules", _IMPORTED)
        self.phase("painted", self.painted)
        print(f"painted {self.painted - self.started:.4f}", flush=True)
        loaded = [name for name in WATCHED_AT_PAINT if name in sys.modules]
        print("loaded-at-paint " + ",".join(loaded), flush=True)

    def phase(self, name: str, at: float | None = None) -> None:
        print(f"phase {name} {(at or time.time()) - self.started:.4f}", flush=True)

    def watch_today(self) -> None:
        today = self.window.page("today")
        model = getattr(today, "model", None)
        if model is None:  # no Today page: filled once the window has its pages
            self.filled = time.time()
            QTimer.singleShot(0, self, self._finish)
        else:
            model.modelReset.connect(self._on_today_filled)

    def _on_today_filled(self) -> None:
        if self.filled is None:
            self.filled = time.time()
            self.phase("today", self.filled)
            view = getattr(self.window.page("today"), "view", None)
            if view is not None:  # painted now, as the next pass of the loop would
                view.viewport().repaint()
                self.phase("today-painted")
        self._finish()

    def _finish(self) -> None:
        if self.done or not self.painted or self.filled is None:
            return
        self.done = True
        print(f"today {self.filled - self.started:.4f}", flush=True)
        QApplication.quit()
