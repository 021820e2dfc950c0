"""The other final dispositions: transfer, humane destruction, death, escape.

Each is final, so Record asks first, naming the animal and the disposition,
with "Go back" the default answer: neither Enter on the form nor Enter on
the question records anything. A humane destruction records why (the hold
ended, or a veterinarian's or officer's finding that the animal is hopelessly
injured or an imminent threat, 58-526(c); Wis. Stat. 173.23(4)) and who
decided; the service refuses a basis the rules do not allow, on its field.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPlainTextEdit, QWidget

from fieldops.services.dispositions import (
    RequirementsNotMet,
    destroy,
    record_death,
    record_escape,
    transfer,
)
from fieldops.services.impound_views import ImpoundView
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.inputs import LocalDateTimeEdit
from ui.common.style import POUND_STYLE
from ui.common.text import when
from ui.context import AppContext
from ui.impounds.destruction_fields import add_destruction_fields

TITLES = {
    "transferred": "Transfer to a shelter or rescue",
    "euthanized": "Humane destruction",
    "died": "Record a death",
    "escaped": "Record an escape",
}
NOTES = {
    "transferred": "N&otes:",
    "euthanized": "&Finding and notes:",
    "died": "Circu&mstances:",
    "escaped": "How it &escaped:",
}
# What the confirmation's Record button says it records.
RECORDS = {
    "transferred": "the transfer",
    "euthanized": "the humane destruction",
    "died": "the death",
    "escaped": "the escape",
}


class DispositionDialog(RecordDialog):
    """Record one of the dispositions that are not a release to a person."""

    close_on_save = True

    def __init__(
        self, ctx: AppContext, view: ImpoundView, kind: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, f"{TITLES[kind]} — impoundment #{view.id}", parent)
        self.setObjectName("DispositionDialog")
        self.setStyleSheet(POUND_STYLE)
        self.resize(680, 460)
        self.kind, self._view = kind, view
        self.save_button.setText("&Record")
        heading = QLabel(f"{TITLES[kind]}: #{view.id} {view.animal.summary}")
        heading.setObjectName("SectionHeading")
        self.body.addWidget(heading)
        self.hold_note = QLabel(self._hold_note())
        self.hold_note.setWordWrap(True)
        self.hold_note.setObjectName("FieldHint")
        self.body.addWidget(self.hold_note)
        form = form_layout()
        self.fields = FormFields(form)
        self.at = self.fields.add("at", "&When:", LocalDateTimeEdit(ctx.timezone))
        self.at.set_value(ctx.now())
        self.transfer_to = QLineEdit()
        if kind == "transferred":
            self.fields.add("transfer_to", "&Transferred to:", self.transfer_to)
        self.basis, self.decided_by = QComboBox(), QLineEdit()  # read for a destruction only
        if kind == "euthanized":
            self.basis, self.decided_by = add_destruction_fields(self.fields)
        self.notes = QPlainTextEdit()
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(90)
        self.fields.add("notes", NOTES[kind], self.notes)
        self.body.addLayout(form)
        self.body.addStretch(1)
        self.result_view: ImpoundView | None = None

    def _hold_note(self) -> str:
        v = self._view
        free = when(self.ctx, v.release_to_others_from, midnight="start")
        if self.kind == "euthanized":
            text = (
                f"Humane destruction is allowed from {free}, when the hold ends. Before "
                "then it needs a veterinarian's or officer's finding that the animal is "
                "hopelessly injured or an imminent threat: record who found it and what."
            )
            if v.bit_person:
                text += (
                    " This animal bit a person: it is preserved for up to 7 days for a "
                    "necropsy (58-522)."
                )
            return text
        if self.kind == "transferred":
            return f"A transfer is a release to someone other than the owner: from {free}."
        return "A disposition is final; a mistake is corrected by a supervisor."

    def save(self) -> None:
        ctx, v, at, notes = self.ctx, self._view, self.at.value(), self.notes.toPlainText()
        if self.kind == "transferred":
            self.save_with(
                transfer,
                ctx.db,
                ctx.actor,
                v.id,
                self.transfer_to.text(),
                ctx.profile,
                at=at,
                notes=notes,
                client_key=self.client_key,
            )
        elif self.kind == "euthanized":
            self.save_with(
                destroy,
                ctx.db,
                ctx.actor,
                v.id,
                ctx.profile,
                at=at,
                basis=self.basis.currentData(),
                decided_by=self.decided_by.text(),
                notes=notes,
                client_key=self.client_key,
            )
        else:
            service = record_death if self.kind == "died" else record_escape
            self.save_with(
                service, ctx.db, ctx.actor, v.id, ctx.profile, at=at, notes=notes,
                client_key=self.client_key,
            )  # fmt: skip

    def confirmation_text(self) -> str:
        """The question Record asks: the animal and the disposition, by name."""
        v = self._view
        text = (
            f"Record {RECORDS[self.kind]} of #{v.id} {v.animal.summary}?\n\n"
            "A disposition is final: after this only a supervisor's correction changes it."
        )
        if self.kind == "euthanized" and self.basis.currentData():
            text += f"\n\nBasis: {self.basis.currentText()}."
        return text

    def confirm_save(self) -> bool:
        """Ask before recording; "Go back" is the default, so Enter records nothing."""
        return self.ctx.errors.confirm(
            self.confirmation_text(),
            f"&Record {RECORDS[self.kind]}",
            "&Go back",
            self,
            TITLES[self.kind],
        )

    def _on_record_saved(self, view: ImpoundView) -> None:
        self.result_view = view
        self.ctx.bus.changed.emit("impoundment", view.id)

    def _on_save_failed(self, exc: BaseException) -> bool:
        if not isinstance(exc, RequirementsNotMet):
            return super()._on_save_failed(exc)
        self._set_saving(False)
        self.banner.show_error(refusal_text(self.kind, exc))
        return True


def refusal_text(kind: str, exc: RequirementsNotMet) -> str:
    """The rule's own words for why the disposition was refused."""
    return f"{TITLES[kind]} refused. " + " ".join(r.detail for r in exc.requirements)
