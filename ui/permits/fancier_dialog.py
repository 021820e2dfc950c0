"""The animal fancier's permit form (58-533(a)): the applicant, the address and the list of
animals kept (species, number, names)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QSpinBox, QWidget

from fieldops.rules import permit_quote
from fieldops.services.permits.applying import FancierInput, apply_fancier
from fieldops.services.permits.views import PermitView
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.inputs import PersonField
from ui.common.text import money
from ui.context import AppContext
from ui.permits.inputs import AnimalsTable, date_edit, day_of, long_text


class FancierPermitDialog(RecordDialog):
    """A new animal fancier's permit's application, with its list of animals."""

    close_on_save = True
    enter_moves_on = True  # a stray Enter in the address submitted the application

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, "New animal fancier's permit", parent)
        self.setObjectName("FancierPermitDialog")
        today = ctx.today()
        layout = form_layout()
        self.form_fields = FormFields(layout)
        self.fields = self.form_fields
        self.holder = PersonField(ctx, "Choose the applicant")
        self.address = QLineEdit()
        self.address.setPlaceholderText("Where the animals are kept")
        self.first = QCheckBox("&First permit (not a renewal)")
        self.first.setChecked(True)
        self.applied_on = date_edit(today)
        self.year = QSpinBox()
        self.year.setRange(today.year - 1, today.year + 1)
        self.year.setValue(today.year)
        self.animals = AnimalsTable()
        self.notes = long_text(48)
        f = self.form_fields
        f.add("holder_id", "&Applicant:", self.holder)
        f.add("address", "A&ddress:", self.address)
        f.add("first", "", self.first)
        f.add("applied_on", "Applied &on:", self.applied_on)
        f.add("year", "Permit &year:", self.year)
        f.add(
            "animals",
            "A&nimals kept:",
            self.animals,
            hint="The list must be updated within 30 days of any change (58-533(a)).",
        )
        f.add("notes", "No&tes:", self.notes)
        self.body.addLayout(layout)
        self.fees = QLabel()
        self.fees.setObjectName("FieldHint")
        self.fees.setWordWrap(True)
        self.body.addWidget(self.fees)
        self.save_button.setText("Sub&mit application")
        self.first.toggled.connect(self._show_fees)
        self.year.valueChanged.connect(self._show_fees)
        self.applied_on.dateChanged.connect(self._show_fees)
        self._show_fees()

    def _show_fees(self, *_a: object) -> None:
        try:
            q = permit_quote(
                "fancier",
                self.year.value(),
                day_of(self.applied_on),
                self.ctx.profile,
                first=self.first.isChecked(),
            )
        except ValueError as e:
            self.fees.setText(str(e).partition(": ")[2] or str(e))
            return
        self.fees.setText(f"Fees {money(q.total)}. Why? " + " ".join(q.why.values()))

    def save(self) -> None:
        self.save_with(
            apply_fancier,
            self.ctx.db,
            self.ctx.actor,
            self.holder.person_id(),
            self.address.text(),
            FancierInput(
                day_of(self.applied_on),
                self.year.value(),
                self.animals.lines(),
                self.notes.toPlainText(),
            ),
            self.ctx.profile,
            first=self.first.isChecked(),
            client_key=self.client_key,
        )

    def _on_record_saved(self, view: PermitView) -> None:
        self.ctx.bus.changed.emit("permit", view.id)
