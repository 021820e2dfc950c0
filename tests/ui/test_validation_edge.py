"""Issue 13: a value no column can hold, typed into a form, is refused beside its field;
the form keeps what was typed and nothing is saved."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fieldops.services.people import count_people


@pytest.fixture
def new_person_dialog(qtbot, window, wait_dialog):
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    return wait_dialog("PersonDialog")


def test_a_nul_and_an_over_long_e_mail_are_marked_and_the_form_keeps_them(
    qtbot, new_person_dialog, wait_idle, sqlite_db
):
    d = new_person_dialog
    name, email = "Ana\x00 Ruiz", ("a" * 190) + "@example.org"  # the column holds 200
    notes = "first line\nbit the \x00 officer"
    d.full_name.setText(name)
    d.email.setText(email)
    d.notes.setPlainText(notes)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert count_people(sqlite_db) == 0
    assert "NUL" in d.fields.error_text("full_name")
    assert "at most 200 characters" in d.fields.error_text("email")
    assert "NUL" in d.fields.error_text("notes")
    assert d.fields.is_marked("full_name") and d.fields.is_marked("email")
    assert d.banner.text().startswith("Nothing was saved")
    assert (d.full_name.text(), d.email.text(), d.notes.toPlainText()) == (name, email, notes)
