"""The "Today" area: what is due today in every installed module, in one list.

The items come from ``fieldops.services.due.today_items``, which merges every
module's (the pound's: holds ending today and tomorrow, animals that became
adoptable, animals held past their hold without a disposition): overdue
first, then each module's items in its working order. A Module column says
whose each item is (dog licences to renew are one line a category with
the count, opening the licence list on that filter); Enter, a double-click or Open opens the item's record
through ``ui.modules.open_record``, whatever the module.

Today is loaded while it is the page on screen. A clerk who leaves it before
its answer comes (straight to People at start-up) stops that load, and a
record saved on another page does not run it again behind the page the clerk
works in: at a city's size it is a tenth of a second of a core, and the page
in front waits for that core (issue 14). Today loads again when it is shown.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from PySide6.QtCore import Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops import modules
from fieldops.services.due import DueItem, today_items
from ui import modules as ui_modules
from ui.common.style import paint_page_white
from ui.common.table_models import Column, ListTableModel, number_column
from ui.common.text import day, when
from ui.common.widgets import RecordTableView
from ui.context import AppContext

# A date and time as wide as they print (a wide weekday and month, two-digit day and hour).
_WIDEST_INSTANT = datetime(2026, 5, 27, 17, 48, tzinfo=UTC)


def due_columns(ctx: AppContext) -> tuple[Column, ...]:
    def due(i: DueItem) -> str:
        return when(ctx, i.due) if isinstance(i.due, datetime) else day(i.due)

    return (
        # At the default window every column is on screen: what to do takes the spare width.
        Column("Due", lambda i: ("Overdue: " if i.overdue else "") + i.category_label, 300),
        number_column(lambda i: "" if hasattr(i, "count") else str(i.record_id)),
        Column("Date", due, 168, fits=when(ctx, _WIDEST_INSTANT)),
        Column("What to do", lambda i: i.text, 380, stretch=True),
        Column("Module", lambda i: modules.module_title(i.module), 128),
    )


def _count(i: DueItem) -> int:
    """How many records a line stands for (a licence count stands for its dogs)."""
    return int(getattr(i, "count", 1))


def counts_text(items: tuple[DueItem, ...]) -> str:
    if not items:
        titles = [m.title.lower() for m in modules.installed_modules() if m.due_items is not None]
        if not titles:
            return "Nothing is due today."
        where = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} or {titles[-1]}"
        return f"Nothing is due today in the {where}."
    counts: Counter[str] = Counter()
    for i in items:
        counts[i.category] += _count(i)
    labels = {i.category: i.category_label for i in items}  # in the list's order
    return " · ".join(f"{label}: {counts[key]:,}" for key, label in labels.items())


class TodayWidget(QWidget):
    """The due list for ``ctx.today()``; Enter or double-click opens the item's record.

    Page protocol: ``refresh`` (F5). ``settled`` is emitted once each refresh has its
    answer, its rows or an error (the window starts the day's backup after the first).
    A refresh asked for while the page is left is done when it is shown again, and a
    load still running when the page is left is stopped then (its ``settled`` comes
    with the load on return).
    """

    settled = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("TodayWidget")
        paint_page_white(self)
        self.heading = QLabel()
        self.heading.setObjectName("PageHeading")
        self.list_heading = QLabel("&What is due")
        self.list_heading.setObjectName("SectionHeading")
        self.summary = QLabel()
        self.summary.setObjectName("SearchStatus")
        self.summary.setWordWrap(True)
        self.model = ListTableModel(due_columns(ctx), parent=self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.list_heading.setBuddy(self.view)
        self.setFocusProxy(self.view)
        self.open_button = QPushButton("&Open")
        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.list_heading)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        self.view.opened.connect(self._on_view_opened)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)
        self._load = 0  # the task loading the items, while it runs
        self._on_screen = False
        self._left = False  # the page was on screen and another was shown instead
        self._stale = False  # a load was stopped or not run while the page was left
        self.refresh()

    def refresh(self) -> None:
        self.ctx.tasks.cancel(self._load)
        if self._left:
            self._stale = True
            return
        self._stale = False
        today = self.ctx.today()
        self.heading.setText(f"Today — {day(today)}")
        self.summary.setText("Loading…")
        self._load = self.ctx.tasks.run(
            today_items,
            self.ctx.db,
            today,
            self.ctx.profile,
            owner=self,
            on_done=self._on_items_loaded,
            on_error=self._on_items_failed,
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._on_screen = True
        self._left = False
        if self._stale:
            self.refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        if event.spontaneous() or not self._on_screen:
            return  # the window was minimised (Today is still its page), or not yet shown
        self._on_screen = False
        self._left = True
        if self.ctx.tasks.is_pending(self._load):
            self.ctx.tasks.cancel(self._load)
            self._stale = True

    def is_loading(self) -> bool:
        """True while the items are being loaded."""
        return self.ctx.tasks.is_pending(self._load)

    def _on_items_loaded(self, items: tuple[DueItem, ...]) -> None:
        self.model.set_rows(items)
        self.summary.setText(counts_text(items))
        self.open_button.setEnabled(bool(items))
        self.settled.emit()

    def _on_items_failed(self, _error: BaseException) -> bool:
        self.settled.emit()
        return False  # said by the error router, as before

    def _on_view_opened(self, row: int) -> None:
        item = self.model.row_object(row)
        if item is not None and not ui_modules.open_record(
            self.ctx, item.module, item.kind, item.record_id, self
        ):
            self.summary.setText(f"FieldOps cannot open this {item.kind} record here yet.")

    def _on_open_button_clicked(self) -> None:
        self._on_view_opened(max(self.view.current_row(), 0))

    def _on_bus_changed(self, _entity: str, _id: int) -> None:
        self.refresh()  # any module's record may change what is due
