"""The "Calls" area: open calls first, by priority and age; filters and search in SQL."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import datetime

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.db.engine import Database
from fieldops.reports.calls_day import officer_day_pdf
from fieldops.rules import Profile
from fieldops.rules import calls as rules
from fieldops.services.calls.day import officer_day
from fieldops.services.calls.listing import PERIODS, SHOW, CallFilter
from ui.calls import opening
from ui.calls.list_model import CallTableModel
from ui.common import documents as docs
from ui.common.forms import combo
from ui.common.list_page import ListPage
from ui.common.style import paint_page_white
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext

SEARCH_HINT = "Address, caller, owner, animal or call number"


def day_sheet(db: Database, officer: str, name: str, profile: Profile, at: datetime) -> bytes:
    """The officer's day as a PDF (run off the GUI thread)."""
    d = officer_day(db, officer, at.astimezone(profile.timezone).date(), profile)
    return officer_day_pdf(
        d, officer_name=name, jurisdiction=profile.name, tz=profile.timezone, printed_at=at
    )


class CallsWidget(docs.DocumentQuestions, ListPage[CallTableModel]):
    """The calls list; Enter or double-click opens a call. Ctrl+N takes a new call."""

    new_record_label = "&New call…"
    count_noun = "call"
    sort_keys: tuple[int, ...] = ()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("CallsWidget")
        paint_page_white(self)
        self.model = CallTableModel(ctx, self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.search = SearchField(SEARCH_HINT)
        self.search.setToolTip("Find calls (Ctrl+F). Enter searches at once.")
        self.show_filter = combo(SHOW)
        self.kind_filter = combo(
            {"": "Every kind"} | {k: rules.kind_label(k) for k in rules.CALL_KINDS}
        )
        self.period_filter = combo(PERIODS)
        self.count = QLabel()
        self.count.setObjectName("SearchStatus")
        self.new_button = QPushButton("&New call…")
        self.new_button.setToolTip("Take a call (Ctrl+N)")
        self.open_button = QPushButton("Op&en")
        self.day_button = QPushButton("Officer's da&y")
        self.day_button.setToolTip(
            "My open calls, calls not yet dispatched, follow-ups and "
            "what else is due, as a PDF to print"
        )
        self._lay_out()
        self._connect()
        self.apply_filters()

    def _lay_out(self) -> None:
        heading = QLabel("Calls")
        heading.setObjectName("PageHeading")
        # Two rows: the search and the buttons, then the filters, so the page fits a
        # 1280-pixel screen with the kinds' full names in their box.
        top = QHBoxLayout()
        filters = QHBoxLayout()
        for row, caption, widget, stretch in (
            (top, "&Search:", self.search, 1),
            (filters, "Sho&w:", self.show_filter, 0),
            (filters, "&Kind:", self.kind_filter, 0),
            (filters, "Peri&od:", self.period_filter, 0),
        ):
            label = QLabel(caption)
            label.setBuddy(widget)
            row.addWidget(label)
            row.addWidget(widget, stretch)
        filters.addStretch(1)
        top.addWidget(self.count)
        top.addSpacing(12)
        top.addWidget(self.new_button)
        top.addWidget(self.open_button)
        top.addWidget(self.day_button)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(top)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        chain = [
            self.search,
            self.show_filter,
            self.kind_filter,
            self.period_filter,
            self.view,
            self.new_button,
            self.open_button,
            self.day_button,
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _connect(self) -> None:
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        for box in (self.show_filter, self.kind_filter, self.period_filter):
            box.currentIndexChanged.connect(self._on_filters_changed)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.new_button.clicked.connect(self.new_record)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.day_button.clicked.connect(self.print_day)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    def new_record(self) -> None:
        opening.new_call(self.ctx, self)

    def print_day(self) -> None:
        """The officer's day as a PDF, opened in the viewer to print."""
        a = self.ctx.actor
        self.ctx.tasks.run(
            day_sheet,
            self.ctx.db,
            a.username,
            a.full_name or a.username,
            self.ctx.profile,
            self.ctx.now(),
            owner=self,
            on_done=self._on_day_sheet_ready,
        )

    def _on_day_sheet_ready(self, pdf: bytes) -> None:
        path = docs.viewing_copy(pdf, "officers-day.pdf", self.ctx.db.folder)
        self.open_in_viewer(str(path))

    def current_filter(self) -> CallFilter:
        return replace(
            self.model.filter(),
            show=self.show_filter.currentData(),
            kind=self.kind_filter.currentData(),
            period=self.period_filter.currentData(),
            officer=self.ctx.actor.username,
            text=self._text,
        )

    def apply_filters(self) -> None:
        self.model.set_filter(self.current_filter())

    def _on_view_opened(self, row: int) -> None:
        row_object = self.model.row_object(row)
        if row_object is not None:
            opening.open_call(self.ctx, row_object.id, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("field_call", "call_dispatch", "caution_flag", "person"):
            self.refresh()
