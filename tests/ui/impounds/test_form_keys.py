"""Enter presses a form's main button wherever the focus has been (issue 7, item 4).

A button that takes the focus becomes the default while it has it (Qt's
autoDefault); once the focus moves on, Enter must save again. A final
disposition's Enter asks first (see test_final_dispositions.py).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from support import local

from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import get_impoundment
from ui.impounds.correction_dialog import CorrectionDialog
from ui.impounds.disposition_dialog import DispositionDialog
from ui.impounds.intake_dialog import IntakeDialog
from ui.impounds.payment_dialog import PaymentDialog
from ui.people.animal_dialog import AnimalDialog
from ui.people.person_dialog import PersonDialog
from ui.people.vaccination_dialog import VaccinationDialog


@pytest.fixture
def show(qtbot, host):
    def show_(dialog):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5_000)
        calls: list[int] = []
        dialog.save = lambda: calls.append(1)  # what Enter would save, counted
        return calls

    return show_


def enter_in(qtbot, widget) -> None:
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=5_000)
    qtbot.keyClick(widget, Qt.Key.Key_Return)


def leave_a_button(qtbot, button) -> None:
    """The focus visits a button (it becomes the default meanwhile), then moves on."""
    button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is button, timeout=5_000)


@pytest.fixture
def rex(pound):
    return pound.animal("Rex", owner=pound.ana, breed="Beagle")


@pytest.fixture
def penny(pound):
    return pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))


def test_person_form(qtbot, ctx, show):
    dialog = PersonDialog(ctx)
    calls = show(dialog)
    leave_a_button(qtbot, dialog.close_button)
    enter_in(qtbot, dialog.full_name)
    assert calls == [1] and dialog.save_button.isDefault()


def test_animal_form_after_switching_tabs(qtbot, ctx, show, rex):
    dialog = AnimalDialog(ctx, rex)
    calls = show(dialog)
    dialog.tabs.setCurrentIndex(1)
    leave_a_button(qtbot, dialog.add_vaccination_button)
    dialog.tabs.setCurrentIndex(0)
    enter_in(qtbot, dialog.name)
    assert calls == [1] and dialog.save_button.isDefault()


def test_vaccination_form(qtbot, ctx, show, rex):
    dialog = VaccinationDialog(ctx, rex)
    calls = show(dialog)
    leave_a_button(qtbot, dialog.close_button)
    enter_in(qtbot, dialog.veterinarian)
    assert calls == [1]


def test_intake_form(qtbot, ctx, show):
    dialog = IntakeDialog(ctx)
    calls = show(dialog)
    leave_a_button(qtbot, dialog.close_button)
    enter_in(qtbot, dialog.officer)
    assert calls == [1]


def test_payment_form(qtbot, ctx, show, penny, pound):
    dialog = PaymentDialog(ctx, penny, penny.fees)
    calls = show(dialog)
    leave_a_button(qtbot, dialog.payer.choose_button)
    enter_in(qtbot, dialog.receipt_number)
    assert calls == [1] and dialog.save_button.isDefault()


def test_transfer_form_asks_before_it_saves(qtbot, ctx, show, penny, errors):
    dialog = DispositionDialog(ctx, penny, "transferred")
    calls = show(dialog)
    leave_a_button(qtbot, dialog.close_button)
    errors.answer = False  # Go back
    enter_in(qtbot, dialog.transfer_to)
    assert calls == [] and len(errors.questions) == 1
    errors.answer = True
    enter_in(qtbot, dialog.transfer_to)
    assert calls == [1]


def test_correction_form(qtbot, supervisor_ctx, show, penny, pound, sqlite_db):
    record_escape(
        sqlite_db,
        supervisor_ctx.actor,
        penny.id,
        pound.profile,
        at=local(2026, 11, 20, 9),
        notes="gate",
    )
    view = get_impoundment(sqlite_db, penny.id, pound.profile, local(2026, 11, 27, 15))
    dialog = CorrectionDialog(supervisor_ctx, view)
    calls = show(dialog)
    leave_a_button(qtbot, dialog.close_button)
    enter_in(qtbot, dialog.kind)
    assert calls == [1]


def test_animal_form_after_switching_tabs_by_mouse(qtbot, ctx, show, rex):
    dialog = AnimalDialog(ctx, rex)
    calls = show(dialog)
    bar = dialog.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    for _ in range(10):  # Tab on from the vaccinations, past Save
        if QApplication.focusWidget() is dialog.save_button:
            break
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is dialog.save_button
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(0).center())
    enter_in(qtbot, dialog.name)
    assert calls == [1] and dialog.save_button.isDefault()
