"""The line above Today's list: each category with how many records it stands for,
a count line's records counted, not its one line, and written as the list writes them."""

from __future__ import annotations

from datetime import date

from fieldops.modules import CountedDueItem, DueItem
from ui.today.page import counts_text


def _item(category: str, record_id: int, **kw) -> DueItem:
    return DueItem(
        module="impound",
        kind="impoundment",
        record_id=record_id,
        due=date(2026, 11, 30),
        category=f"impound.{category}",
        category_label=category.replace("_", " ").capitalize(),
        text="",
        **kw,
    )


def test_each_category_says_how_many_records_with_thousands_separated():
    dogs = CountedDueItem(
        module="licence",
        kind="list_unrenewed",
        record_id=0,
        due=date(2027, 4, 1),
        category="licence.late",
        category_label="Late fee due",
        text="",
        count=2432,
    )
    items = (_item("hold_ends_today", 1), dogs, _item("hold_ends_today", 2))
    assert counts_text(items) == "Hold ends today: 2 · Late fee due: 2,432"
