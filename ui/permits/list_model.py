"""The permits as a lazy model: the database filters, sorts and counts."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Qt

from fieldops.services.listing import Page
from fieldops.services.permits.listing import PermitFilter, PermitRow, count_permits, permits_page
from ui.common.table_models import PagedTableModel
from ui.context import AppContext
from ui.permits.columns import SORT_KEYS, permit_columns


class PermitTableModel(PagedTableModel):
    """Permits matching a ``PermitFilter``, a page of ids at a time."""

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(
            ctx.tasks,
            permit_columns(ctx),
            self._count_matches,
            self._page_of_matches,
            page_size=100,
            parent=parent,
        )
        self._ctx = ctx
        self._filter = PermitFilter()

    def _count_matches(self, text: str) -> int:
        return count_permits(self._ctx.db, replace(self._filter, text=text), self._ctx.today())

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[PermitRow]:
        return permits_page(
            self._ctx.db, replace(self._filter, text=text), offset, limit, self._ctx.today()
        )

    def filter(self) -> PermitFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: PermitFilter) -> None:
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
