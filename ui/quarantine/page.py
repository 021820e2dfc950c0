"""The "Quarantines" area: every bite quarantine, filtered, searched and sorted in SQL."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.services.quarantine import FILTERS
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.widgets import OptionalDateEdit, RecordTableView, SearchField
from ui.context import AppContext
from ui.quarantine import opening
from ui.quarantine.list_model import QuarantineTableModel

SEARCH_HINT = "Animal, owner or quarantine number"


class QuarantinesWidget(ListPage[QuarantineTableModel]):
    """The quarantines list; Enter or double-click opens a quarantine.

    Page protocol: ``focus_search`` (Ctrl+F), ``new_record`` (Ctrl+N: bite report),
    ``refresh`` (F5).
    """

    new_record_label = "&New bite report…"
    count_noun = "quarantine"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("QuarantinesWidget")
        paint_page_white(self)
        self.model = QuarantineTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.view.stretch_column(2)
        self.search = SearchField(SEARCH_HINT)
        self.show_filter = combo(FILTERS)
        self.date_from = OptionalDateEdit("&Any")
        self.date_to = OptionalDateEdit("An&y")
        for edit in (self.date_from, self.date_to):
            edit.date_edit.setDisplayFormat("ddd d MMM yyyy")
            edit.set_default_date(ctx.today())
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.bite_button = QPushButton("&New bite report…")
        self.bite_button.setToolTip("Record a bite and order its quarantine (Ctrl+N)")
        self.week_button = QPushButton("&Week schedule…")
        self.open_button = QPushButton("Op&en")
        heading = QLabel("Quarantines")
        heading.setObjectName("PageHeading")
        caption = QLabel("&Search:")
        caption.setBuddy(self.search)
        top = QHBoxLayout()
        top.addWidget(caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.count)
        top.addSpacing(12)
        for b in (self.bite_button, self.week_button, self.open_button):
            top.addWidget(b)
        filters = QHBoxLayout()
        for text, widget, buddy in (
            ("S&tatus:", self.show_filter, self.show_filter),
            ("Ordered fro&m:", self.date_from, self.date_from.date_edit),
            ("t&o:", self.date_to, self.date_to.date_edit),
        ):
            label = QLabel(text)
            label.setBuddy(buddy)
            filters.addWidget(label)
            filters.addWidget(widget)
            filters.addSpacing(8)
        filters.addStretch(1)
        header = self.view.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(5, Qt.SortOrder.AscendingOrder)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(top)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.show_filter.currentIndexChanged.connect(self._on_filters_changed)
        for edit in (self.date_from, self.date_to):
            edit.date_edit.dateChanged.connect(self._on_filters_changed)
            edit.unknown.toggled.connect(self._on_filters_changed)
        header.sortIndicatorChanged.connect(self.model.sort)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.bite_button.clicked.connect(self.new_record)
        self.week_button.clicked.connect(self._on_week_button_clicked)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.apply_filters()

    # -- page protocol ---------------------------------------------------

    def new_record(self) -> None:
        opening.new_bite_report(self.ctx, self)

    def apply_filters(self) -> None:
        self.model.set_filter(
            replace(
                self.model.filter(),
                show=self.show_filter.currentData(),
                date_from=self.date_from.value(),
                date_to=self.date_to.value(),
                text=self._text,
            )
        )

    def set_show(self, key: str) -> None:
        self.show_filter.setCurrentIndex(self.show_filter.findData(key))

    # -- slots -----------------------------------------------------------

    def _on_view_opened(self, row: int) -> None:
        r = self.model.row_object(row)
        if r is not None:
            opening.open_quarantine(self.ctx, r.id, self)

    def _on_week_button_clicked(self) -> None:
        opening.open_week(self.ctx, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("quarantine", "bite_report", "animal", "person"):
            self.refresh()
