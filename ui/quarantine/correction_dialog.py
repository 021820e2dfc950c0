"""A supervisor corrects a mistake in a bite case: what is wrong, its right value, and why.

The record is never edited: the correction is a new, audited record that the view shows
in place of the old value, while the history keeps both."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QWidget

from fieldops.services import quarantine as qs
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.text import day, money
from ui.context import AppContext

FIELD_WORDS = {
    "place": "where the bite happened",
    "victim_name": "the person bitten",
    "reported_by": "who reported it",
    "officer": "the officer",
    "animal_description": "the animal's description",
    "rabies_certificate": "the rabies certificate number",
    "notes": "notes",
    "veterinarian": "veterinarian",
    "fee": "fee",
    "who": "who",
    "citation": "citation number",
}


def choices(v: qs.QuarantineView) -> list[tuple[str, tuple[str, int, str], str]]:
    """(label, (target, id, field), current value) for everything that can be corrected."""
    b = v.bite
    out = [
        (f"Bite report: {FIELD_WORDS[f]}", ("bite_report", b.id, f), str(getattr(b, f, "")))
        for f in qs.CORRECTABLE["bite_report"]
        if f != "animal_description" or b.animal_id is None
    ]
    for x in v.exams:
        out.append(
            (
                f"Exam of {day(x.examined_on)}: veterinarian",
                ("exam", x.id, "veterinarian"),
                x.veterinarian,
            )
        )
        out.append((f"Exam of {day(x.examined_on)}: fee", ("exam", x.id, "fee"), money(x.fee)))
    for e in v.events:
        for f in qs.CORRECTABLE["event"]:
            out.append((f"{e.label}: {FIELD_WORDS[f]}", ("event", e.id, f), str(getattr(e, f))))
    return out


class CorrectionDialog(RecordDialog):
    """Choose what is wrong, give its right value and the reason."""

    close_on_save = True

    def __init__(self, ctx: AppContext, view: qs.QuarantineView, parent: QWidget | None = None):
        super().__init__(ctx, f"Correct quarantine #{view.id}", parent)
        self.setObjectName("QuarantineCorrectionDialog")
        self.view = view
        self.save_button.setText("&Record correction")
        form = form_layout()
        self.fields = FormFields(form)
        self.what = QComboBox()
        self._choices = choices(view)
        for label, key, _value in self._choices:
            self.what.addItem(label, key)
        self.current = QLabel()
        self.current.setWordWrap(True)
        self.new_value = QLineEdit()
        self.reason = QLineEdit()
        self.fields.add("field", "&What is wrong:", self.what)
        self.fields.add("target", "Now on record:", self.current)
        self.fields.add("new_value", "Right &value:", self.new_value)
        self.fields.add(
            "reason", "Rea&son:", self.reason, hint="Kept with the correction and in the history."
        )
        self.body.addWidget(
            QLabel("Nothing is changed in place: the correction is kept beside the original.")
        )
        self.body.addLayout(form)
        self.what.currentIndexChanged.connect(self._on_what_current_index_changed)
        self._on_what_current_index_changed(0)

    def _on_what_current_index_changed(self, index: int) -> None:
        value = self._choices[index][2] if 0 <= index < len(self._choices) else ""
        self.current.setText(value or "(blank)")

    def save(self) -> None:
        target, target_id, field = self.what.currentData()
        self.save_with(
            qs.correct_record,
            self.ctx.db,
            self.ctx.actor,
            self.view.bite.id,
            target,
            target_id,
            field,
            self.new_value.text(),
            self.reason.text(),
        )

    def _on_record_saved(self, done: qs.Done) -> None:
        self.ctx.bus.changed.emit("quarantine", done.quarantine_id or 0)
        self.ctx.bus.changed.emit("bite_report", done.bite_report_id)
