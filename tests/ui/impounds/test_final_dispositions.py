"""A final disposition is never recorded by one Enter (issue 7, item 2).

Each form opens with the focus in its first field, asks before it records
(naming the animal and the disposition, "Go back" the default answer), and
a payment opens in its first field too.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from support import local

from ui.impounds import opening

KINDS = ("transferred", "euthanized", "died", "escaped")


@pytest.fixture
def open_record(ctx, host, wait_dialog, wait_idle):
    def open_(impoundment_id: int):
        opening.open_impoundment(ctx, impoundment_id, host)
        record = wait_dialog("ImpoundmentDialog")
        wait_idle()
        return record

    return open_


@pytest.fixture
def past_hold(pound):
    """Impounded Thu 12 Nov; the owner could claim until Thu 19 Nov."""
    return pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))


def fill(qtbot, dialog, kind):
    """A form the service accepts."""
    if kind == "transferred":
        qtbot.keyClicks(dialog.transfer_to, "Dane County Humane Society")
    if kind == "euthanized":
        dialog.basis.setCurrentIndex(dialog.basis.findData("hold_ended"))
        qtbot.keyClicks(dialog.decided_by, "Sgt. Ortiz, officer")
    if kind in ("died", "escaped"):
        qtbot.keyClicks(dialog.notes, "Found in the yard")


def press_enter(qtbot):
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)


@pytest.mark.parametrize("kind", KINDS)
def test_enter_as_the_form_opens_records_nothing(
    qtbot, open_record, past_hold, wait_dialog, wait_idle, errors, kind
):
    record = open_record(past_hold.id)
    record.other_actions[kind].trigger()
    dialog = wait_dialog("DispositionDialog")
    focused = QApplication.focusWidget()
    assert not isinstance(focused, QPushButton)
    assert dialog.at.isAncestorOf(focused) or focused is dialog.at  # the first field: When
    errors.answer = False  # the question's default answer: Go back
    press_enter(qtbot)
    wait_idle()
    assert len(errors.questions) == 1
    assert f"#{past_hold.id}" in errors.questions[0] and "Penny" in errors.questions[0]
    assert record.view().in_custody
    # Filled in, Enter still only asks; answered "Go back", nothing is recorded either.
    fill(qtbot, dialog, kind)
    dialog.at.setFocus()
    press_enter(qtbot)
    wait_idle()
    assert len(errors.questions) == 2 and dialog.isVisible()
    assert record.view().in_custody
    dialog.close()
    record.close()


@pytest.mark.parametrize("kind", KINDS)
def test_record_then_confirm_records_it(
    qtbot, open_record, past_hold, wait_dialog, wait_idle, errors, kind
):
    record = open_record(past_hold.id)
    dialog = record.open_disposition(kind)
    fill(qtbot, dialog, kind)
    errors.answer = True  # the user chooses "Record ..."
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert record.view().disposition.kind == kind
    assert errors.questions[-1].startswith("Record the ")
    record.close()


def test_enter_on_the_question_itself_records_nothing(
    qtbot, open_record, past_hold, ctx, wait_idle, wait_dialog
):
    record = open_record(past_hold.id)
    dialog = record.open_disposition("euthanized")
    wait_dialog("DispositionDialog")
    fill(qtbot, dialog, "euthanized")
    seen = {}

    def answer(key_or_button):
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen["text"] = box.text()
        seen["default"] = box.defaultButton().text()
        if key_or_button == "enter":
            qtbot.keyClick(box, Qt.Key.Key_Return)
        else:
            next(b for b in box.buttons() if b.text().startswith("&Record")).click()

    ctx.errors.interactive = True
    try:
        QTimer.singleShot(100, lambda: answer("enter"))
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        wait_idle()
        assert seen["default"] == "&Go back"
        assert "humane destruction" in seen["text"] and "Penny" in seen["text"]
        assert record.view().in_custody
        QTimer.singleShot(100, lambda: answer("record"))
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        wait_idle()
        wait_idle()
    finally:
        ctx.errors.interactive = False
    d = record.view().disposition
    assert (d.kind, d.euthanasia_basis, d.decided_by) == (
        "euthanized",
        "hold_ended",
        "Sgt. Ortiz, officer",
    )
    assert record.summary.disposition.value("Basis") == (
        "The hold has ended and the animal was not claimed"
    )
    record.close()


def test_enter_in_the_notes_starts_a_new_line(
    qtbot, open_record, past_hold, wait_dialog, wait_idle, errors
):
    record = open_record(past_hold.id)
    dialog = record.open_disposition("died")
    wait_dialog("DispositionDialog")
    dialog.notes.setFocus()
    qtbot.keyClicks(dialog.notes, "Found dead")
    qtbot.keyClick(dialog.notes, Qt.Key.Key_Return)
    qtbot.keyClicks(dialog.notes, "vet notified")
    wait_idle()
    assert dialog.notes.toPlainText() == "Found dead\nvet notified"
    assert errors.questions == [] and record.view().in_custody
    dialog.close()
    record.close()


def test_a_payment_opens_in_its_first_field_and_enter_saves_nothing_unchecked(
    qtbot, open_record, past_hold, wait_dialog, wait_idle
):
    record = open_record(past_hold.id)
    record.fees.record_button.click()
    payment = wait_dialog("PaymentDialog")
    assert QApplication.focusWidget() is payment.line_items.row(0).kind
    press_enter(qtbot)
    wait_idle()
    assert payment.fields.error_text("receipt_number") == "Receipt number is required."
    assert record.view().payments == ()
    payment.close()
    record.close()
