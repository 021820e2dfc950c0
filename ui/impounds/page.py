"""The "Impounds" area: every impoundment, filtered, searched and sorted in SQL."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.impound_list import STATUSES, ImpoundFilter
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.text import SPECIES
from ui.common.widgets import OptionalDateEdit, RecordTableView, SearchField
from ui.context import AppContext
from ui.impounds import opening
from ui.impounds.columns import SORT_KEYS
from ui.impounds.list_model import ImpoundTableModel

SEARCH_HINT = "Animal, owner, microchip, licence, kennel or impoundment number"


class ImpoundsWidget(ListPage[ImpoundTableModel]):
    """The impounds list with its filters; Enter or double-click opens an impoundment.

    Page protocol: ``focus_search`` (Ctrl+F), ``new_record`` (Ctrl+N: intake),
    ``refresh`` (F5).
    """

    new_record_label = "&New intake…"
    count_noun = "impoundment"
    sort_keys = SORT_KEYS  # "#" and "Status" have no order and keep the current one

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ImpoundsWidget")
        paint_page_white(self)
        self.model = ImpoundTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.search = SearchField(SEARCH_HINT)
        self.search.setToolTip(
            "Find impoundments (Ctrl+F). Enter searches at once; Down moves to the list."
        )
        self.status = combo(STATUSES)
        self.status.setCurrentIndex(self.status.findData(ImpoundFilter().status))
        self.species = combo({"": "All species", **SPECIES})
        self.date_from = OptionalDateEdit("&Any")
        self.date_to = OptionalDateEdit("An&y")
        for edit in (self.date_from, self.date_to):
            edit.date_edit.setDisplayFormat("ddd d MMM yyyy")
            edit.set_default_date(ctx.today())
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.intake_button = QPushButton("&New intake…")
        self.intake_button.setToolTip("Log an animal into the pound (Ctrl+N)")
        self.open_button = QPushButton("Op&en")
        self._lay_out()
        self._connect()
        self.apply_filters()

    def _lay_out(self) -> None:
        heading = QLabel("Impounds")
        heading.setObjectName("PageHeading")
        search_caption = QLabel("&Search:")
        search_caption.setBuddy(self.search)
        top = QHBoxLayout()
        top.addWidget(search_caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.count)
        top.addSpacing(12)
        top.addWidget(self.intake_button)
        top.addWidget(self.open_button)
        filters = QHBoxLayout()
        for caption, widget, buddy in (
            ("S&tatus:", self.status, self.status),
            ("S&pecies:", self.species, self.species),
            ("Impounded fro&m:", self.date_from, self.date_from.date_edit),
            ("t&o:", self.date_to, self.date_to.date_edit),
        ):
            label = QLabel(caption)
            label.setBuddy(buddy)
            filters.addWidget(label)
            filters.addWidget(widget)
            filters.addSpacing(8)
        filters.addStretch(1)
        header = self.view.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        self._sorted_by = self.model.sort_column()
        header.setSortIndicator(*self._sorted_by)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(top)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        chain = [
            self.search,
            self.status,
            self.species,
            self.date_from.date_edit,
            self.date_from.unknown,
            self.date_to.date_edit,
            self.date_to.unknown,
            self.view,
            self.intake_button,
            self.open_button,
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _connect(self) -> None:
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.status.currentIndexChanged.connect(self._on_filters_changed)
        self.species.currentIndexChanged.connect(self._on_filters_changed)
        for edit in (self.date_from, self.date_to):
            edit.date_edit.dateChanged.connect(self._on_filters_changed)
            edit.unknown.toggled.connect(self._on_filters_changed)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._on_header_sort_changed)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.intake_button.clicked.connect(self.new_record)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    # -- page protocol ---------------------------------------------------

    def new_record(self) -> None:
        opening.new_intake(self.ctx, self)

    # -- filters ---------------------------------------------------------

    def current_filter(self) -> ImpoundFilter:
        """The filter the widgets describe, with the list's current sort."""
        return replace(
            self.model.filter(),
            status=self.status.currentData(),
            species=self.species.currentData(),
            date_from=self.date_from.value(),
            date_to=self.date_to.value(),
            text=self._text,
        )

    def apply_filters(self) -> None:
        self.model.set_filter(self.current_filter())

    def show_only_status(self, key: str) -> None:
        """The impoundments of one status and no other filter: what a Today line counts
        (``opening.open_past_hold``), so that the list shows the same animals."""
        edits = (self.date_from, self.date_to)
        quiet = (self.status, self.species, self.search, *(w.date_edit for w in edits))
        blockers = [QSignalBlocker(w) for w in (*quiet, *(w.unknown for w in edits))]
        self.status.setCurrentIndex(self.status.findData(key))
        self.species.setCurrentIndex(self.species.findData(""))
        self.set_date_range(None, None)
        self.search.clear()
        self._text = ""
        for blocker in blockers:
            blocker.unblock()
        self.apply_filters()

    def set_date_range(self, start: date | None, end: date | None) -> None:
        self.date_from.set_value(start)
        self.date_to.set_value(end)

    # -- slots -----------------------------------------------------------

    def _on_view_opened(self, row: int) -> None:
        row_object = self.model.row_object(row)
        if row_object is not None:
            opening.open_impoundment(self.ctx, row_object.id, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("impoundment", "animal", "person"):
            self.refresh()
