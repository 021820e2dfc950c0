"""The "Today" area: what is due today, starting with the pound's part.

The pound's items come from ``due_items`` (holds ending today and tomorrow,
animals that became adoptable, animals held past their hold without a
disposition); other modules add their sections here as they are built.
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.services.due import CATEGORIES, DueItem, due_items
from ui.context import AppContext
from ui.impounds import opening
from ui.impounds.style import paint_page_white
from ui.impounds.text import day
from ui.table_models import Column, ListTableModel
from ui.widgets import RecordTableView

DUE_COLUMNS = (
    Column("Due", lambda i: i.category_label, 270),
    Column("#", lambda i: str(i.impoundment_id), 50),
    Column("Hold ends", lambda i: day(i.last_claim_day), 130),
    Column("What to do", lambda i: i.text),
)


def counts_text(items: tuple[DueItem, ...]) -> str:
    if not items:
        return "Nothing is due at the pound today."
    counts = Counter(i.category for i in items)
    return " · ".join(f"{label}: {counts[key]}" for key, label in CATEGORIES.items()
                      if counts[key])


class TodayWidget(QWidget):
    """The due list for ``ctx.today()``; Enter or double-click opens the impoundment.

    Page protocol: ``refresh`` (F5).
    """

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("TodayWidget")
        paint_page_white(self)
        self.heading = QLabel()
        self.heading.setObjectName("PageHeading")
        self.pound_heading = QLabel("&Pound")
        self.pound_heading.setObjectName("SectionHeading")
        self.summary = QLabel()
        self.summary.setObjectName("SearchStatus")
        self.model = ListTableModel(DUE_COLUMNS, parent=self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.pound_heading.setBuddy(self.view)
        self.setFocusProxy(self.view)
        self.open_button = QPushButton("&Open impoundment")
        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.pound_heading)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        self.view.opened.connect(self._on_view_opened)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.refresh()

    def refresh(self) -> None:
        today = self.ctx.today()
        self.heading.setText(f"Today — {day(today)}")
        self.summary.setText("Loading…")
        self.ctx.tasks.run(due_items, self.ctx.db, today, self.ctx.profile, owner=self,
                           on_done=self._on_items_loaded)

    def _on_items_loaded(self, items: tuple[DueItem, ...]) -> None:
        self.model.set_rows(items)
        self.summary.setText(counts_text(items))
        self.open_button.setEnabled(bool(items))

    def _on_view_opened(self, row: int) -> None:
        item = self.model.row_object(row)
        if item is not None:
            opening.open_impoundment(self.ctx, item.impoundment_id, self)

    def _on_open_button_clicked(self) -> None:
        self._on_view_opened(max(self.view.current_row(), 0))

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity == "impoundment":
            self.refresh()


