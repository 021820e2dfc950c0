"""Two keys a clerk presses in a hurry: Close (or Esc, or Enter on Close) while a save is
under way, and a scanner's Enter in a counter form.

Closed while its save ran, a form used to ask "discard your changes?" and close: the
record was made anyway, nobody saw it, and the clerk entered it again. A form that is
saving waits for its answer. In a counter form (``enter_moves_on``) Enter in a one-line
field moves on to the next field: a scanner ends the digits it types with Enter.
"""

from __future__ import annotations

import threading

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.services.people import count_people
from ui.people import person_dialog
from ui.people.person_dialog import PersonDialog


@pytest.fixture
def dialog(qtbot, ctx):
    d = PersonDialog(ctx)  # deletes itself once closed
    d.show()
    qtbot.waitExposed(d)
    d.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is d, timeout=5_000)
    yield d
    if shiboken6.isValid(d):
        d.mark_clean()
        d.close()


def test_closing_while_the_save_runs_waits_for_it_and_asks_nothing(
    qtbot, ctx, dialog, wait_idle, monkeypatch
):
    dialog.full_name.setText("Ana Ruiz")
    dialog.address.setText("12 Elm St")
    go = threading.Event()
    real = person_dialog.create_person

    def slow_create(*args, **kwargs):
        go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(person_dialog, "create_person", slow_create)
    asked = len(ctx.errors.questions)
    dialog.save_button.click()
    assert dialog.is_saving()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    dialog.close_button.click()
    assert dialog.isVisible() and len(ctx.errors.questions) == asked  # no "discard?" asked
    go.set()
    wait_idle()
    assert count_people(ctx.db) == 1 and not dialog.is_saving()
    dialog.close_button.click()  # saved: it closes at once
    assert not dialog.isVisible() and len(ctx.errors.questions) == asked


def test_enter_in_a_counter_form_moves_on_and_never_saves(qtbot, dialog):
    calls: list[int] = []
    dialog.save = lambda: calls.append(1)  # what a save would do, counted
    dialog.enter_moves_on = True
    dialog.full_name.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.full_name, timeout=5_000)
    qtbot.keyClicks(dialog.full_name, "Ana Ruiz")
    qtbot.keyClick(dialog.full_name, Qt.Key.Key_Return)
    assert calls == [] and QApplication.focusWidget() is not dialog.full_name
    dialog.save_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.save_button, timeout=5_000)
    qtbot.keyClick(dialog.save_button, Qt.Key.Key_Return)  # Enter on Save itself saves
    assert calls == [1]


def test_enter_in_an_ordinary_form_still_saves(qtbot, dialog):
    calls: list[int] = []
    dialog.save = lambda: calls.append(1)
    dialog.full_name.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.full_name, timeout=5_000)
    qtbot.keyClick(dialog.full_name, Qt.Key.Key_Return)
    assert calls == [1]


def test_enter_on_a_choice_or_a_tick_box_of_a_counter_form_moves_on(qtbot, ctx):
    from PySide6.QtWidgets import QCheckBox

    dialog = PersonDialog(ctx)
    dialog.enter_moves_on = True
    calls: list[int] = []
    dialog.save = lambda: calls.append(1)
    box = QCheckBox("A tick box", dialog)
    dialog.body.addWidget(box)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5_000)
    box.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is box, timeout=5_000)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert calls == [] and QApplication.focusWidget() is not box
    dialog.mark_clean()
    dialog.close()
