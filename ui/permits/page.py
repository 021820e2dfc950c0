"""The permits tab: chicken and animal fancier's permits, filtered, searched and sorted in
SQL; the "Licences and permits" area shows it as one of its tabs."""

from __future__ import annotations

import itertools
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.permissions import Permission
from fieldops.services.permits.listing import FILTERS, KINDS, PermitFilter
from ui.account.gate import gate
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext
from ui.permits import opening
from ui.permits.columns import SORT_KEYS
from ui.permits.list_model import PermitTableModel

SEARCH_HINT = "Holder, address or permit number"


class PermitsTab(ListPage[PermitTableModel]):
    """The permits list; Enter or double-click opens a permit.

    Page protocol: ``focus_search`` (Ctrl+F), ``new_record`` (Ctrl+N: a chicken permit),
    ``refresh`` (F5).
    """

    new_record_label = "New &chicken permit…"
    count_noun = "permit"
    sort_keys = SORT_KEYS

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("PermitsTab")
        paint_page_white(self)
        self.model = PermitTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.search = SearchField(SEARCH_HINT)
        self.search.setToolTip("Find permits (Ctrl+F). Enter searches at once.")
        self.status = combo(FILTERS)
        self.kind = combo(KINDS)
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.chicken_button = QPushButton("New &chicken permit…")
        self.fancier_button = QPushButton("New f&ancier's permit…")
        self.open_button = QPushButton("Op&en")
        for b in (self.chicken_button, self.fancier_button):
            gate(ctx, b, Permission.RECORDS)
        self._lay_out()
        self._connect()
        self.apply_filters()

    def _lay_out(self) -> None:
        heading = QLabel("Chicken and animal fancier's permits")
        heading.setObjectName("PageHeading")
        search_caption = QLabel("&Search:")
        search_caption.setBuddy(self.search)
        status_caption = QLabel("Sho&w:")
        status_caption.setBuddy(self.status)
        kind_caption = QLabel("&Kind:")
        kind_caption.setBuddy(self.kind)
        top = QHBoxLayout()
        top.addWidget(search_caption)
        top.addWidget(self.search, 1)
        top.addWidget(status_caption)
        top.addWidget(self.status)
        top.addWidget(kind_caption)
        top.addWidget(self.kind)
        top.addWidget(self.count)
        actions = QHBoxLayout()
        actions.addStretch(1)
        actions.addWidget(self.chicken_button)
        actions.addWidget(self.fancier_button)
        actions.addWidget(self.open_button)
        header = self.view.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        self._sorted_by = (6, Qt.SortOrder.AscendingOrder)
        header.setSortIndicator(*self._sorted_by)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(top)
        layout.addLayout(actions)
        layout.addWidget(self.view, 1)
        chain = [
            self.search,
            self.status,
            self.kind,
            self.view,
            self.chicken_button,
            self.fancier_button,
            self.open_button,
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _connect(self) -> None:
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.status.currentIndexChanged.connect(self._on_filters_changed)
        self.kind.currentIndexChanged.connect(self._on_filters_changed)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._on_header_sort_changed)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.chicken_button.clicked.connect(self.new_record)
        self.fancier_button.clicked.connect(self._on_fancier_button_clicked)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    # -- page protocol ---------------------------------------------------

    def new_record(self) -> None:
        opening.new_chicken_permit(self.ctx, self)

    # -- filters ---------------------------------------------------------

    def current_filter(self) -> PermitFilter:
        return replace(
            self.model.filter(),
            status=self.status.currentData(),
            kind=self.kind.currentData(),
            text=self._text,
        )

    def apply_filters(self) -> None:
        self.model.set_filter(self.current_filter())

    def show_status(self, key: str) -> None:
        self.status.setCurrentIndex(self.status.findData(key))

    # -- slots -----------------------------------------------------------

    def _on_fancier_button_clicked(self) -> None:
        opening.new_fancier_permit(self.ctx, self)

    def _on_view_opened(self, row: int) -> None:
        row_object = self.model.row_object(row)
        if row_object is not None:
            opening.open_permit(self.ctx, row_object.id, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("permit", "person"):
            self.refresh()
