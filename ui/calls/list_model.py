"""The calls as a lazy model: the database filters, orders and counts."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from fieldops.services.calls.listing import CallFilter, calls_page, count_calls
from fieldops.services.calls.views import CallRow
from fieldops.services.listing import Page
from ui.calls.columns import call_columns
from ui.common.table_models import ROW_ROLE, STYLE_ROLES, AnyIndex, PagedTableModel
from ui.context import AppContext

CAUTION_FG = QColor("#a4161a")


class CallTableModel(PagedTableModel):
    """Calls matching a ``CallFilter``, open ones first by priority and age; a caution
    at the address shows in red."""

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(
            ctx.tasks,
            call_columns(ctx),
            self._count_matches,
            self._page_of_matches,
            page_size=100,
            parent=parent,
        )
        self._ctx = ctx
        self._filter = CallFilter(officer=ctx.actor.username)

    def _count_matches(self, text: str) -> int:
        return count_calls(self._ctx.db, replace(self._filter, text=text), self._moment())

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[CallRow]:
        return calls_page(
            self._ctx.db, replace(self._filter, text=text), offset, limit, self._moment()
        )

    def _moment(self) -> datetime:
        """Now in the jurisdiction's zone: the list's week of follow-ups starts on the
        city's today, not on UTC's."""
        return self._ctx.local_time(self._ctx.now())

    def filter(self) -> CallFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: CallFilter) -> None:
        self._filter = f
        self.search(f.text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The order is the working one (open first, priority, age): headers do not sort."""

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in STYLE_ROLES and role != Qt.ItemDataRole.BackgroundRole and index.isValid():
            row = super().data(index, ROW_ROLE)
            if row is None or not (row.flagged or (row.priority == 1 and row.status != "closed")):
                return None
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            return QBrush(CAUTION_FG)
        return super().data(index, role)
