"""A field's error is shown whole: a message that wraps to more lines than the window was
sized for grows the window, where Qt alone cut its last line off (a correction's refusal
read "... needs a veterinarian's or officer's" and stopped)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFormLayout, QLabel, QLineEdit, QVBoxLayout

from fieldops.errors import ValidationError
from ui.common.forms import FormFields

LONG = (
    "The hold has not ended: it ends at Fri 20 Nov 2026 12:00 AM CST (start of the day). "
    "Before then, humane destruction needs a veterinarian's or officer's finding that the "
    "animal is hopelessly injured or an imminent threat."
)


def test_a_long_error_grows_the_window_until_it_is_read_whole(qtbot):
    dialog = QDialog()
    qtbot.addWidget(dialog)
    outer = QVBoxLayout(dialog)
    form = QFormLayout()
    outer.addLayout(form)
    fields = FormFields(form)
    for name in ("basis", "decided_by", "notes"):
        fields.add(name, f"{name}:", QLineEdit(), hint="A hint under the field.")
    dialog.resize(420, dialog.sizeHint().height())
    dialog.show()
    qtbot.waitExposed(dialog)
    before = dialog.height()
    fields.show_errors(ValidationError({"basis": LONG}))
    error = next(w for w in dialog.findChildren(QLabel) if w.text() == LONG)
    qtbot.waitUntil(lambda: error.height() >= error.heightForWidth(error.width()))
    assert dialog.height() > before
    # An error shown alone (a check while typing) is read whole too.
    fields.clear_errors()
    fields.mark("notes", LONG + " " + LONG)
    note = next(w for w in dialog.findChildren(QLabel) if w.text() == LONG + " " + LONG)
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()))
