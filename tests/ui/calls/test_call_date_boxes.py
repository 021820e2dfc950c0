"""The calls forms' optional date boxes: unticking "Not paid", "No court date" or "No
follow-up" offers today, never the widget's 1 Jan 2000, so one Enter records today."""

from __future__ import annotations

from datetime import timedelta

from calls_support import complained_call
from PySide6.QtCore import Qt

from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.records import get_call
from ui.calls import action_dialogs as act
from ui.calls.citation_dialog import CitationDialog
from ui.common.widgets import date_of


def _shown(qtbot, dialog):
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_unticking_not_paid_offers_today_and_enter_records_today(qtbot, ctx, host, ana, wait_idle):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    today = ctx.today()
    cite(
        ctx.db,
        ctx.actor,
        CitationInput(ana.id, "58-531", (today - timedelta(days=1),), "Off. Lee", call_id=c.id),
        ctx.profile,
    )
    u = _shown(qtbot, act.CitationUpdateDialog(ctx, get_call(ctx.db, c.id), host))
    for box in (u.court_on, u.paid_on):
        box.unknown.setChecked(False)
        assert date_of(box.date_edit.date()) == today
    u.court_on.unknown.setChecked(True)
    u.paid_on.date_edit.setFocus()
    qtbot.keyClick(u.paid_on.date_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: get_call(ctx.db, c.id).citations[0].paid_on is not None)
    assert get_call(ctx.db, c.id).citations[0].paid_on == today
    wait_idle()


def test_the_citations_court_date_and_the_outcomes_follow_up_offer_today(
    qtbot, ctx, host, ana, wait_idle
):
    v = get_call(ctx.db, complained_call(ctx.db, ctx.actor, ana.id).id)
    cit = _shown(qtbot, CitationDialog(ctx, v, host))
    o = _shown(qtbot, act.OutcomeDialog(ctx, v, v.dispatches[-1], host))
    for box in (cit.court_on, o.follow_up):
        box.unknown.setChecked(False)
        assert date_of(box.date_edit.date()) == ctx.today()
    wait_idle()
