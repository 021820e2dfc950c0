"""The calls screens (issue 16, "Done when"): a call from the phone to dispatch to an
impoundment opened from it; a barking complaint through notice and a refused then accepted
petition; a repeat offender's citations climbing the ladder; the address history."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from calls_support import call_input, complained_call
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.rules import penalty_for
from fieldops.services.calls.listing import CallFilter
from fieldops.services.calls.records import create_call, get_call
from ui.calls.call_dialog import CallDialog
from ui.calls.page import CallsWidget
from ui.common.table_models import ROW_ROLE


def _shown(qtbot, name: str):
    found: list = []

    def shown() -> bool:
        found[:] = [
            w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()
        ]
        return bool(found)

    qtbot.waitUntil(shown, timeout=10_000)
    return found[-1]


def _click(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_call_from_the_phone_to_dispatch_to_the_impoundment_opened_from_it(
    qtbot, ctx, host, ana, wait_idle
):
    page = CallsWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    page.new_record()
    form = _shown(qtbot, "CallForm")
    _click(qtbot, form.save_button)  # nothing typed: refused beside the fields
    qtbot.waitUntil(lambda: bool(form.fields.error_text("address")), timeout=10_000)
    assert form.fields.error_text("caller_name")
    qtbot.keyClicks(form.address, "12 Elm St")
    form.kind.setCurrentIndex(form.kind.findData("at_large"))
    form.priority.setCurrentIndex(form.priority.findData(1))
    qtbot.keyClicks(form.caller_name, "Nora Neighbour")
    form.owner.set_person(ana.id, ana.full_name)
    _click(qtbot, form.save_button)
    view: CallDialog = _shown(qtbot, "CallDialog")
    wait_idle()
    assert view.view.status == "open" and view.view.section == "58-521"
    qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=10_000)
    assert "Emergency" in page.model.index(0, 1).data()

    _click(qtbot, view.buttons["dispatch"])
    d = _shown(qtbot, "DispatchDialog")
    wait_idle()
    assert d.officer.currentData() == ctx.actor.username
    _click(qtbot, d.save_button)
    qtbot.waitUntil(lambda: view.view.status == "dispatched", timeout=10_000)

    _click(qtbot, view.buttons["outcome"])
    o = _shown(qtbot, "OutcomeDialog")
    o.arrived_at.unknown.setChecked(False)
    o.cleared_at.unknown.setChecked(False)
    o.outcome.setCurrentIndex(o.outcome.findData("impounded"))
    _click(qtbot, o.save_button)
    qtbot.waitUntil(lambda: view.view.outcome == "impounded", timeout=10_000)

    _click(qtbot, view.buttons["intake"])
    intake = _shown(qtbot, "IntakeDialog")
    assert intake.found_place.text().startswith("12 Elm St")
    assert intake.owner.person_id() == ana.id
    assert "From call #" in intake.notes.toPlainText()
    qtbot.keyClicks(intake.name, "Biscuit")
    qtbot.keyClicks(intake.breed, "Corgi")
    qtbot.keyClicks(intake.colour, "red")
    _click(qtbot, intake.save_button)
    qtbot.waitUntil(lambda: view.view.dispatches[-1].impoundment_id is not None, timeout=10_000)
    wait_idle()
    # The pound's record, in the address history, opens in the pound's own window.
    _shown(qtbot, "ImpoundmentDialog").close()  # the intake opened its record when saved
    rows = [i for i in range(view.history.count()) if "Impounded" in view.history.item(i).text()]
    assert rows
    view.history.itemActivated.emit(view.history.item(rows[0]))
    _shown(qtbot, "ImpoundmentDialog")
    wait_idle()
    for w in QApplication.topLevelWidgets():
        if w.objectName() in ("ImpoundmentDialog", "CallDialog"):
            w.close()


def test_a_barking_complaint_through_notice_and_a_refused_then_accepted_petition(
    qtbot, ctx, host, ana, wait_idle
):
    c = create_call(ctx.db, ctx.actor, call_input("12 Elm", owner_id=ana.id))
    view = CallDialog(ctx, c, host)
    qtbot.addWidget(view)
    view.show()
    _click(qtbot, view.buttons["revise"])  # the address corrected, audited
    form = _shown(qtbot, "CallForm")
    assert form.owner.person_id() == ana.id and form.caller_name.text() == "Nora Neighbour"
    form.address.setText("12 Elm St")
    _click(qtbot, form.save_button)
    qtbot.waitUntil(lambda: view.view.address == "12 Elm St", timeout=10_000)
    assert view.view.version == c.version + 1 and view.view.received_at == c.received_at
    _click(qtbot, view.buttons["complaint"])
    comp = _shown(qtbot, "ComplaintDialog")
    _click(qtbot, comp.save_button)
    qtbot.waitUntil(lambda: len(view.view.complaints) == 1, timeout=10_000)
    assert not view.buttons["petition"].isEnabled()  # the owner is not yet notified
    _click(qtbot, view.buttons["notice"])
    notice = _shown(qtbot, "NoticeDialog")
    notice.how.setCurrentIndex(notice.how.findData("certified_mail"))
    _click(qtbot, notice.save_button)
    qtbot.waitUntil(lambda: view.view.complaints[0].notified_at is not None, timeout=10_000)

    _click(qtbot, view.buttons["petition"])
    p = _shown(qtbot, "PetitionDialog")
    p.petitioners.setPlainText("Nora Neighbour, 555-0101, 14 Elm St")
    p.animal.setPlainText("Black Labrador; owner Ana O'Brien, 12 Elm St")
    _click(qtbot, p.save_button)
    qtbot.waitUntil(lambda: bool(p.fields.error_text("violations")), timeout=10_000)
    assert p.fields.error_text("reported_on") and p.fields.error_text("will_testify")
    assert not p.fields.error_text("petitioners")
    assert get_call(ctx.db, c.id).complaints[0].petitions == ()
    _click(qtbot, p.refuse_button)
    qtbot.waitUntil(lambda: len(view.view.complaints[0].petitions) == 1, timeout=10_000)
    assert view.view.complaints[0].petitions[0].status == "refused"
    assert "refused" in view.details.text()

    _click(qtbot, view.buttons["petition"])
    p = _shown(qtbot, "PetitionDialog")
    p.petitioners.setPlainText("Nora Neighbour, 555-0101, 14 Elm St")
    p.animal.setPlainText("Black Labrador; owner Ana O'Brien, 12 Elm St")
    p.violations.setPlainText("Barking 10 pm to 2 am, 3 to 5 March")
    p.reported_on.setText("3, 4 and 5 March")
    p.will_testify.setChecked(True)
    p.referred_to.setCurrentIndex(p.referred_to.findData("community_development"))
    _click(qtbot, p.save_button)
    qtbot.waitUntil(lambda: len(view.view.complaints[0].petitions) == 2, timeout=10_000)
    accepted = view.view.complaints[0].petitions[1]
    assert (accepted.status, accepted.referred_to) == ("accepted", "community_development")
    wait_idle()
    view.close()


# The citation sheet's menu pops up: the offscreen platform cannot raise it or grab the keys.
@pytest.mark.qt_log_ignore(
    r"This plugin does not support (raise\(\)|grabbing the keyboard|propagateSizeHints\(\))"
)
def test_a_repeat_offenders_citations_climb_the_ladder(qtbot, ctx, host, ana, wait_idle):
    from fieldops.services.calls.flags import set_flag
    from fieldops.services.calls.records import get_call as reread

    set_flag(ctx.db, ctx.actor, reason="Threatened an officer", person_id=ana.id)
    c = reread(ctx.db, complained_call(ctx.db, ctx.actor, ana.id).id)
    view = CallDialog(ctx, c, host)
    qtbot.addWidget(view)
    view.show()
    for n, days in ((1, 1), (2, 2)):
        _click(qtbot, view.buttons["cite"])
        cit = _shown(qtbot, "CitationDialog")
        assert cit.caution.isVisibleTo(cit) and "Threatened" in cit.caution.text()
        today = ctx.now().astimezone(ctx.timezone).date()
        from datetime import timedelta

        from PySide6.QtCore import QDate

        first = today - timedelta(days=10 if n == 1 else 2)
        last = first + timedelta(days=days - 1)
        cit.first_day.setDate(QDate(first.year, first.month, first.day))
        cit.last_day.setDate(QDate(last.year, last.month, last.day))
        before = len(view.view.citations)
        _click(qtbot, cit.save_button)
        qtbot.waitUntil(lambda b=before: len(view.view.citations) > b, timeout=10_000)
    numbers = [t.offence_number for t in view.view.citations]
    assert numbers == [1, 2, 3]
    assert [t.forfeiture for t in view.view.citations] == [
        penalty_for("58-531", k, ctx.profile).forfeiture for k in numbers
    ]
    assert any("citation" in q.lower() for q in ctx.errors.questions)
    wait_idle()
    _click(qtbot, view.buttons["court"])
    upd = _shown(qtbot, "CitationUpdateDialog")
    upd.paid_on.set_value(ctx.now().astimezone(ctx.timezone).date())
    _click(qtbot, upd.save_button)
    qtbot.waitUntil(lambda: view.view.citations[0].paid_on is not None, timeout=10_000)
    _click(qtbot, view.buttons["clear_caution"])
    clr = _shown(qtbot, "ClearCautionDialog")
    clr.reason.setPlainText("Resident moved away")
    _click(qtbot, clr.save_button)
    qtbot.waitUntil(lambda: view.view.flags == (), timeout=10_000)
    assert not view.caution.isVisibleTo(view)
    opened: list[str] = []
    view.open_in_viewer = opened.append  # type: ignore[method-assign]
    # Three citations, one sheet each: the button offers each, newest first.
    _click(qtbot, view.buttons["citation_pdf"])
    actions = view.citation_menu.actions()
    assert len(actions) == 3
    assert all(
        f"#{t.id}:" in a.text() for a, t in zip(actions, view.view.citations[::-1], strict=True)
    )
    view.citation_menu.hide()
    actions[-1].trigger()  # the first citation's sheet, not only the latest's
    _click(qtbot, view.buttons["notice_pdf"])
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=10_000)
    assert [p.endswith(("citation.pdf", "notice.pdf")) for p in opened] == [True, True]
    import io

    from pypdf import PdfReader

    from fieldops.rules import format_day

    first, latest = view.view.citations[0], view.view.citations[-1]
    (path,) = [p for p in opened if p.endswith("citation.pdf")]
    with open(path, "rb") as f:
        sheet = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(f.read())).pages)
    sheet = " ".join(sheet.split())
    assert format_day(first.offence_on) in sheet and format_day(latest.offence_on) not in sheet
    view.close()


def test_the_officers_day_prints_and_today_opens_a_citations_call(qtbot, ctx, host, ana, wait_idle):
    import io

    from pypdf import PdfReader

    from ui import modules as ui_modules

    c = complained_call(ctx.db, ctx.actor, ana.id)  # dispatched to me, no outcome
    page = CallsWidget(ctx)
    qtbot.addWidget(page)
    opened: list[str] = []
    page.open_in_viewer = opened.append  # type: ignore[method-assign]
    _click(qtbot, page.day_button)
    qtbot.waitUntil(lambda: bool(opened), timeout=10_000)
    with open(opened[0], "rb") as f:
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(f.read())).pages)
    assert "Open calls assigned to me (1)" in text and "12 Elm St" in text
    from fieldops.services.calls.citations import CitationInput, cite

    day = ctx.now().astimezone(ctx.timezone).date()  # the city's day, not UTC's
    t = cite(
        ctx.db, ctx.actor, CitationInput(ana.id, "58-531", (day,), "X", call_id=c.id), ctx.profile
    )[0]
    assert ui_modules.open_record(ctx, "call", "citation", t.id, host)
    view = _shown(qtbot, "CallDialog")
    assert view.call_id() == c.id
    wait_idle()
    view.close()


def test_the_lists_week_of_follow_ups_is_counted_from_the_citys_evening_date(qtbot, ctx, ana):
    """An officer looking at "Awaiting follow-up" on a Chicago evening (already tomorrow in
    UTC) sees the week from the city's today: a follow-up eight days off is not in it."""
    from dataclasses import replace as changed

    from calls_support import closed_with_follow_up

    from ui.calls.list_model import CallTableModel

    evening = datetime.combine(ctx.today(), time(21, 30), ctx.timezone)
    at_evening = changed(ctx, now=lambda: evening.astimezone(UTC))
    assert evening.astimezone(UTC).date() > ctx.today()  # the case this is about
    day = ctx.today()
    week = closed_with_follow_up(ctx.db, ctx.actor, day + timedelta(days=7), owner_id=ana.id)
    closed_with_follow_up(ctx.db, ctx.actor, day + timedelta(days=8), owner_id=ana.id)
    model = CallTableModel(at_evening)
    model.set_filter(CallFilter(show="follow_up"))
    qtbot.waitUntil(lambda: not model.is_counting() and model.rowCount() == 1, timeout=10_000)
    assert model.data(model.index(0, 0), ROW_ROLE).id == week.id
