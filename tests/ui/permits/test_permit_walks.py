"""The issue's walks on screen: a chicken permit refused without the association's consent,
and a fancier's permit not renewed after three incidents, with the notice and the appeal's
due day shown; the tab lists and finds them."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from sqlalchemy import func, select

from fieldops.db.models import Permit
from fieldops.rules import fancier_renewal, format_day
from fieldops.services.permits.applying import FancierInput, apply_fancier
from fieldops.services.permits.enforcing import IncidentInput, record_incident
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import AnimalLine
from ui.common.widgets import set_date
from ui.permits.action_dialogs import AppealDialog, NoticeDialog, ReviewDialog
from ui.permits.chicken_dialog import ChickenPermitDialog
from ui.permits.page import PermitsTab
from ui.permits.record_dialog import PermitDialog


def _idle(qtbot, ctx) -> None:
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)


def _permits(ctx) -> int:
    with ctx.db.read() as s:
        return s.scalar(select(func.count()).select_from(Permit)) or 0


def test_a_chicken_permit_is_refused_without_the_associations_consent(qtbot, ctx, host, holder):
    dialog = ChickenPermitDialog(ctx, parent=host)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.holder.set_person(holder.id, holder.full_name)
    qtbot.keyClicks(dialog.address, "21 Maple Dr")
    dialog.hens.setValue(4)
    dialog.setback.setValue(60)
    assert not dialog.offers("hoa_consent")  # asked only with an association
    dialog.hoa_exists.setChecked(True)
    assert dialog.offers("hoa_consent")
    assert "association" in dialog.check.text() and dialog.refuse_button.isEnabled()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    _idle(qtbot, ctx)
    assert dialog.form_fields.error_text("hoa_consent")  # beside the field
    assert dialog.isVisible() and dialog.address.text() == "21 Maple Dr"  # kept as typed
    assert _permits(ctx) == 0  # nothing saved
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.refuse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    assert any("refused" in q for q in ctx.errors.questions)  # a final action, confirmed
    view = saved[0]
    assert view.status == "refused"
    assert [p.field for p in view.application.problems] == ["hoa_consent"]
    record = PermitDialog(ctx, view, host)
    qtbot.addWidget(record)
    record.show()
    html = record.record.toPlainText()
    assert "Refused" in html and "consent" in html and "<Sons>" in html
    assert "not charged" in html
    assert not record.issue_button.isEnabled()
    tab = PermitsTab(ctx, host)
    qtbot.addWidget(tab)
    tab.show_status("refused")
    _idle(qtbot, ctx)
    assert tab.model.rowCount() == 1
    tab.show_status("current")
    _idle(qtbot, ctx)
    assert tab.model.rowCount() == 0


def test_a_fancier_permit_is_not_renewed_after_three_incidents(
    qtbot, ctx, host, holder, tmp_path_factory, read_pdf_text
):
    p = ctx.profile
    v = apply_fancier(
        ctx.db,
        ctx.actor,
        holder.id,
        holder.address,
        FancierInput(date(2026, 1, 5), 2026, (AnimalLine("pigeons", 12),)),
        p,
    )
    issue_permit(ctx.db, ctx.actor, v.id, date(2026, 1, 6), p)
    for day, kind, ending in (
        (date(2026, 2, 3), "noise", "warning"),
        (date(2026, 5, 6), "at_large", "citation"),
        (date(2026, 9, 9), "waste", "citation"),
    ):
        number = "C-9" if ending == "citation" else ""
        v = record_incident(
            ctx.db, ctx.actor, v.id, IncidentInput(day, kind, ending, "Complaint", number), p
        )
    record = PermitDialog(ctx, v, host)
    qtbot.addWidget(record)
    record.show()
    assert record.review_button.isEnabled() and not record.notice_button.isEnabled()
    review = record.act(ReviewDialog)
    assert isinstance(review, ReviewDialog)
    assert "Not renewed" in review.preview.text()  # the rules' decision, before recording
    qtbot.mouseClick(review.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().status == "not_renewed", timeout=10_000)
    assert record.status_chip.text() == "Not renewed"
    assert record.notice_button.isEnabled()
    notice = record.act(NoticeDialog)
    assert isinstance(notice, NoticeDialog)
    set_date(notice.mailed_on, date(2026, 11, 27))
    expected = fancier_renewal(record.view().review.counted, date(2026, 11, 27), p).appeal_by(
        date(2026, 11, 27)
    )
    assert format_day(expected) in notice.preview.text()
    qtbot.keyClicks(notice.article, "7019 0700 0000 1234")
    qtbot.mouseClick(notice.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().appeal_by is not None, timeout=10_000)
    assert record.view().appeal_by == expected
    text = record.record.toPlainText()
    assert f"Appeal due by {format_day(expected)}" in text
    assert "7019 0700 0000 1234" in text and "Why this date?" in text
    assert record.appeal_button.isEnabled()
    appeal = record.act(AppealDialog)
    assert isinstance(appeal, AppealDialog)
    qtbot.mouseClick(appeal.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().stayed, timeout=10_000)
    assert record.status_chip.text().startswith("Appeal pending")  # enforcement stayed
    assert "stayed" in record.record.toPlainText() and record.decide_button.isEnabled()
    _idle(qtbot, ctx)
    model = record.history_model
    said = {model.row_object(i).action for i in range(model.rowCount())}
    assert {"permit_reviewed", "permit_notice_mailed"} <= said
    out = tmp_path_factory.mktemp("documents")  # not the database's folder: refused there
    record.ask_save_path = lambda name: str(out / name)  # type: ignore[method-assign]
    qtbot.mouseClick(record.notice_pdf_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.doc_status.text().startswith("Saved"), timeout=10_000)
    printed = read_pdf_text((out / f"permit-{v.id}-notice.pdf").read_bytes())
    assert "7019 0700 0000 1234" in printed and format_day(expected) in printed


def test_under_dodgevilles_profile_the_form_offers_hens_only_five_at_most(
    qtbot, dodgeville_ctx, host
):
    dialog = ChickenPermitDialog(dodgeville_ctx, parent=host)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.hens.maximum() > 5  # taken as typed: the rules refuse more than five
    assert not dialog.offers("roosters")
    assert not dialog.offers("hoa_exists")
    assert not dialog.offers("neighbour_consent")
    set_date(dialog.applied_on, date(2026, 3, 3))
    dialog.first.setChecked(False)  # a renewal after 1 March pays the late fee
    assert "$10.00" in dialog.fees.text()


def test_the_tab_finds_a_permit_by_holder_and_shows_an_ended_year_as_expired(
    qtbot, ctx, host, holder
):
    from fieldops.services.permits.applying import ChickenInput, apply_chicken

    v = apply_chicken(
        ctx.db,
        ctx.actor,
        holder.id,
        holder.address,
        ChickenInput(date(2025, 4, 1), 2025, 3, 0, 60),
        ctx.profile,
    )
    issue_permit(ctx.db, ctx.actor, v.id, date(2025, 4, 2), ctx.profile)
    tab = PermitsTab(ctx, host)
    qtbot.addWidget(tab)
    tab.show_status("expired")
    _idle(qtbot, ctx)
    assert tab.model.rowCount() == 1
    assert tab.model.data(tab.model.index(0, 4)) == "Expired"
    tab.show_status("all")
    qtbot.keyClicks(tab.search, "Maple")
    qtbot.keyClick(tab.search, Qt.Key.Key_Return)
    _idle(qtbot, ctx)
    assert tab.model.rowCount() == 1
    tab.search.clear()
    qtbot.keyClicks(tab.search, "Nobody Here")
    qtbot.keyClick(tab.search, Qt.Key.Key_Return)
    _idle(qtbot, ctx)
    assert tab.model.rowCount() == 0


def test_today_and_history_links_open_a_permit_through_the_seam(qtbot, ctx, host, holder):
    from PySide6.QtWidgets import QApplication

    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from ui.modules import open_record

    v = apply_chicken(
        ctx.db,
        ctx.actor,
        holder.id,
        holder.address,
        ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60),
        ctx.profile,
    )
    assert open_record(ctx, "permit", "permit", v.id, host)
    _idle(qtbot, ctx)
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, PermitDialog)]
    assert [w.permit_id() for w in shown if w.isVisible()] == [v.id]
    for w in shown:
        w.close()


def test_a_chicken_permits_complaint_is_recorded_with_the_neighbours_distance(
    qtbot, ctx, host, holder
):
    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from ui.permits.action_dialogs import IncidentDialog

    v = apply_chicken(
        ctx.db,
        ctx.actor,
        holder.id,
        holder.address,
        ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60),
        ctx.profile,
    )
    v = issue_permit(ctx.db, ctx.actor, v.id, date(2026, 3, 3), ctx.profile)
    record = PermitDialog(ctx, v, host)
    qtbot.addWidget(record)
    record.show()
    assert record.incident_button.isEnabled() and not record.notice_button.isVisible()
    dialog = record.act(IncidentDialog)
    assert isinstance(dialog, IncidentDialog)
    dialog.distance.setValue(80)
    qtbot.keyClicks(dialog.description, "Crowing at dawn")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(record.view().incidents), timeout=10_000)
    assert record.view().incidents[0].distance_feet == 80
    assert "80 feet away" in record.record.toPlainText()
