"""The "Vicious animals" area: every case, filtered, searched and sorted in SQL, with a live
countdown to each notice's deadline; overdue cases stand out in red."""

from __future__ import annotations

import itertools
from dataclasses import replace

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.services.vicious.listing import FILTERS, CaseFilter
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext
from ui.vicious import opening
from ui.vicious.columns import SORT_KEYS
from ui.vicious.list_model import CaseTableModel

SEARCH_HINT = "Animal, owner, address or case number"
TICK_MS = 30_000  # the countdowns are repainted every half minute


class ViciousWidget(ListPage[CaseTableModel]):
    """The cases list; Enter or double-click opens a case.

    Page protocol: ``focus_search`` (Ctrl+F), ``new_record`` (Ctrl+N: a declaration),
    ``refresh`` (F5).
    """

    new_record_label = "&New declaration…"
    count_noun = "case"
    sort_keys = SORT_KEYS

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ViciousWidget")
        paint_page_white(self)
        self.model = CaseTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.search = SearchField(SEARCH_HINT)
        self.search.setToolTip("Find cases (Ctrl+F). Enter searches at once.")
        self.status = combo(FILTERS)
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.new_button = QPushButton("&New declaration…")
        self.new_button.setToolTip("Declare an animal vicious, or record a refusal (Ctrl+N)")
        self.open_button = QPushButton("Op&en")
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.model.tick)
        self.timer.start()
        self._lay_out()
        self._connect()
        self.apply_filters()

    def _lay_out(self) -> None:
        heading = QLabel("Vicious animals")
        heading.setObjectName("PageHeading")
        search_caption = QLabel("&Search:")
        search_caption.setBuddy(self.search)
        status_caption = QLabel("Sho&w:")
        status_caption.setBuddy(self.status)
        top = QHBoxLayout()
        top.addWidget(search_caption)
        top.addWidget(self.search, 1)
        top.addWidget(status_caption)
        top.addWidget(self.status)
        top.addWidget(self.count)
        top.addSpacing(12)
        top.addWidget(self.new_button)
        top.addWidget(self.open_button)
        header = self.view.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        self._sorted_by = (4, Qt.SortOrder.AscendingOrder)
        header.setSortIndicator(*self._sorted_by)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        chain = [self.search, self.status, self.view, self.new_button, self.open_button]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _connect(self) -> None:
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.status.currentIndexChanged.connect(self._on_filters_changed)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._on_header_sort_changed)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.new_button.clicked.connect(self.new_record)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    # -- page protocol ---------------------------------------------------

    def new_record(self) -> None:
        opening.new_declaration(self.ctx, self)

    # -- filters ---------------------------------------------------------

    def current_filter(self) -> CaseFilter:
        return replace(self.model.filter(), status=self.status.currentData(), text=self._text)

    def apply_filters(self) -> None:
        self.model.set_filter(self.current_filter())

    def show_status(self, key: str) -> None:
        self.status.setCurrentIndex(self.status.findData(key))

    # -- slots -----------------------------------------------------------

    def _on_view_opened(self, row: int) -> None:
        row_object = self.model.row_object(row)
        if row_object is not None:
            opening.open_case(self.ctx, row_object.id, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("vicious_case", "animal", "person"):
            self.refresh()
