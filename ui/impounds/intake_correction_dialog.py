"""Correcting a saved intake: its details, with a reason kept in the audit trail.

The form starts from the record as it is. The time of impoundment, a bite and
an owner surrender move the hold, so only a supervisor may change them, and
not after a final disposition (the service decides; this form only says so
and shows the hold the rules would give).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar

from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission, permitted
from fieldops.rules import impound_hold
from fieldops.services.impound_views import REASONS, ImpoundView
from fieldops.services.impounds import OfficerChoices, officer_choices
from fieldops.services.intake_corrections import IntakeDetails, correct_intake
from ui.common.fields import FieldGroups
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit, OfficerComboBox, OptionalDateTimeEdit
from ui.common.style import POUND_STYLE
from ui.common.text import ALTERED, SEX_LABELS
from ui.context import AppContext


def _text_edit(text: str, height: int) -> QPlainTextEdit:
    edit = QPlainTextEdit(text)
    edit.setTabChangesFocus(True)
    edit.setMaximumHeight(height)
    return edit


class IntakeCorrectionDialog(RecordDialog):
    """Correct where and when the animal was found, its description and how it came in."""

    close_on_save = True

    def __init__(self, ctx: AppContext, view: ImpoundView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, f"Correct the intake — impoundment #{view.id}", parent)
        self.setObjectName("IntakeCorrectionDialog")
        self.setStyleSheet(POUND_STYLE)
        self.resize(1040, 640)
        self._view = view
        self._original = IntakeDetails.of(view)
        self.result_view: ImpoundView | None = None
        self.save_button.setText("&Record correction")
        heading = QLabel(f"Correct the intake: #{view.id} {view.animal.summary}")
        heading.setObjectName("SectionHeading")
        heading.setWordWrap(True)
        note = QLabel(
            "The old values are kept in the audit trail with your reason. The "
            "description is the registry animal's: a correction here corrects it "
            "there too."
        )
        note.setObjectName("FieldHint")
        note.setWordWrap(True)
        self.body.addWidget(heading)
        self.body.addWidget(note)
        columns = QHBoxLayout()
        columns.addLayout(self._build_impoundment(), 1)
        columns.addSpacing(16)
        columns.addLayout(self._build_animal(), 1)
        self.body.addLayout(columns)
        self.fields = FieldGroups(self.impound_fields, self.animal_fields)
        self._hold_locked = ""
        self._lock_hold()
        self.reason.currentIndexChanged.connect(self._on_hold_input_changed)
        self.bit_person.toggled.connect(self._on_hold_input_changed)
        self.impounded_at.dateTimeChanged.connect(self._on_hold_input_changed)
        self._on_hold_input_changed()
        self.ctx.tasks.run(
            officer_choices, ctx.db, ctx.actor, owner=self, on_done=self._on_officer_choices_loaded
        )
        self.correction_reason.setFocus()

    def _build_impoundment(self) -> QVBoxLayout:
        v, ctx = self._view, self.ctx
        form = form_layout()
        self.impound_fields = FormFields(form)
        add = self.impound_fields.add
        self.impounded_at = add("impounded_at", "&Impounded at:", LocalDateTimeEdit(ctx.timezone))
        self.impounded_at.set_value(v.impounded_at)
        self.bit_person = add("bit_person", "", QCheckBox("&Bit a person"))
        self.bit_person.setChecked(v.bit_person)
        self.reason = add("reason", "R&eason:", combo(REASONS))
        self.reason.setCurrentIndex(max(self.reason.findData(v.reason), 0))
        self.hold_note = QLabel()
        self.hold_note.setObjectName("FieldHint")
        self.hold_note.setWordWrap(True)
        self.reason_detail = add("reason_detail", "Reason de&tails:", QLineEdit(v.reason_detail))
        self.found_place = add("found_place", "&Found at (place):", QLineEdit(v.found_place))
        self.found_at = OptionalDateTimeEdit(ctx.timezone)
        self.found_at.set_value(v.found_at, default=v.impounded_at)
        add("found_at", "Found &when:", self.found_at, focus=self.found_at.edit)
        self.officer = add("officer", "&Officer:", OfficerComboBox())
        self.officer.setEditText(v.officer)
        self.correction_reason = _text_edit("", 80)
        add(
            "correction_reason",
            "Reason for the &correction:",
            self.correction_reason,
            hint="Required. Kept with the correction in the audit trail.",
        )
        column = QVBoxLayout()
        column.addWidget(_heading("The impoundment"))
        column.addLayout(form)
        column.addWidget(self.hold_note)  # outside the form: a form row cuts wrapped text short
        column.addStretch(1)
        return column

    def _build_animal(self) -> QVBoxLayout:
        a, v = self._view.animal, self._view
        form = form_layout()
        self.animal_fields = FormFields(form)
        add = self.animal_fields.add
        self.name = add("animal.name", "&Name:", QLineEdit(a.name))
        self.breed = add("animal.breed", "B&reed:", QLineEdit(a.breed))
        self.colour = add("animal.colour", "Co&lour:", QLineEdit(a.colour))
        self.sex = add("animal.sex", "Se&x:", combo(SEX_LABELS))
        self.sex.setCurrentIndex(max(self.sex.findData(a.sex), 0))
        self.markings = add("animal.markings", "Mar&kings:", _text_edit(a.markings, 60))
        self.altered = add("altered", "Spayed/ne&utered:", combo(ALTERED))
        self.altered.setCurrentIndex(max(self.altered.findData(a.altered), 0))
        self.condition = add("condition", "Con&dition:", QLineEdit(v.condition))
        self.injuries = add("injuries", "In&juries:", _text_edit(v.injuries, 60))
        column = QVBoxLayout()
        column.addWidget(_heading("The animal"))
        column.addLayout(form)
        column.addStretch(1)
        return column

    def _lock_hold(self) -> None:
        """Say who may move the hold; the service refuses the rest anyway."""
        if not self._view.in_custody:
            why = "The animal has a final disposition: the hold it relied on stays as recorded."
        elif not permitted(self.ctx.actor.role, Permission.CORRECTIONS):
            why = (
                "The time, a bite and an owner surrender set the hold: only a supervisor "
                "corrects them."
            )
        else:
            return
        self.impounded_at.setEnabled(False)
        self.bit_person.setEnabled(False)
        self._hold_locked = why

    def read_details(self) -> IntakeDetails:
        o = self._original
        return IntakeDetails(
            impounded_at=_unless_same_minute(self.impounded_at.value(), o.impounded_at),
            bit_person=self.bit_person.isChecked(),
            reason=self.reason.currentData(),
            reason_detail=self.reason_detail.text(),
            found_place=self.found_place.text(),
            found_at=_unless_same_minute(self.found_at.value(), o.found_at),
            officer=self.officer.text(),
            altered=self.altered.currentData(),
            condition=self.condition.text(),
            injuries=self.injuries.toPlainText(),
            name=self.name.text(),
            breed=self.breed.text(),
            colour=self.colour.text(),
            sex=self.sex.currentData(),
            markings=self.markings.toPlainText(),
        )

    def save(self) -> None:
        ctx = self.ctx
        self.save_with(
            correct_intake,
            ctx.db,
            ctx.actor,
            self._view.id,
            self._original,
            self.read_details(),
            self.correction_reason.toPlainText(),
            ctx.profile,
        )

    def _on_record_saved(self, view: ImpoundView) -> None:
        self.result_view = view
        self.ctx.bus.changed.emit("impoundment", view.id)
        self.ctx.bus.changed.emit("animal", view.animal.id)

    def _on_officer_choices_loaded(self, choices: OfficerChoices) -> None:
        self.officer.set_choices(choices.names, "")

    def _on_hold_input_changed(self, *_args: object) -> None:
        self.reason_detail.setEnabled(self.reason.currentData() == "other")
        if self._hold_locked:
            self.hold_note.setText(self._hold_locked)
            return
        hold = impound_hold(
            self.impounded_at.value(),
            self.ctx.profile,
            bit_person=self.bit_person.isChecked(),
            surrendered=self.reason.currentData() == "owner_surrender",
        )
        moved = hold.last_claim_day != self._view.last_claim_day
        self.hold_note.setText(
            ("The hold moves. " if moved else "Hold: ") + hold.why["last_claim_day"]
        )


# Both given as datetimes, or both as optional ones: the answer is of the same kind.
Instant = TypeVar("Instant", datetime, datetime | None)


def _unless_same_minute(edited: Instant, original: Instant) -> Instant:
    """The form edits to the minute: a time left as it was keeps its recorded seconds,
    so it does not read as a correction (of the hold, for the time of impoundment)."""
    if (
        edited is not None
        and original is not None
        and edited == original.replace(second=0, microsecond=0)
    ):
        return original
    return edited


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("SectionHeading")
    return label
