"""The permit actions done at the counter, where a scanner types a number and ends it with
Enter: Enter moves on and never records. What cannot be undone (the notice's mailing,
which starts the appeal's days; the issue, which takes the money) asks first, naming the
day and the amount."""

from __future__ import annotations

from datetime import date

import pytest
from counter_keys import idle, rows, scan, show_active
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.db.models import PermitIssue, PermitNotice
from fieldops.rules import fancier_renewal, format_day
from fieldops.services.permits.applying import (
    ChickenInput,
    FancierInput,
    apply_chicken,
    apply_fancier,
)
from fieldops.services.permits.enforcing import IncidentInput, record_incident, review_permit
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import AnimalLine
from ui.common.widgets import set_date
from ui.permits.action_dialogs import IssueDialog, NoticeDialog

ARTICLE = "9407111899223033005289"


@pytest.fixture
def shown(qtbot):
    return show_active(qtbot)


@pytest.fixture
def not_renewed(ctx, holder):
    p = ctx.profile
    v = apply_fancier(
        ctx.db,
        ctx.actor,
        holder.id,
        holder.address,
        FancierInput(date(2026, 1, 5), 2026, (AnimalLine("pigeons", 4),)),
        p,
    )
    v = issue_permit(ctx.db, ctx.actor, v.id, date(2026, 1, 6), p)
    for day in (date(2026, 3, 1), date(2026, 5, 1), date(2026, 9, 1)):
        v = record_incident(
            ctx.db, ctx.actor, v.id, IncidentInput(day, "noise", "warning", "barking"), p
        )
    v = review_permit(ctx.db, ctx.actor, v.id, date(2026, 11, 20), p)
    assert v.status == "not_renewed"
    return v


def test_a_scanned_article_number_and_enter_records_no_mailing(
    qtbot, ctx, host, shown, not_renewed
):
    notice = shown(NoticeDialog(ctx, not_renewed, host))
    set_date(notice.mailed_on, date(2026, 11, 25))
    scan(qtbot, notice.article, ARTICLE)
    idle(qtbot, ctx)
    assert rows(ctx, PermitNotice) == 0 and ctx.errors.questions == []
    assert notice.isVisible() and notice.article.text() == ARTICLE
    assert QApplication.focusWidget() is not notice.article  # moved on, as Tab would
    saved = []
    notice.saved.connect(saved.append)
    qtbot.mouseClick(notice.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    r = not_renewed.adverse_review
    appeal_by = fancier_renewal(r.counted, r.review_day, ctx.profile).appeal_by(date(2026, 11, 25))
    (question,) = ctx.errors.questions  # asked first: the day mailed starts the 30 days
    assert format_day(date(2026, 11, 25)) in question and ARTICLE in question
    assert format_day(appeal_by) in question
    assert saved[0].appeal_by == appeal_by and rows(ctx, PermitNotice) == 1


def test_going_back_from_the_question_records_no_mailing(qtbot, ctx, host, shown, not_renewed):
    notice = shown(NoticeDialog(ctx, not_renewed, host))
    qtbot.keyClicks(notice.article, ARTICLE)
    ctx.errors.answer = False  # "Go back"
    qtbot.mouseClick(notice.save_button, Qt.MouseButton.LeftButton)
    idle(qtbot, ctx)
    assert len(ctx.errors.questions) == 1 and rows(ctx, PermitNotice) == 0
    assert notice.isVisible()


def test_a_scanned_receipt_and_enter_issues_nothing_and_issuing_asks_the_amount(
    qtbot, ctx, host, shown, holder
):
    form = ChickenInput(date(2026, 11, 2), 2026, 3, 0, 60)
    v = apply_chicken(ctx.db, ctx.actor, holder.id, holder.address, form, ctx.profile)
    dialog = shown(IssueDialog(ctx, v, host))
    scan(qtbot, dialog.receipt, "000123")
    idle(qtbot, ctx)
    assert rows(ctx, PermitIssue) == 0 and ctx.errors.questions == []
    assert dialog.isVisible() and dialog.receipt.text() == "000123"
    dialog.method.setCurrentIndex(dialog.method.findData("check"))
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    (question,) = ctx.errors.questions
    total = v.application.total
    assert f"${total:,.2f}" in question and "check" in question and "000123" in question
    assert format_day(ctx.today()) in question and holder.full_name in question
    issue = saved[0].issues[-1]
    assert (issue.paid_amount, issue.payment_method, issue.receipt_number) == (
        total,
        "check",
        "000123",
    )
