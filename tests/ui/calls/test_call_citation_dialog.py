"""The citation form (58-534(b)): a last day before the first is refused beside it, and
the officer sees what each day will be charged before issuing."""

from __future__ import annotations

from datetime import timedelta

from calls_support import complained_call
from PySide6.QtCore import QDate, Qt

from fieldops.rules import penalty_for
from fieldops.services.calls.citations import CitationInput, cite
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


def _charge(p) -> str:
    if p.forfeiture is None:
        return "a warning"
    return f"${p.forfeiture:,.2f}"


def test_the_form_and_its_question_show_what_each_day_will_be_charged(
    qtbot, ctx, host, ana, wait_idle
):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    cite(
        ctx.db,
        ctx.actor,
        CitationInput(ana.id, "58-531", (ctx.today() - timedelta(days=20),), "Off. Lee"),
        ctx.profile,
    )
    d = _form(qtbot, ctx, host, c)
    d.section.setCurrentIndex(d.section.findData("58-531"))
    _set(d.first_day, ctx.today() - timedelta(days=2))
    _set(d.last_day, ctx.today() - timedelta(days=1))
    wait_idle()
    second, third = (penalty_for("58-531", n, ctx.profile) for n in (2, 3))
    shown = d.quote.text()
    assert "offence 2," in shown and "offence 3," in shown
    assert _charge(second) in shown and _charge(third) in shown
    asked = len(ctx.errors.questions)
    ctx.errors.answer = False
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(ctx.errors.questions) > asked, timeout=10_000)
    (question,) = ctx.errors.questions[asked:]
    assert "Issue 2 citations under 58-531" in question and _charge(third) in question
    assert "offence 3" in question
    ctx.errors.answer = True
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(get_call(ctx.db, c.id).citations) == 2, timeout=10_000)
    issued = get_call(ctx.db, c.id).citations
    assert [t.forfeiture for t in issued] == [second.forfeiture, third.forfeiture]
    wait_idle()
