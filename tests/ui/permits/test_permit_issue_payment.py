"""Issuing a permit asks the fee paid: less than the fees quoted is refused beside the field
and nothing is issued; what was paid then shows on the record."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt

from fieldops.services.permits.applying import ChickenInput, apply_chicken
from ui.permits.action_dialogs import IssueDialog
from ui.permits.record_view import record_html


def test_the_issue_form_records_the_payment_shown_on_the_record(qtbot, ctx, host, holder):
    form = ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60)
    v = apply_chicken(ctx.db, ctx.actor, holder.id, holder.address, form, ctx.profile, first=False)
    assert v.application.total > 1
    dialog = IssueDialog(ctx, v, host)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.paid, "1.00")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
    assert dialog.form_fields.error_text("paid_amount")
    assert dialog.isVisible() and dialog.paid.text() == "1.00"
    dialog.paid.clear()
    dialog.method.setCurrentIndex(dialog.method.findData("check"))
    qtbot.keyClicks(dialog.receipt, "R-12")
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    issue = saved[0].issues[-1]
    assert (issue.paid_amount, issue.payment_method) == (v.application.total, "check")
    html = record_html(saved[0])
    assert "Fees paid" in html and "R-12" in html and "check" in html
