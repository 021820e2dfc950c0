"""A supervisor's correction of a final disposition (escape recorded for a death, ...).

A disposition is final: a mistake in it is fixed by a new entry that names
the one it corrects, with the supervisor's reason. The original stays on the
record, on the record sheet and in the audit trail.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from fieldops.rules.release import RELEASE_KINDS
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.impound_views import DISPOSITIONS, DispositionView, ImpoundView
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.inputs import LocalDateTimeEdit
from ui.common.style import POUND_STYLE
from ui.common.text import when
from ui.context import AppContext
from ui.impounds.destruction_fields import add_destruction_fields


def recorded_text(ctx: AppContext, d: DispositionView) -> str:
    """What is on record now, as the supervisor needs it to decide."""
    text = f"On record: {d.label}, {when(ctx, d.at)}, recorded by {d.recorded_by}."
    if d.recipient is not None and d.kind in RELEASE_KINDS:
        text += f" Released to {d.recipient.full_name}."
    if d.transfer_to and d.kind == "transferred":
        text += f" Transferred to {d.transfer_to}."
    return text + (
        " The correction is kept beside it: the original stays on the record and the record sheet."
    )


class CorrectionDialog(RecordDialog):
    """Correct the disposition in force: kind, when, notes, and the required reason."""

    close_on_save = True

    def __init__(self, ctx: AppContext, view: ImpoundView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, f"Correct the disposition — impoundment #{view.id}", parent)
        assert view.disposition is not None, "only a disposition on record can be corrected"
        self.setObjectName("CorrectionDialog")
        self.setStyleSheet(POUND_STYLE)
        self.resize(680, 560)
        self._current = current = view.disposition
        self._impoundment_id = view.id
        self.save_button.setText("&Record correction")
        heading = QLabel(f"Correct the disposition: #{view.id} {view.animal.summary}")
        heading.setObjectName("SectionHeading")
        heading.setWordWrap(True)
        self.on_record = QLabel(recorded_text(ctx, current))
        self.on_record.setObjectName("FieldHint")
        self.on_record.setWordWrap(True)
        self.body.addWidget(heading)
        self.body.addWidget(self.on_record)
        form = form_layout()
        # Every row as wide as the form, so an error under the narrow kind or time is not
        # wrapped to their width and cut short; those two keep their own width.
        form.setFieldGrowthPolicy(form.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form = form
        self.fields = FormFields(form)
        self.at = LocalDateTimeEdit(ctx.timezone)
        self.at.set_value(current.at)
        narrow = self.at.sizeHint().width()
        self.at.setMaximumWidth(narrow)
        self.kind = QComboBox()
        self.kind.setMaximumWidth(narrow)
        for code, label in DISPOSITIONS.items():
            self.kind.addItem(label, code)
        self.kind.setCurrentIndex(max(self.kind.findData(current.kind), 0))
        self.kind_note = QLabel()
        self.kind_note.setObjectName("FieldHint")
        self.kind_note.setWordWrap(True)
        kind_box = QWidget()
        # The box takes the row's width (the choice inside keeps its own), so the note
        # under the choice wraps to the form rather than to the narrow choice, where
        # its second line was cut off.
        kind_box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        kind_column = QVBoxLayout(kind_box)
        kind_column.setContentsMargins(0, 0, 0, 0)
        kind_column.setSpacing(2)
        kind_column.addWidget(self.kind, 0, Qt.AlignmentFlag.AlignLeft)
        kind_column.addWidget(self.kind_note)
        self.fields.add("kind", "Corrected &disposition:", kind_box, focus=self.kind)
        self.fields.add("at", "&When:", self.at, hint="The city's local time.")
        self.transfer_to = QLineEdit(current.transfer_to)
        self.fields.add("transfer_to", "&Transferred to:", self.transfer_to)
        # A destruction is corrected on its own basis and who decided, as it is recorded:
        # filled from the one on record only when that is a destruction too.
        self.basis, self.decided_by = add_destruction_fields(
            self.fields, decided_caption="Decided b&y:"
        )
        if current.kind == "euthanized":
            self.basis.setCurrentIndex(max(self.basis.findData(current.euthanasia_basis), 0))
            self.decided_by.setText(current.decided_by)
        self.notes = QPlainTextEdit()
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(80)
        self.fields.add(
            "notes",
            "N&otes:",
            self.notes,
            hint="Left empty, the notes recorded with the original are kept.",
        )
        self.reason = QPlainTextEdit()
        self.reason.setTabChangesFocus(True)
        self.reason.setMaximumHeight(80)
        self.fields.add(
            "reason",
            "R&eason for the correction:",
            self.reason,
            hint="Required. Kept with the correction and in the audit trail.",
        )
        self.body.addLayout(form)
        self.body.addStretch(1)
        self.result_view: ImpoundView | None = None
        self.kind.currentIndexChanged.connect(self._on_kind_current_index_changed)
        self.show_kind()

    def corrected_kind(self) -> str:
        kind: str = self.kind.currentData()  # each choice carries its disposition code
        return kind

    def show_kind(self) -> None:
        """Offer the destination only for a transfer (the service says which kinds it allows)."""
        kind = self.corrected_kind()
        for widget, shown in (
            (self.transfer_to, kind == "transferred"),
            (self.basis, kind == "euthanized"),
            (self.decided_by, kind == "euthanized"),
        ):
            row = widget.parentWidget()  # FormFields.add puts it in its row's box
            assert row is not None
            self.form.setRowVisible(row, shown)
        self.kind_note.setText(
            "The same disposition: correct its time or notes." if kind == self._current.kind else ""
        )
        self.kind_note.setVisible(kind == self._current.kind)

    def save(self) -> None:
        ctx, kind = self.ctx, self.corrected_kind()
        self.save_with(
            correct_disposition,
            ctx.db,
            ctx.actor,
            self._impoundment_id,
            kind=kind,
            at=self.at.value(),
            reason=self.reason.toPlainText(),
            profile=ctx.profile,
            notes=self.notes.toPlainText(),
            transfer_to=self.transfer_to.text() if kind == "transferred" else "",
            basis=self.basis.currentData() if kind == "euthanized" else "",
            decided_by=self.decided_by.text() if kind == "euthanized" else "",
            corrects_id=self._current.id,
            client_key=self.client_key,
        )

    def _on_record_saved(self, view: ImpoundView) -> None:
        self.result_view = view
        self.ctx.bus.changed.emit("impoundment", view.id)

    def _on_kind_current_index_changed(self, _index: int) -> None:
        self.show_kind()
