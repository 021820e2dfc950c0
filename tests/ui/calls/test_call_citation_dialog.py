"""The citation form (58-534(b)): a last day before the first is refused beside it, and
the officer sees what each day will be charged before issuing."""

from __future__ import annotations

from datetime import timedelta

from calls_support import complained_call
from PySide6.QtCore import QDate, Qt

from fieldops.services.calls.records import get_call
from ui.calls.citation_dialog import CitationDialog


def _form(qtbot, ctx, host, call) -> CitationDialog:
    d = CitationDialog(ctx, get_call(ctx.db, call.id), host)
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    return d


def _set(edit, day) -> None:
    edit.setDate(QDate(day.year, day.month, day.day))


def test_a_last_day_before_the_first_is_refused_beside_it(qtbot, ctx, host, ana, wait_idle):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    d = _form(qtbot, ctx, host, c)
    first, last = ctx.today() - timedelta(days=1), ctx.today() - timedelta(days=5)
    _set(d.first_day, first)
    _set(d.last_day, last)
    asked = len(ctx.errors.questions)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert "before the first day" in d.fields.error_text("last_day")
    assert ctx.errors.questions[asked:] == []  # nothing to confirm: nothing is issued
    assert get_call(ctx.db, c.id).citations == () and d.isVisible()
    assert d.days() == () and d.last_day.date() == QDate(last.year, last.month, last.day)
    wait_idle()
