"""The outcome form: an outcome closes the call, so Enter asks first; a closed call's
notes are changed without a question."""

from __future__ import annotations

from calls_support import call_input
from PySide6.QtCore import Qt

from fieldops.services.calls.dispatching import dispatch
from fieldops.services.calls.records import create_call, get_call
from ui.calls.action_dialogs import OutcomeDialog


def _outcome(qtbot, ctx, host, call_id: int) -> OutcomeDialog:
    v = get_call(ctx.db, call_id)
    o = OutcomeDialog(ctx, v, v.dispatches[-1], host)
    qtbot.addWidget(o)
    o.show()
    qtbot.waitExposed(o)
    return o


def test_enter_in_the_outcome_asks_before_it_closes_the_call(qtbot, ctx, host, ana, wait_idle):
    c = create_call(ctx.db, ctx.actor, call_input(owner_id=ana.id))
    dispatch(ctx.db, ctx.actor, c.id, c.version, ctx.actor.username)
    o = _outcome(qtbot, ctx, host, c.id)
    o.arrived_at.unknown.setChecked(False)
    o.cleared_at.unknown.setChecked(False)
    o.outcome.setCurrentIndex(o.outcome.findData("cited"))
    asked = len(ctx.errors.questions)
    ctx.errors.answer = False  # "Keep editing"
    o.cleared_at.edit.setFocus()
    qtbot.keyClick(o.cleared_at.edit, Qt.Key.Key_Return)
    wait_idle()
    (question,) = ctx.errors.questions[asked:]
    assert "close call" in question and "Cited" in question
    assert get_call(ctx.db, c.id).status == "dispatched" and o.isVisible()
    ctx.errors.answer = True
    qtbot.keyClick(o.cleared_at.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: get_call(ctx.db, c.id).status == "closed", timeout=10_000)
    wait_idle()

    again = _outcome(qtbot, ctx, host, c.id)  # closed: a note changes nothing else
    again.notes.setPlainText("Owner given the citation in person.")
    asked = len(ctx.errors.questions)
    again.notes.setFocus()
    qtbot.mouseClick(again.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: get_call(ctx.db, c.id).dispatches[-1].notes != "", timeout=10_000)
    assert ctx.errors.questions[asked:] == []
    wait_idle()
