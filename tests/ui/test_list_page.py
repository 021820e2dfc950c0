"""The list pages share one piece for their search, count, sort and open slots: each page
still counts its own records, refuses a sort its SQL has no order for, and opens the
current row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from ui.common.list_page import ListPage
from ui.impounds.page import ImpoundsWidget
from ui.quarantine.page import QuarantinesWidget
from ui.vicious.page import ViciousWidget


@pytest.mark.parametrize(
    ("page_class", "noun"),
    [(ImpoundsWidget, "impoundment"), (QuarantinesWidget, "quarantine"), (ViciousWidget, "case")],
)
def test_each_page_counts_its_own_records(qtbot, ctx, wait_idle, page_class, noun):
    page = page_class(ctx)
    qtbot.addWidget(page)
    wait_idle()
    assert isinstance(page, ListPage)
    page._on_model_counted(1)
    assert page.count.text() == f"1 {noun}"
    page._on_model_counted(2500)
    assert page.count.text() == f"2,500 {noun}s"
    page._on_model_searching_changed(True)
    assert page.count.text() == "Searching…"


@pytest.mark.parametrize("page_class", [ImpoundsWidget, ViciousWidget])
def test_a_column_without_an_order_keeps_the_current_sort(qtbot, ctx, wait_idle, page_class):
    page = page_class(ctx)
    qtbot.addWidget(page)
    wait_idle()
    header = page.view.horizontalHeader()
    before = (header.sortIndicatorSection(), header.sortIndicatorOrder())
    unsortable = next(c for c in range(page.model.columnCount()) if c not in page.sort_keys)
    header.setSortIndicator(unsortable, Qt.SortOrder.DescendingOrder)
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == before
    sortable = next(iter(page.sort_keys))
    header.setSortIndicator(sortable, Qt.SortOrder.DescendingOrder)
    assert page._sorted_by == (sortable, Qt.SortOrder.DescendingOrder)
    wait_idle()


def test_the_search_text_reaches_the_filter(qtbot, ctx, wait_idle):
    page = ViciousWidget(ctx)
    qtbot.addWidget(page)
    page._on_search_search_requested("rex")
    assert page.model.filter().text == "rex"
    page.focus_search()
    wait_idle()
