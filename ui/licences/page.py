"""The "Licences and permits" area: a tab for dog licences and one for permits (the
permits tab is the permits module's ``ui.permits.page.PermitsTab``, shown when present)."""

from __future__ import annotations

import importlib
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.licences.listing import FILTERS
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext
from ui.licences import opening
from ui.licences.list_model import LicenceTableModel

SEARCH_HINT = "Tag, owner, address, microchip or dog"


class LicencesTab(ListPage[LicenceTableModel]):
    """The licences list; Enter or double-click opens a licence."""

    new_record_label = "&New dog licence…"
    count_noun = "licence"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("LicencesTab")
        self.model = LicenceTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.view.stretch_column(3)
        self.search = SearchField(SEARCH_HINT)
        self.show_filter = combo(FILTERS)
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.issue_button = QPushButton("&New dog licence…")
        self.issue_button.setToolTip("Issue a dog licence at the counter (Ctrl+N)")
        self.open_button = QPushButton("Op&en")
        caption = QLabel("&Search:")
        caption.setBuddy(self.search)
        show = QLabel("Sho&w:")
        show.setBuddy(self.show_filter)
        top = QHBoxLayout()
        top.addWidget(caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.count)
        top.addSpacing(12)
        top.addWidget(show)
        top.addWidget(self.show_filter)
        top.addWidget(self.issue_button)
        top.addWidget(self.open_button)
        header = self.view.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(8, Qt.SortOrder.DescendingOrder)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.show_filter.currentIndexChanged.connect(self._on_filters_changed)
        header.sortIndicatorChanged.connect(self.model.sort)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.issue_button.clicked.connect(self.new_record)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.apply_filters()

    def new_record(self) -> None:
        opening.new_licence(self.ctx, self)

    def apply_filters(self) -> None:
        self.model.set_filter(
            replace(self.model.filter(), show=self.show_filter.currentData(), text=self._text)
        )

    def set_show(self, key: str) -> None:
        self.show_filter.setCurrentIndex(self.show_filter.findData(key))

    def _on_view_opened(self, row: int) -> None:
        r = self.model.row_object(row)
        if r is not None:
            opening.open_licence(self.ctx, r.id, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("dog_licence", "animal", "person"):
            self.refresh()


def permits_tab(ctx: AppContext) -> QWidget | None:
    """The permits module's tab, when it is installed (``ui/permits/page.py``)."""
    try:
        module = importlib.import_module("ui.permits.page")
    except ModuleNotFoundError as exc:
        if exc.name not in ("ui.permits", "ui.permits.page"):
            raise
        return None
    tab: QWidget = module.PermitsTab(ctx)
    return tab


class LicencesAndPermitsWidget(QWidget):
    """The area's page: Licences and Permits tabs; the page protocol goes to the tab shown."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("LicencesAndPermitsWidget")
        paint_page_white(self)
        heading = QLabel("Licences and permits")
        heading.setObjectName("PageHeading")
        self.tabs = QTabWidget()
        self.licences = LicencesTab(ctx)
        self.tabs.addTab(self.licences, "Dog &licences")
        self.permits = permits_tab(ctx)
        if self.permits is not None:
            self.tabs.addTab(self.permits, "&Permits")
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.tabs, 1)

    @property
    def new_record_label(self) -> str:
        tab = self.tabs.currentWidget()
        return str(getattr(tab, "new_record_label", "&New…"))

    def _tab(self) -> QWidget:
        return self.tabs.currentWidget()

    def focus_search(self) -> None:
        getattr(self._tab(), "focus_search", lambda: None)()

    def new_record(self) -> None:
        getattr(self._tab(), "new_record", lambda: None)()

    def refresh(self) -> None:
        getattr(self._tab(), "refresh", lambda: None)()
