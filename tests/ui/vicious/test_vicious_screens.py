"""The issue's walks on screen: a declaration refused for an exception; a declaration; a notice
posted on a Friday afternoon (and one across a Monday holiday); an outcome; an overdue case on
Today; a pound release refused for a declared animal."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from support import local
from vicious_cases import declared, owner_and_dog, with_step

from fieldops.rules import vicious as rules
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.vicious.cases import load_case
from fieldops.services.vicious.listing import CaseFilter, count_cases
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from ui import modules as ui_modules
from ui.impounds.release_wizard import ReleaseWizardDialog
from ui.today.page import TodayWidget
from ui.vicious.action_dialogs import NoticeDialog, OutcomeDialog
from ui.vicious.case_dialog import CaseDialog
from ui.vicious.declaration_dialog import DeclarationDialog
from ui.vicious.page import ViciousWidget


@pytest.fixture
def rex(sqlite_db, operator, today):
    return owner_and_dog(sqlite_db, operator, today)


def wait_idle(qtbot, ctx):
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)


def fill_declaration(qtbot, dialog, animal, *, ground=True):
    dialog.animal.set_animal(animal.id, f"#{animal.id} {animal.name}")
    row = dialog.incident_rows[0]
    row.when.set_value(local(2026, 11, 26, 17))
    dialog.decided_at.set_value(local(2026, 11, 27, 9))
    qtbot.keyClicks(row.place, "Elm & 3rd")
    qtbot.keyClicks(row.what, "Bit a jogger on the calf.")
    if ground:
        dialog.grounds["bit_or_clawed"].setChecked(True)


def cases_count(ctx, status="all"):
    return count_cases(ctx.db, CaseFilter(status=status), ctx.now())


def test_declare_waits_for_every_finding_then_a_refusal_is_recorded(qtbot, ctx, host, rex):
    _owner, dog = rex
    dialog = DeclarationDialog(ctx, host)  # closes itself (and is deleted) when saved
    dialog.show()
    fill_declaration(qtbot, dialog, dog)
    assert not dialog.save_button.isEnabled()
    assert f"{len(rules.EXCEPTIONS)} without a finding" in dialog.why_disabled.text()
    # Each exception reads in the ordinance's own words.
    words = [w.text() for w in dialog.findChildren(type(dialog.why_disabled))]
    assert rules.EXCEPTION_TEXT["stopping_fight"] in words
    dialog.findings["provoked_by_person"].applies.setChecked(True)
    qtbot.keyClicks(dialog.findings["provoked_by_person"].why, "Hit with a stick first")
    assert not dialog.save_button.isEnabled()  # ten still without a finding
    qtbot.mouseClick(dialog.none_apply, Qt.MouseButton.LeftButton)
    assert dialog.save_button.isEnabled()
    assert dialog.save_button.text() == "Record &refusal"
    assert "58-524(a)(2)b(iii)" in dialog.why_disabled.text()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: cases_count(ctx) == 1, timeout=10_000)
    wait_idle(qtbot, ctx)
    assert cases_count(ctx, "refused") == 1
    assert any("Record the refusal" in q for q in ctx.errors.questions)


def test_a_declaration_with_a_missing_ground_is_refused_beside_the_field_then_made(
    qtbot, ctx, host, rex
):
    _owner, dog = rex
    dialog = DeclarationDialog(ctx, host)  # closes itself (and is deleted) when saved
    dialog.show()
    fill_declaration(qtbot, dialog, dog, ground=False)
    qtbot.mouseClick(dialog.none_apply, Qt.MouseButton.LeftButton)
    assert dialog.save_button.text() == "&Declare"
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.fields.error_text("grounds")), timeout=10_000)
    assert "58-524(a)(1)" in dialog.fields.error_text("grounds")
    assert cases_count(ctx) == 0 and dialog.incident_rows[0].place.text() == "Elm & 3rd"
    dialog.grounds["bit_or_clawed"].setChecked(True)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: cases_count(ctx, "declared") == 1, timeout=10_000)
    wait_idle(qtbot, ctx)


def test_declaring_an_animal_already_declared_is_refused_beside_the_animal(
    qtbot, ctx, host, rex, profile
):
    _owner, dog = rex
    declared(ctx.db, ctx.actor, profile, dog.id)
    dialog = DeclarationDialog(ctx, host)
    dialog.show()
    fill_declaration(qtbot, dialog, dog)
    qtbot.mouseClick(dialog.none_apply, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.fields.error_text("animal_id")), timeout=10_000)
    assert "#" in dialog.fields.error_text("animal_id")  # names the case in force
    assert cases_count(ctx) == 1 and dialog.incident_rows[0].place.text() == "Elm & 3rd"
    dialog.close()


@pytest.mark.parametrize(
    ("served", "deadline"),
    [
        (local(2026, 11, 27, 15, 0), "Mon 30 Nov 2026 3:00 PM CST"),  # Friday afternoon
        (local(2026, 9, 4, 15, 30), "Tue 8 Sep 2026 3:30 PM CDT"),  # before Labor Day
    ],
)
def test_a_notice_posted_on_a_friday_afternoon(qtbot, ctx, host, rex, profile, served, deadline):
    _owner, dog = rex
    case = declared(ctx.db, ctx.actor, profile, dog.id, decided_at=local(2026, 9, 1, 9))
    record = CaseDialog(ctx, case, host)
    qtbot.addWidget(record)
    record.show()
    assert record.notice_button.isEnabled() and not record.outcome_button.isEnabled()
    notice = record._act(NoticeDialog)
    notice.method.setCurrentIndex(notice.method.findData("posted"))
    notice.served_at.set_value(served)
    assert notice.deadline_preview.text().startswith(f"Deadline: {deadline}. Why this date?")
    assert notice.place.text() == "12 Elm St, Madison, WI 53703"  # the owner's residence
    qtbot.mouseClick(notice.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().notice is not None, timeout=10_000)
    wait_idle(qtbot, ctx)
    n = record.view().notice
    assert n.deadline_text == deadline and n.method == "posted"
    text = record.follow_up.toPlainText()
    assert deadline in text and "Why this date?" in text and "Sunday" in text
    if served.month == 9:
        assert "Labor Day" in text
    assert record.outcome_button.isEnabled()
    assert deadline in record.countdown.text()


def test_an_outcome_recorded(qtbot, ctx, host, rex, profile):
    _owner, dog = rex
    case = declared(ctx.db, ctx.actor, profile, dog.id)
    case = serve_notice(
        ctx.db,
        ctx.actor,
        case.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    record = CaseDialog(ctx, case, host)
    qtbot.addWidget(record)
    record.show()
    dialog = record._act(OutcomeDialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("removed"))
    dialog.at.set_value(local(2026, 11, 4, 12))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.fields.error_text("removed_to")), timeout=10_000)
    qtbot.keyClicks(dialog.removed_to, "Verona, 1220 County Rd K")
    qtbot.keyClicks(dialog.confirmed_how, "Verona police saw the dog there")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().status == "removed", timeout=10_000)
    wait_idle(qtbot, ctx)
    assert "Verona, 1220 County Rd K" in record.follow_up.toPlainText()
    assert not record.outcome_button.isEnabled() and not record.notice_button.isEnabled()


def test_an_overdue_case_stands_out_on_today_and_in_the_list(
    qtbot, ctx, host, rex, profile, rows_of
):
    _owner, dog = rex
    case = declared(ctx.db, ctx.actor, profile, dog.id)
    serve_notice(
        ctx.db,
        ctx.actor,
        case.id,
        NoticeInput("posted", local(2026, 11, 20, 15, 30), "Off. Vang", "Front door"),
        profile,
    )
    today = TodayWidget(ctx)
    qtbot.addWidget(today)
    today.show()
    wait_idle(qtbot, ctx)
    rows = rows_of(today.view)
    mine = [r for r in rows if r[1] == str(case.id) and r[4] == "Vicious animals"]
    assert mine and mine[0][0] == "Overdue: Notice expired, no outcome recorded"
    assert "Mon 23 Nov 2026 3:30 PM CST" in mine[0][3]
    assert ui_modules.open_record(ctx, "vicious", "case", case.id, host)
    qtbot.waitUntil(lambda: _open_case_dialog() is not None, timeout=10_000)
    dialog = _open_case_dialog()
    assert dialog.case_id() == case.id and "expired" in dialog.countdown.text()
    dialog.close()
    page = ViciousWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle(qtbot, ctx)
    listed = rows_of(page.view)
    assert listed[0][:2] == (str(case.id), "OVERDUE: notice expired")
    assert listed[0][5] == "overdue by 3 d 23 h 30 min"  # Mon 3:30 PM to Fri 3:00 PM
    assert page.model.index(0, 0).data(Qt.ItemDataRole.FontRole).bold()
    # The whole countdown shows in its cell, in the bold the overdue row is painted in.
    bold = page.model.index(0, 5).data(Qt.ItemDataRole.FontRole)
    assert QFontMetrics(bold).horizontalAdvance(listed[0][5]) + 8 <= page.view.columnWidth(5)
    page.show_status("overdue")
    wait_idle(qtbot, ctx)
    assert page.model.rowCount() == 1


def test_a_next_step_past_its_day_stands_out_in_its_cell_and_is_overdue_on_today(
    qtbot, ctx, host, sqlite_db, operator, today, profile, rows_of
):
    from ui.vicious.columns import STEP_COLUMN

    cases = {}
    for name, due in (("Late", today - timedelta(days=1)), ("Soon", today)):
        _owner, dog = owner_and_dog(sqlite_db, operator, today, f"{name} Owner", name)
        cases[name] = with_step(ctx.db, ctx.actor, profile, dog.id, "court_action", due).id
    page = ViciousWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle(qtbot, ctx)
    at = {page.model.row_object(r).id: r for r in range(page.model.rowCount())}
    late = page.model.index(at[cases["Late"]], STEP_COLUMN)
    soon = page.model.index(at[cases["Soon"]], STEP_COLUMN)
    assert late.data() == "Thu 26 Nov 2026" and soon.data() == "Fri 27 Nov 2026"
    assert late.data(Qt.ItemDataRole.FontRole).bold()
    assert late.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert late.data(Qt.ItemDataRole.BackgroundRole) is None  # the cell, not the row
    assert page.model.index(at[cases["Late"]], 1).data(Qt.ItemDataRole.FontRole) is None
    assert soon.data(Qt.ItemDataRole.FontRole) is None
    today_page = TodayWidget(ctx)
    qtbot.addWidget(today_page)
    today_page.show()
    wait_idle(qtbot, ctx)
    steps = {r[1]: r[0] for r in rows_of(today_page.view) if r[4] == "Vicious animals"}
    assert steps[str(cases["Late"])].startswith("Overdue: ")
    assert not steps[str(cases["Soon"])].startswith("Overdue: ")


def _open_case_dialog():
    from PySide6.QtWidgets import QApplication

    found = [
        w for w in QApplication.topLevelWidgets() if isinstance(w, CaseDialog) and w.isVisible()
    ]
    return found[-1] if found else None


def test_a_pound_release_is_refused_for_a_declared_animal(qtbot, ctx, host, rex, profile):
    owner, dog = rex
    from accounts_support import enrol

    from fieldops.services.animals import VaccinationInput, add_vaccination
    from fieldops.services.context import Actor

    # The pound's records by an operator; the declaration by the officer (issue 12).
    clerk = enrol(ctx.db, Actor("opal", "operator", "Opal Operator"))

    add_vaccination(
        ctx.db,
        clerk,
        dog.id,
        VaccinationInput(date(2026, 6, 1), date(2027, 6, 1), "RV-1"),
        today=ctx.today(),
    )
    imp = intake(
        ctx.db,
        clerk,
        IntakeInput(
            impounded_at=local(2026, 11, 25, 10),
            animal_id=dog.id,
            officer="Off. Lee",
            reason="bite",
            found_place="Elm & 3rd",
        ),
        profile,
    )
    fees = quote(ctx.db, imp.id, ctx.now(), True, profile)
    record_payment(
        ctx.db,
        clerk,
        imp.id,
        PaymentInput(
            tuple(LineInput(f.kind, f.amount) for f in fees.lines if f.amount > 0),
            "cash",
            "R-1",
            payer_id=owner.id,
            paid_at=ctx.now(),
        ),
        profile,
    )
    case = declared(ctx.db, ctx.actor, profile, dog.id, decided_at=local(2026, 11, 26, 9))
    view = get_impoundment(ctx.db, imp.id, profile, ctx.now())
    wizard = ReleaseWizardDialog(ctx, view, host)
    qtbot.addWidget(wizard)
    wizard.open()
    wizard.next()
    page = wizard.requirements
    qtbot.waitUntil(page.is_checked, timeout=10_000)
    qtbot.keyClicks(page.licence_receipt, "L-2026-0077")
    page.check_now()
    qtbot.waitUntil(page.is_checked, timeout=10_000)
    wait_idle(qtbot, ctx)
    rows = {label: (mark, note) for mark, label, note in page.checklist.rows()}
    label = "Not declared vicious, or going to someone outside the city"
    assert rows[label][0] == "✘"
    assert not wizard.finish_button().isEnabled()
    assert page.checklist.override_field("not_vicious") is None  # an operator cannot override
    assert load_case(ctx.db, case.id, profile).declared
    wizard.close()
