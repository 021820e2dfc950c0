"""The chicken permit form (58-533(b)): a first permit or a renewal, shaped by the
jurisdiction's profile (what it allows is what the form offers), checked by the rules as
it is typed, and refused beside the field on saving; a refusal may then be recorded."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPushButton, QSpinBox, QWidget

from fieldops.rules import permit_quote
from fieldops.services.permits.applying import (
    ChickenInput,
    apply_chicken,
    check_chicken,
    chicken_problems,
    renew_chicken,
)
from fieldops.services.permits.views import PermitView
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.inputs import PersonField
from ui.common.text import money
from ui.common.widgets import OptionalDateEdit
from ui.context import AppContext
from ui.permits.inputs import date_edit, day_of, long_text

NO_LIMIT = 9_999


class ChickenPermitDialog(RecordDialog):
    """A new chicken permit's application, or (``permit`` given) its renewal."""

    close_on_save = True
    # Filled in at the counter: Enter in the address (or a count) moves on; a stray Enter
    # submitted an application for 0 hens, which cannot be withdrawn.
    enter_moves_on = True

    def __init__(
        self, ctx: AppContext, permit: PermitView | None = None, parent: QWidget | None = None
    ) -> None:
        title = f"Renew chicken permit #{permit.id}" if permit else "New chicken permit"
        super().__init__(ctx, title, parent)
        self.setObjectName("ChickenPermitDialog")
        self.permit = permit
        rules = ctx.profile.chickens
        self.rules = rules
        today = ctx.today()
        layout = form_layout()
        self.form_fields = FormFields(layout)
        self.fields = self.form_fields
        self.layout_ = layout
        self.holder = PersonField(ctx, "Choose the applicant")
        self.address = QLineEdit()
        self.address.setPlaceholderText("Where the hens are kept")
        self.first = QCheckBox("&First permit at this address (not a renewal)")
        self.first.setChecked(True)
        self.applied_on = date_edit(today)
        self.year = QSpinBox()
        self.year.setRange(today.year - 1, today.year + 1)
        self.year.setValue(today.year if permit is None else max(permit.year + 1, today.year))
        self.hoa_exists = QCheckBox("A homeowners associa&tion covers the address")
        self.hoa_consent = QCheckBox("The association's written cons&ent is on file")
        self.hoa_consent_on = date_edit(today)
        self.hens = QSpinBox()
        # Any number the clerk types, also more than the profile allows: capped at the limit,
        # "12" became 1 and the rules' refusal ("at most 5 hens") could never be recorded.
        self.hens.setRange(0, NO_LIMIT)
        self.roosters = QSpinBox()
        self.roosters.setRange(0, NO_LIMIT)
        self.setback = QSpinBox()
        self.setback.setRange(0, NO_LIMIT)
        self.setback.setSuffix(" feet")
        self.setback.setValue(rules.setback_feet or 0)
        self.neighbour = QCheckBox("The neighbour's written consent to less is on fi&le")
        self.residence = QSpinBox()
        self.residence.setRange(0, NO_LIMIT)
        self.residence.setSuffix(" feet")
        self.residence.setValue(rules.residence_setback_feet or 0)
        self.state_registered_on = OptionalDateEdit("Not &known")  # never a silent today
        self.state_registered_on.set_default_date(today)
        self.notes = long_text(48)
        f = self.form_fields
        if permit is None:
            f.add("holder_id", "&Applicant:", self.holder)
            f.add("address", "A&ddress:", self.address)
            f.add("first", "", self.first)
        else:
            self.body.addWidget(QLabel(f"{permit.holder}, {permit.address}"))
        f.add("applied_on", "Applied &on:", self.applied_on)
        f.add("year", "Permit &year:", self.year)
        f.add("hoa_exists", "", self.hoa_exists)
        f.add("hoa_consent", "", self.hoa_consent)
        f.add("hoa_consent_on", "Consent &given on:", self.hoa_consent_on)
        limit = f"at most {rules.hens_max}" if rules.hens_max is not None else "no limit set"
        f.add("hens", "&Hens:", self.hens, hint=f"{limit.capitalize()} ({rules.source}).")
        f.add("roosters", "&Roosters:", self.roosters)
        need = (
            f"At least {rules.setback_feet} feet from the property line"
            + (", or less with the neighbour's written consent" if rules.setback_waivable else "")
            + f" ({rules.source})."
            if rules.setback_feet is not None
            else "No setback set."
        )
        f.add("setback_feet", "Enclosure &setback:", self.setback, hint=need)
        f.add("neighbour_consent", "", self.neighbour)
        f.add(
            "residence_setback_feet",
            "From a neighbouring res&idence:",
            self.residence,
            hint=f"At least {rules.residence_setback_feet} feet ({rules.source}).",
        )
        years = rules.state_registration_years
        f.add(
            "state_registered_on",
            "State &premises registered:",
            self.state_registered_on,
            hint=f"With the state; renewed every {years} years ({rules.source}).",
        )
        f.add("notes", "&Notes:", self.notes)
        self.body.addLayout(layout)
        self.check = QLabel()
        self.check.setObjectName("FieldHint")
        self.check.setWordWrap(True)
        self.fees = QLabel()
        self.fees.setObjectName("FieldHint")
        self.fees.setWordWrap(True)
        self.body.addWidget(self.check)
        self.body.addWidget(self.fees)
        self.refuse_button = QPushButton("Record ref&usal…")
        self.refuse_button.setAutoDefault(False)
        self.refuse_button.setToolTip("Record the application as refused, with the reasons")
        self.buttons.addButton(self.refuse_button, self.buttons.ButtonRole.ActionRole)
        self.save_button.setText("Sub&mit application" if permit is None else "Sub&mit renewal")
        self._shape_by_profile()
        for w in (self.first, self.hoa_exists, self.hoa_consent, self.neighbour):
            w.toggled.connect(self._on_form_changed)
        for s in (self.hens, self.roosters, self.setback, self.residence, self.year):
            s.valueChanged.connect(self._on_form_changed)
        self.applied_on.dateChanged.connect(self._on_form_changed)
        self.state_registered_on.date_edit.dateChanged.connect(self._on_form_changed)
        self.state_registered_on.unknown.toggled.connect(self._on_form_changed)
        self.refuse_button.clicked.connect(self._on_refuse_button_clicked)
        self._on_form_changed()

    def _row(self, name: str, shown: bool) -> None:
        row = self.form_fields.input(name).parentWidget()  # add() boxes each field in its row
        assert row is not None
        self.layout_.setRowVisible(row, shown)

    def _shape_by_profile(self) -> None:
        """Offer only what the jurisdiction allows (Dodgeville: hens only, no association)."""
        hoa = self.rules.hoa_consent_for_first and self.permit is None
        self._row("hoa_exists", hoa)
        self._row("roosters", self.rules.roosters_allowed)
        self._row("neighbour_consent", self.rules.setback_waivable)
        self._row("residence_setback_feet", self.rules.residence_setback_feet is not None)
        self._row("state_registered_on", self.rules.state_registration_years is not None)
        self._hoa_rows()

    def _hoa_rows(self) -> None:
        asked = self.rules.hoa_consent_for_first and self.is_first() and self.hoa_exists.isChecked()
        self._row("hoa_exists", self.rules.hoa_consent_for_first and self.is_first())
        self._row("hoa_consent", asked)
        self._row("hoa_consent_on", asked and self.hoa_consent.isChecked())

    def offers(self, name: str) -> bool:
        """Whether the form shows the field (the profile or the answers so far ask it)."""
        return self.form_fields.input(name).isVisibleTo(self)

    def is_first(self) -> bool:
        return self.permit is None and self.first.isChecked()

    def form(self) -> ChickenInput:
        consent = self.hoa_exists.isChecked() and self.hoa_consent.isChecked()
        return ChickenInput(
            applied_on=day_of(self.applied_on),
            year=self.year.value(),
            hens=self.hens.value(),
            roosters=self.roosters.value() if self.rules.roosters_allowed else 0,
            setback_feet=self.setback.value(),
            neighbour_consent=self.rules.setback_waivable and self.neighbour.isChecked(),
            hoa_exists=self.rules.hoa_consent_for_first and self.hoa_exists.isChecked(),
            hoa_consent=consent,
            hoa_consent_on=day_of(self.hoa_consent_on) if consent else None,
            notes=self.notes.toPlainText(),
            residence_setback_feet=self.residence.value()
            if self.rules.residence_setback_feet is not None
            else None,
            state_registered_on=self.state_registered_on.value()
            if self.rules.state_registration_years is not None
            else None,
        )

    def problems(self) -> dict[str, str]:
        return chicken_problems(self.form(), self.ctx.profile, first=self.is_first())

    def _on_form_changed(self, *_a: object) -> None:
        self._hoa_rows()
        problems = self.problems()
        self.refuse_button.setEnabled(bool(problems))
        missing, *_ = check_chicken(self.form(), self.ctx.profile, first=self.is_first())
        if problems:
            self.check.setText("The rules refuse this application: " + " ".join(problems.values()))
        elif missing:
            self.check.setText("Still to complete: " + " ".join(missing.values()))
        else:
            self.check.setText("The application meets the rules.")
        try:
            q = permit_quote(
                "chicken",
                self.year.value(),
                day_of(self.applied_on),
                self.ctx.profile,
                first=self.is_first(),
            )
        except ValueError as e:  # the day is not in or just before the year
            self.fees.setText(str(e).partition(": ")[2] or str(e))
            return
        self.fees.setText(f"Fees {money(q.total)}. Why? " + " ".join(q.why.values()))

    def _args(self) -> tuple[object, ...]:
        if self.permit is None:
            return (
                apply_chicken,
                self.ctx.db,
                self.ctx.actor,
                self.holder.person_id(),
                self.address.text(),
                self.form(),
                self.ctx.profile,
            )
        return (
            renew_chicken,
            self.ctx.db,
            self.ctx.actor,
            self.permit.id,
            self.form(),
            self.ctx.profile,
        )

    def _kw(self, refuse: bool) -> dict[str, object]:
        kw: dict[str, object] = {"refuse": refuse, "client_key": self.client_key}
        if self.permit is None:
            kw["first"] = self.is_first()
        else:
            kw["version"] = self.permit.version
        return kw

    def save(self) -> None:
        service, *args = self._args()
        self.save_with(service, *args, **self._kw(False))  # type: ignore[arg-type]

    def _on_refuse_button_clicked(self) -> None:
        if self._saving or not self.ctx.errors.confirm(
            "Record this application as refused, with the reasons shown? The refusal is "
            "kept on record and cannot be edited.",
            "&Record refusal",
            "&Go back",
            self,
        ):
            return
        service, *args = self._args()
        self.save_with(service, *args, **self._kw(True))  # type: ignore[arg-type]

    def _on_record_saved(self, view: PermitView) -> None:
        self.ctx.bus.changed.emit("permit", view.id)
