"""What every area's list page does the same way: the search, the count, the sort by header
and opening the current row, so each page keeps only its filters and its records.

A page derives from ``ListPage`` instead of ``QWidget``, sets ``count_noun`` (and
``sort_keys`` when some columns have no order in SQL), builds ``model``, ``view``,
``search`` and ``count``, connects the signals to the slots below, and implements
``apply_filters()`` and ``_on_view_opened(row)``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Generic, TypeVar

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import QLabel, QWidget

from ui.common.table_models import PagedTableModel
from ui.common.widgets import RecordTableView, SearchField

M = TypeVar("M", bound=PagedTableModel)


class ListPage(QWidget, Generic[M]):
    """A list page's shared slots (see the module's docstring); ``M`` is its model's type."""

    count_noun = "record"  # "1 record", "2,000 records"
    sort_keys: Collection[int] | None = None  # None: every column sorts
    model: M
    view: RecordTableView
    search: SearchField
    count: QLabel

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""  # the last text searched (one character is not searched)
        self._sorted_by: tuple[int, Qt.SortOrder] = (0, Qt.SortOrder.AscendingOrder)

    # -- what the page provides --------------------------------------------

    def apply_filters(self) -> None:
        raise NotImplementedError

    def _on_view_opened(self, row: int) -> None:
        raise NotImplementedError

    # -- page protocol -----------------------------------------------------

    def focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def refresh(self) -> None:
        self.model.refresh()

    # -- sorting -----------------------------------------------------------

    def sort_by(self, column: int, order: Qt.SortOrder) -> None:
        """Sort in SQL by a header; a column without an order keeps the current one."""
        if self.sort_keys is None or column in self.sort_keys:
            self._sorted_by = (column, order)
            self.model.sort(column, order)
            return
        with QSignalBlocker(self.view.horizontalHeader()):
            self.view.horizontalHeader().setSortIndicator(*self._sorted_by)

    # -- slots -------------------------------------------------------------

    def _on_header_sort_changed(self, column: int, order: Qt.SortOrder) -> None:
        self.sort_by(column, order)

    def _on_filters_changed(self, *_args: object) -> None:
        self.apply_filters()

    def _on_search_search_requested(self, text: str) -> None:
        self._text = text
        self.apply_filters()

    def _on_search_too_short(self) -> None:
        self.count.setText("Type at least two characters")

    def _on_model_searching_changed(self, searching: bool) -> None:
        if searching:
            self.count.setText("Searching…")
        elif self.model.is_counting():  # the rows are shown; their count comes after
            self.count.setText("Counting…")

    def _on_model_counted(self, count: int) -> None:
        self.count.setText(f"{count:,} {self.count_noun}" + ("" if count == 1 else "s"))

    def _on_open_button_clicked(self) -> None:
        self._on_view_opened(self.view.current_row())
