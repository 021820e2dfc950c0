"""The petition form (58-534(a)) on screen: a refusal is never saved as an acceptance, and
an acceptance, final and referred, is asked before it is saved."""

from __future__ import annotations

from calls_support import complained_call
from PySide6.QtCore import Qt

from fieldops.services.calls.records import get_call
from ui.calls.action_dialogs import PetitionDialog


def _petition(qtbot, ctx, host, call) -> PetitionDialog:
    p = PetitionDialog(ctx, call, call.complaints[0], host)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    p.petitioners.setPlainText("Nora Neighbour, 555-0101, 14 Elm St")
    p.animal.setPlainText("Black Labrador; owner Ana O'Brien, 12 Elm St")
    p.violations.setPlainText("Barking 10 pm to 2 am, 3 to 5 March")
    p.reported_on.setText("3, 4 and 5 March")
    p.will_testify.setChecked(True)
    return p


def _petitions(ctx, call):
    return get_call(ctx.db, call.id).complaints[0].petitions


def test_record_refusal_of_a_complete_petition_saves_nothing_and_says_why(
    qtbot, ctx, host, ana, wait_idle
):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    p = _petition(qtbot, ctx, host, c)
    qtbot.mouseClick(p.refuse_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert _petitions(ctx, c) == ()  # neither refused nor accepted
    assert p.isVisible() and "five parts" in p.banner.text()
    assert not p.banner.text().startswith("Nothing was saved: correct the")  # nothing marked
    assert p.violations.toPlainText() == "Barking 10 pm to 2 am, 3 to 5 March"  # kept
    # The clerk says what it lacks: the statement that they will testify.
    p.will_testify.setChecked(False)
    qtbot.mouseClick(p.refuse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(_petitions(ctx, c)) == 1, timeout=10_000)
    (refused,) = _petitions(ctx, c)
    assert (refused.status, refused.missing) == ("refused", ("will_testify",))
    wait_idle()


def test_enter_in_the_petition_asks_before_it_accepts_and_refers(qtbot, ctx, host, ana, wait_idle):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    p = _petition(qtbot, ctx, host, c)
    p.referred_to.setCurrentIndex(p.referred_to.findData("community_development"))
    asked = len(ctx.errors.questions)
    ctx.errors.answer = False  # "Keep editing"
    p.reported_on.setFocus()
    qtbot.keyClick(p.reported_on, Qt.Key.Key_Return)
    wait_idle()
    (question,) = ctx.errors.questions[asked:]
    assert "Accept" in question and "community development" in question.lower()
    assert _petitions(ctx, c) == () and p.isVisible()
    ctx.errors.answer = True
    qtbot.keyClick(p.reported_on, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(_petitions(ctx, c)) == 1, timeout=10_000)
    (accepted,) = _petitions(ctx, c)
    assert (accepted.status, accepted.referred_to) == ("accepted", "community_development")
    assert len(ctx.errors.questions) == asked + 2
    wait_idle()
