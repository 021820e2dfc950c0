"""The vicious-animal cases as a lazy model: the database filters, sorts and counts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from fieldops.services.listing import Page
from fieldops.services.vicious.listing import CaseFilter, CaseRow, cases_page, count_cases
from ui.common.table_models import ROW_ROLE, STYLE_ROLES, AnyIndex, PagedTableModel
from ui.context import AppContext
from ui.vicious.columns import SORT_KEYS, STEP_COLUMN, case_columns

OVERDUE_FG = QColor("#a4161a")
OVERDUE_BG = QColor("#fde8e8")


class CaseTableModel(PagedTableModel):
    """Cases matching a ``CaseFilter``; overdue rows are painted red and bold, and a next
    step's day in red and bold once it has passed."""

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(
            ctx.tasks,
            case_columns(ctx),
            self._count_matches,
            self._page_of_matches,
            page_size=100,
            parent=parent,
        )
        self._ctx = ctx
        self._filter = CaseFilter()

    # Not _count/_page: the base model keeps its row count in self._count.
    def _count_matches(self, text: str) -> int:
        return count_cases(self._ctx.db, replace(self._filter, text=text), self._ctx.now())

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[CaseRow]:
        return cases_page(
            self._ctx.db, replace(self._filter, text=text), offset, limit, self._ctx.now()
        )

    def filter(self) -> CaseFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: CaseFilter) -> None:
        self._filter = f
        self.search(f.text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column in SORT_KEYS:
            self.set_filter(
                replace(
                    self.filter(),
                    sort=SORT_KEYS[column],
                    descending=order == Qt.SortOrder.DescendingOrder,
                )
            )

    def tick(self) -> None:
        """Repaint the countdowns (the rows stay; only the time moved)."""
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1)
            )

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in STYLE_ROLES and index.isValid():
            row = super().data(index, ROW_ROLE)
            if row is None:
                return None
            if not row.overdue_at(self._ctx.now()):
                # A next step past its day: its cell, as Today lists it overdue.
                late = index.column() == STEP_COLUMN and row.step_overdue_on(self._ctx.today())
                if not late or role == Qt.ItemDataRole.BackgroundRole:
                    return None
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
            return QBrush(OVERDUE_FG if role == Qt.ItemDataRole.ForegroundRole else OVERDUE_BG)
        return super().data(index, role)
