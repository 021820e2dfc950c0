"""The main window: navigation over the areas, the current page, and the status bar."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QStackedWidget,
    QWidget,
)

from ui.areas import AREAS, Area, build_page
from ui.common.pages import Creates, HasPageActions, NamesNewRecord, Refreshable, Searchable

if TYPE_CHECKING:  # the frame is painted before these (and SQLAlchemy) are imported
    from fieldops.services.context import Actor
    from ui.context import AppContext

OPENING = "Opening the database…"


def signed_in_text(actor: Actor) -> str:
    name = actor.full_name or actor.username
    who = name if name == actor.username else f"{name} ({actor.username})"
    return f"Signed in as {who}, {actor.role}"


class NavigationWidget(QListWidget):
    """The list of areas down the left side."""

    def __init__(self, areas: Sequence[Area], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("NavigationWidget")
        self.setAccessibleName("Areas")
        for i, area in enumerate(areas, start=1):
            self.addItem(area.title)
            self.item(i - 1).setToolTip(f"{area.title} (Ctrl+{i})")
        self.setFixedWidth(210)


class MainWindow(QMainWindow):
    """The window; built with ``ctx=None`` it is only its frame, saying the database is
    being opened (painted before the database layer loads, issue 14), until ``attach``."""

    ctx: AppContext

    def __init__(
        self,
        ctx: AppContext | None,
        areas: Sequence[Area] = AREAS,
        *,
        backup: Path | None = None,
        backup_problem: str = "",
    ) -> None:
        super().__init__()
        self.areas = tuple(areas)
        self.attached = False
        self.setObjectName("MainWindow")
        self.setWindowTitle("FieldOps")
        self.resize(1280, 800)
        self._pages: dict[str, QWidget] = {}
        self.navigation = NavigationWidget(self.areas)
        self.stack = QStackedWidget()
        self.opening = QLabel(OPENING)
        self.opening.setObjectName("OpeningDatabase")
        self.opening.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.opening)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.navigation)
        row.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self._build_menus()
        self._build_status_bar()
        self.navigation.currentRowChanged.connect(self._on_navigation_current_row_changed)
        self.navigation.setEnabled(False)  # nothing to go to until the database is open
        self._go_group.setEnabled(False)
        if ctx is not None:
            self.attach(ctx, backup=backup, backup_problem=backup_problem)

    def attach(
        self, ctx: AppContext, *, backup: Path | None = None, backup_problem: str = ""
    ) -> None:
        """The database is open and the user signed in: the window gets its pages."""
        self.ctx = ctx
        self.attached = True
        self.setWindowTitle(f"FieldOps — {ctx.jurisdiction} — {ctx.db.description}")
        if backup is not None:
            self.backup_label.setText(f"The database was upgraded; the old one is kept at {backup}")
            self.backup_label.show()
        self.show_backup_problem(backup_problem)
        self.database_label.setText(f"Database: {ctx.db.description}")
        self.user_label.setText(signed_in_text(ctx.actor))
        self.navigation.setEnabled(True)
        self._go_group.setEnabled(True)
        start = next((a.key for a in self.areas if a.page is not None), self.areas[0].key)
        self.show_area(start)
        self.stack.removeWidget(self.opening)
        self.opening.deleteLater()

    # -- areas -----------------------------------------------------------

    def show_area(self, key: str) -> QWidget:
        """Show an area's page, building it the first time (none while the database opens)."""
        if not self.attached:
            return self.current_page()
        index = next(i for i, a in enumerate(self.areas) if a.key == key)
        page = self._pages.get(key)
        if page is None:
            from ui.account import restrict_page

            page = build_page(self.areas[index], self.ctx)
            restrict_page(self.ctx, key, page)  # what the role may not do is not offered
            self._pages[key] = page
            self.stack.addWidget(page)
        self.stack.setCurrentWidget(page)
        self.navigation.setCurrentRow(index)
        self._go_actions[index].setChecked(True)
        self._update_records_menu(page)
        return page

    def current_area(self) -> str:
        return self.areas[self.navigation.currentRow()].key

    def current_page(self) -> QWidget:
        page = self.stack.currentWidget()
        assert page is not None  # __init__ shows the first area; pages are never removed
        return page

    def page(self, key: str) -> QWidget | None:
        return self._pages.get(key)

    def signed_in_as(self, actor: Actor) -> None:
        """Another user signed in (Switch user): every page is rebuilt for their role."""
        current = self.current_area()
        self.ctx.actor = actor
        for page in self._pages.values():
            self.stack.removeWidget(page)
            page.deleteLater()
        self._pages.clear()
        self.user_label.setText(signed_in_text(actor))
        self.show_area(current)

    # -- menus -----------------------------------------------------------

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        quit_action = file_menu.addAction("&Quit")
        quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        quit_action.triggered.connect(self.close)

        self.records_menu = bar.addMenu("&Records")
        self.find_action = QAction("&Find…", self)
        self.find_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Find))
        self.new_action = QAction("&New…", self)
        self.new_action.setShortcut(QKeySequence(QKeySequence.StandardKey.New))
        self.refresh_action = QAction("&Refresh", self)
        self.refresh_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Refresh))
        self.find_action.triggered.connect(self._on_find_action_triggered)
        self.new_action.triggered.connect(self._on_new_action_triggered)
        self.refresh_action.triggered.connect(self._on_refresh_action_triggered)

        go_menu = bar.addMenu("&Go")
        group = self._go_group = QActionGroup(self)
        self._go_actions: list[QAction] = []
        for i, area in enumerate(self.areas, start=1):
            action = go_menu.addAction(f"&{i} {area.title}")
            action.setCheckable(True)
            action.setShortcut(QKeySequence(f"Ctrl+{i}"))
            action.setData(area.key)
            group.addAction(action)
            action.triggered.connect(self._on_go_action_triggered)
            self._go_actions.append(action)
        go_menu.addSeparator()
        nav_action = go_menu.addAction("&Area list")
        nav_action.setShortcut(QKeySequence("F6"))
        nav_action.triggered.connect(self._on_nav_action_triggered)

        help_menu = bar.addMenu("&Help")
        help_menu.addAction("&About FieldOps").triggered.connect(self._on_about_action_triggered)

    def _update_records_menu(self, page: QWidget) -> None:
        from ui.account import may_create

        # Page actions sit in the menu only while their page shows, so two
        # pages may use the same shortcut without making it ambiguous.
        self.records_menu.clear()
        self.find_action.setEnabled(isinstance(page, Searchable))
        area = next((k for k, p in self._pages.items() if p is page), "")
        self.new_action.setEnabled(isinstance(page, Creates) and may_create(self.ctx, area))
        self.new_action.setText(
            page.new_record_label if isinstance(page, NamesNewRecord) else "&New…"
        )
        self.refresh_action.setEnabled(isinstance(page, Refreshable))
        for action in (self.find_action, self.new_action, self.refresh_action):
            self.records_menu.addAction(action)
        extra = page.page_actions() if isinstance(page, HasPageActions) else []
        if extra:
            self.records_menu.addSeparator()
            self.records_menu.addActions(extra)

    # -- status bar ------------------------------------------------------

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.backup_label = QLabel(self)
        self.backup_label.setObjectName("BackupNote")
        bar.addWidget(self.backup_label, 1)
        self.backup_label.hide()
        self.database_label = QLabel()
        self.user_label = QLabel()
        bar.addPermanentWidget(self.database_label)
        bar.addPermanentWidget(self.user_label)

    def show_backup_problem(self, problem: str) -> None:
        """Why the day's backup could not be made ("" : it was, or it was not due)."""
        if not problem:
            return
        # Work goes on, but nobody should think today is backed up.
        self.backup_label.setObjectName("BackupProblem")
        self.backup_label.setText(f"Today's backup could not be made: {problem}")
        self.backup_label.setToolTip(
            "An administrator can back up from Administration once the cause is fixed."
        )
        self.backup_label.style().unpolish(self.backup_label)  # its look follows its name
        self.backup_label.style().polish(self.backup_label)
        self.backup_label.show()

    # -- slots -----------------------------------------------------------

    def _on_navigation_current_row_changed(self, row: int) -> None:
        if 0 <= row < len(self.areas) and self.current_page() is not self._pages.get(
            self.areas[row].key
        ):
            self.show_area(self.areas[row].key)

    def _on_go_action_triggered(self) -> None:
        action = self.sender()
        assert isinstance(action, QAction)  # only the Go menu's actions connect here
        page = self.show_area(action.data())
        if isinstance(page, Searchable):
            page.focus_search()
        else:
            page.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_nav_action_triggered(self) -> None:
        self.navigation.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # An action is enabled only while its page offers it (_update_records_menu).

    def _on_find_action_triggered(self) -> None:
        page = self.current_page()
        if isinstance(page, Searchable):
            page.focus_search()

    def _on_new_action_triggered(self) -> None:
        page = self.current_page()
        if isinstance(page, Creates):
            page.new_record()

    def _on_refresh_action_triggered(self) -> None:
        page = self.current_page()
        if isinstance(page, Refreshable):
            page.refresh()

    def _on_about_action_triggered(self) -> None:
        if not self.attached:
            return
        from ui.about import AboutDialog  # version, Qt and PySide6, the database (issue 14)

        AboutDialog(self.ctx, self).exec()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.attached:
            self.ctx.shutdown()
        super().closeEvent(event)
