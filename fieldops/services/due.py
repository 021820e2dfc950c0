"""What is due on a day, from every installed module (``fieldops due``, the Today page).

Each module contributes its own items (``fieldops.modules.Module.due_items``);
this merges them: overdue first, then each module's items in its working
order. ``CATEGORIES`` names every installed module's category codes (each
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
    """Every installed module's items for ``day`` (local date), overdue first."""
    return modules.due_items(db, day, profile)


__all__ = ["CATEGORIES", "DueItem", "due_items"]
