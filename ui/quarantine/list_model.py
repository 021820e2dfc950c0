"""The quarantines list as a lazy model: the database filters, searches, sorts and counts."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Qt

from fieldops.services.listing import Page
from fieldops.services.quarantine import (
    QuarantineFilter,
    QuarantineRow,
    count_quarantines,
    quarantine_page,
)
from ui.common.table_models import Column, PagedTableModel, number_column
from ui.common.text import day
from ui.context import AppContext

COLUMNS = (
    number_column(),
    Column("Status", lambda r: r.status_label, 130),
    Column("Animal", lambda r: r.animal, 220, stretch=True),
    Column("Owner", lambda r: r.owner, 160),
    Column("Placement", lambda r: r.placement, 190),
    Column("Day", lambda r: r.day, 90),
    Column(
        "Next exam due", lambda r: ("Overdue: " if r.next_exam_overdue else "") + r.next_exam, 170
    ),
    Column(
        "Certificate due",
        lambda r: ("Overdue: " if r.certificate_overdue else "") + day(r.certificate_due),
        190,
    ),
)
# Column -> SQL sort key.
SORT_KEYS = {
    1: "status",
    2: "animal",
    3: "owner",
    5: "last_day",
    6: "next_exam",
    7: "certificate_due",
}


class QuarantineTableModel(PagedTableModel):
    """Quarantines matching a ``QuarantineFilter``, a page at a time."""

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
        self._filter = QuarantineFilter()

    # Not _count/_page: the base model keeps its row count in self._count.
    def _count_matches(self, text: str) -> int:
        return count_quarantines(self._ctx.db, replace(self._filter, text=text), self._ctx.today())

    def _page_of_matches(self, text: str, offset: int, limit: int) -> Page[QuarantineRow]:
        return quarantine_page(
            self._ctx.db,
            replace(self._filter, text=text),
            self._ctx.today(),
            self._ctx.profile,
            offset,
            limit,
        )

    def filter(self) -> QuarantineFilter:
        return replace(self._filter, text=self.search_text())

    def set_filter(self, f: QuarantineFilter) -> None:
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
