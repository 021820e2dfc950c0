"""The impounds list as a lazy model: the database filters, sorts and counts."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Qt

from fieldops.services.impound_list import ImpoundFilter, count_impounds, impounds_page
from fieldops.services.impound_views import ImpoundRow
from fieldops.services.listing import Page
from ui.common.table_models import PagedTableModel
from ui.context import AppContext
from ui.impounds.columns import SORT_KEYS, impound_columns


class ImpoundTableModel(PagedTableModel):
    """Impoundments matching an ``ImpoundFilter``, a page at a time.

    The filter is replaced whole (it is frozen) and read by the worker that
    counts or fetches, so a query always sees one consistent filter; an answer
    for an older filter is dropped by the model's search generation.
    """

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(
            ctx.tasks,
            impound_columns(ctx),
            self._count_matches,
            self._page_of_matches,
            page_size=100,
            parent=parent,
        )
        self._ctx = ctx
        self._filter = ImpoundFilter()

    # Not _count/_page: the base model keeps its row count in self._count.
    def _count_matches(self, text: str) -> int:
        return count_impounds(
            self._ctx.db, replace(self._filter, text=text), self._ctx.now(), self._ctx.profile
        )

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[ImpoundRow]:
        return impounds_page(
            self._ctx.db,
            replace(self._filter, text=text),
            offset,
            limit,
            self._ctx.now(),
            self._ctx.profile,
        )

    def filter(self) -> ImpoundFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: ImpoundFilter) -> None:
        """Show the impoundments matching ``f`` (the old rows stay until they arrive)."""
        self._filter = f
        self.search(f.text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in SQL by the column's key; columns without one leave the order alone."""
        if column not in SORT_KEYS:
            return
        key, inverted = SORT_KEYS[column]
        descending = (order == Qt.SortOrder.DescendingOrder) != inverted
        self.set_filter(replace(self.filter(), sort=key, descending=descending))

    def sort_column(self) -> tuple[int, Qt.SortOrder]:
        """The column and order that show the current SQL sort."""
        f = self._filter
        column = next(c for c, (k, inv) in SORT_KEYS.items() if k == f.sort and not inv)
        return column, (
            Qt.SortOrder.DescendingOrder if f.descending else Qt.SortOrder.AscendingOrder
        )


__all__ = ["ImpoundTableModel"]
