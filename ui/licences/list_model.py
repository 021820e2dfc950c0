"""The licences list as a lazy model: the database filters, searches, sorts and counts."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Qt

from fieldops.services.licences.listing import (
    LicenceFilter,
    LicenceRow,
    count_licences,
    licence_page,
)
from fieldops.services.listing import Page
from ui.common.table_models import Column, PagedTableModel
from ui.common.text import day, money
from ui.context import AppContext

COLUMNS = (
    Column("Year", lambda r: str(r.licence_year), 55),
    Column("Tag", lambda r: r.tag, 90),
    Column("Status", lambda r: r.status_label, 150),
    Column("Dog", lambda r: r.animal, 200, stretch=True),
    Column("Owner", lambda r: r.owner, 160),
    Column("Address", lambda r: r.address, 220),
    Column("Microchip", lambda r: r.microchip, 130),
    Column("Paid", lambda r: money(r.total) + (" (late)" if r.late else ""), 100),
    Column("Applied", lambda r: day(r.applied_on), 110),
)
# Column -> SQL sort key.
SORT_KEYS = {0: "year", 1: "tag", 2: "status", 3: "animal", 4: "owner", 7: "total", 8: "issued"}


class LicenceTableModel(PagedTableModel):
    """Licences matching a ``LicenceFilter``, a page at a time."""

    def __init__(self, ctx: AppContext, parent: QObject | None = None) -> None:
        super().__init__(
            ctx.tasks,
            COLUMNS,
            self._count_matches,
            self._page_of_matches,
            page_size=100,
            parent=parent,
        )
        self._ctx = ctx
        self._filter = LicenceFilter()

    def _count_matches(self, text: str) -> int:
        return count_licences(
            self._ctx.db, replace(self._filter, text=text), self._ctx.today(), self._ctx.profile
        )

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[LicenceRow]:
        return licence_page(
            self._ctx.db,
            replace(self._filter, text=text),
            self._ctx.today(),
            self._ctx.profile,
            offset,
            limit,
        )

    def filter(self) -> LicenceFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: LicenceFilter) -> None:
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
