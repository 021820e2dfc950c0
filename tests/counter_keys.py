"""Helpers for the counter forms' key tests (licences, permits): a scanner's digits and
Enter, a form shown as the clerk has it, and the rows a table holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select


def scan(qtbot: Any, field: Any, text: str) -> None:
    """What a scanner does: the digits, then Enter."""
    field.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is field, timeout=5_000)
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def show_active(qtbot: Any) -> Callable[[Any], Any]:
    """Show a form as the active window, as the clerk has it (for a ``shown`` fixture)."""

    def show(dialog: Any) -> Any:
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5_000)
        return dialog

    return show


def rows(ctx: Any, model: Any) -> int:
    """How many rows the table of ``model`` holds."""
    with ctx.db.read() as s:
        return s.scalar(select(func.count()).select_from(model)) or 0


def idle(qtbot: Any, ctx: Any) -> None:
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
