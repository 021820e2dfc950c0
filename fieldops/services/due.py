"""What is due on a day, from every installed module (``fieldops due``, the Today page).

Each module contributes its own items (``fieldops.modules.Module.due_items``);
this merges them: overdue first, then each module's items in its working
order. Today shows a module's ``today_items`` instead, where it has them. ``CATEGORIES`` names every installed module's category codes (each
prefixed with its module's key, e.g. ``impound.hold_ends_today``) and labels.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.modules import DueItem
from fieldops.rules import Profile


class _Categories(Mapping[str, str]):
    """Category code -> label for the modules installed now (read when asked, not at import)."""

    def __getitem__(self, code: str) -> str:
        return modules.categories()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(modules.categories())

    def __len__(self) -> int:
        return len(modules.categories())


CATEGORIES: Mapping[str, str] = _Categories()


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """Every installed module's items for ``day`` (local date), overdue first.

    ``fieldops due`` lists these: one item a record, so a script finds each one. Every
    module reads in one unit of work (``Database.reading_together``)."""
    with db.reading_together():
        return modules.due_items(db, day, profile)


def today_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """What the Today page lists: ``due_items``, except that a module with its own
    ``today_items`` (``fieldops.modules.Module``) gives those instead, as the licences
    give their counts where one item a record would be thousands a day (each count
    opens that module's list)."""
    items: list[DueItem] = []
    with db.reading_together():  # one unit of work for every module's reads
        for m in modules.installed_modules():
            shown = m.today_items or m.due_items
            if shown is not None:
                items.extend(shown(db, day, profile))
    return modules.merge_due(items)


__all__ = ["CATEGORIES", "DueItem", "due_items", "today_items"]
