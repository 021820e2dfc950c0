"""The bite report form, quick to fill on the phone: it proposes the placement and says why
before anything is saved (city code 58-527; the rules decide, the form shows)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import ValidationError
from fieldops.permissions import Permission, permitted
from fieldops.services.animals import AnimalView, get_animal
from fieldops.services.people import OwnedAnimal, PersonView, get_person
from fieldops.services.quarantine import (
    BiteInput,
    ClinicView,
    Proposal,
    Reported,
    list_clinics,
    propose,
    report_bite,
)
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.common.text import SPECIES, day, escape_html, when
from ui.common.widgets import OptionalDateEdit
from ui.context import AppContext

NOT_LISTED = "Not in the registry: describe it below"


class BiteDialog(RecordDialog):
    """Report a bite; Save orders the quarantine the proposal shows (or logs a referral)."""

    close_on_save = True

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, **prefill: object) -> None:
        super().__init__(ctx, "New bite report", parent)
        self.setObjectName("BiteDialog")
        self.save_button.setText("&Save report")
        self.resize(760, 820)
        now = ctx.now()
        self.bitten_at = LocalDateTimeEdit(ctx.timezone)
        self.bitten_at.set_value(now)
        self.place = QLineEdit()
        self.victim_name = QLineEdit()
        self.victim_contact = QLineEdit()
        self.victim_contact.setPlaceholderText("Phone or address; kept on this case only")
        self.owner = PersonField(ctx, "Find the owner in the registry")
        self.owner_unknown = QCheckBox("Owner &unknown")
        self.animal = QComboBox()
        self.animal.addItem(NOT_LISTED, None)
        self.species = combo(SPECIES)
        self.description = QLineEdit()
        self.description.setPlaceholderText("e.g. brown terrier mix, red collar")
        self.impoundment = QSpinBox()
        self.impoundment.setRange(0, 10**9)
        self.impoundment.setSpecialValueText("None")
        self.certificate = QLineEdit()
        self.vaccinated_on = OptionalDateEdit("Not shown")
        self.expires_on = OptionalDateEdit("Not shown")
        self.reported_by = QLineEdit()
        self.reported_at = LocalDateTimeEdit(ctx.timezone)
        self.reported_at.set_value(now)
        self.officer = QLineEdit(
            ctx.actor.full_name if permitted(ctx.actor.role, Permission.CALLS) else ""
        )
        self.ordered_at = LocalDateTimeEdit(ctx.timezone)
        self.ordered_at.set_value(now)
        self.clinic = QComboBox()
        self.clinic.addItem("Choose a licensed clinic", None)
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(60)
        self.proposal = QLabel()
        self.proposal.setObjectName("Proposal")
        self.proposal.setWordWrap(True)
        self._filled: int | None = None  # the animal whose registry proof fills the fields
        self._lay_out()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._connect()
        impoundment_id = prefill.get("impoundment_id")
        if isinstance(impoundment_id, int):  # prefill comes through ui.modules as objects
            self.impoundment.setValue(impoundment_id)
        ctx.tasks.run(
            list_clinics, ctx.db, licensed_only=True, owner=self, on_done=self._on_clinics_loaded
        )
        self._on_timer_timeout()

    def _lay_out(self) -> None:
        form = form_layout()
        self.fields = f = self._labelled = FormFields(form)
        f.add("bitten_at", "&When bitten:", self.bitten_at)
        f.add("place", "&Place:", self.place)
        f.add("victim_name", "Person &bitten:", self.victim_name)
        f.add("victim_contact", "Con&tact (private):", self.victim_contact)
        owner_row = QWidget()
        row = QHBoxLayout(owner_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.owner, 1)
        row.addWidget(self.owner_unknown)
        f.add("owner_id", "Own&er:", owner_row, focus=self.owner)
        f.add("animal", "&Animal:", self.animal)
        f.add("species", "&Kind of animal:", self.species)
        f.add("animal_description", "&Description:", self.description)
        f.add(
            "impoundment_id",
            "I&mpoundment no.:",
            self.impoundment,
            hint="A stray now in the pound: its impoundment, whose 10-day hold applies.",
        )
        f.add("rabies_certificate", "Rabies certi&ficate:", self.certificate)
        f.add(
            "rabies_vaccinated_on",
            "&Vaccinated on:",
            self.vaccinated_on,
            focus=self.vaccinated_on.date_edit,
        )
        f.add("rabies_expires_on", "E&xpires:", self.expires_on, focus=self.expires_on.date_edit)
        f.add("reported_by", "&Reported by:", self.reported_by)
        f.add("reported_at", "Reported &on:", self.reported_at)
        f.add("officer", "Off&icer:", self.officer)
        f.add("ordered_at", "Order &given at:", self.ordered_at)
        f.add("clinic_id", "C&linic:", self.clinic)
        f.add("notes", "&Notes:", self.notes)
        inner = QWidget()
        inner.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        box = QGroupBox("What the ordinance orders")
        column = QVBoxLayout(box)
        column.addWidget(self.proposal)
        self.body.addWidget(box)
        self.body.addWidget(scroll, 1)

    def _connect(self) -> None:
        for w in (self.place, self.victim_name, self.description, self.certificate):
            w.textChanged.connect(self._on_input_changed)
        for e in (self.bitten_at, self.ordered_at, self.reported_at):
            e.dateTimeChanged.connect(self._on_input_changed)
        for o in (self.vaccinated_on, self.expires_on):
            o.date_edit.dateChanged.connect(self._on_input_changed)
            o.unknown.toggled.connect(self._on_input_changed)
        self.owner.changed.connect(self._on_owner_changed)
        self.owner_unknown.toggled.connect(self._on_input_changed)
        self.animal.currentIndexChanged.connect(self._on_animal_changed)
        self.species.currentIndexChanged.connect(self._on_input_changed)
        self.impoundment.valueChanged.connect(self._on_input_changed)

    # -- reading the form --------------------------------------------------

    def bite_input(self) -> BiteInput:
        animal_id = self.animal.currentData()
        return BiteInput(
            bitten_at=self.bitten_at.value(),
            place=self.place.text(),
            victim_name=self.victim_name.text(),
            victim_contact=self.victim_contact.text(),
            reported_by=self.reported_by.text(),
            reported_at=self.reported_at.value(),
            officer=self.officer.text(),
            species="" if animal_id is not None else self.species.currentData(),
            animal_id=animal_id,
            animal_description=self.description.text(),
            owner_id=self.owner.person_id(),
            owner_unknown=self.owner_unknown.isChecked(),
            impoundment_id=self.impoundment.value() or None,
            rabies_certificate=self.certificate.text(),
            rabies_vaccinated_on=self.vaccinated_on.value(),
            rabies_expires_on=self.expires_on.value(),
            ordered_at=self.ordered_at.value(),
            clinic_id=self.clinic.currentData(),
            notes=self.notes.toPlainText(),
        )

    def save(self) -> None:
        self.save_with(
            report_bite,
            self.ctx.db,
            self.ctx.actor,
            self.bite_input(),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_record_saved(self, _reported: Reported) -> None:
        self.ctx.bus.changed.emit("quarantine", 0)

    # -- the proposal -------------------------------------------------------

    def _on_input_changed(self, *_args: object) -> None:
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        self.ctx.tasks.run(
            propose,
            self.ctx.db,
            self.bite_input(),
            self.ctx.profile,
            owner=self,
            on_done=self.show_proposal,
            on_error=self._on_proposal_failed,
        )

    def show_proposal(self, p: Proposal) -> None:
        lines = [f"<b>{escape_html(p.why)}</b>", escape_html(p.rabies_why)]
        if p.plan is not None:
            plan = p.plan
            if plan.deliver_by is not None:
                lines.append(
                    f"Deliver to the clinic by {escape_html(when(self.ctx, plan.deliver_by))}."
                )
            lines.append(
                f"Exams: first {day(plan.first_exam_day)}, last {day(plan.last_day)}"
                + (
                    f", one between {day(plan.intervening_exam_window[0])} and "
                    f"{day(plan.intervening_exam_window[1])}"
                    if plan.intervening_exam_window
                    else ""
                )
                + "."
            )
            lines.append(f"Certification of quarantine due {day(plan.certificate_due)}.")
            self.clinic.setEnabled(plan.placement == "clinic")
        self.proposal.setText("<br>".join(lines))
        self.proposal.setProperty("placement", p.plan.placement if p.plan else "referral")

    def _on_proposal_failed(self, exc: BaseException) -> bool:
        if isinstance(exc, ValidationError):
            # In the order the service names them, as the labels on the form read.
            needed = ", ".join(dict.fromkeys(self._labelled.caption(e.field) for e in exc.errors))
            self.proposal.setText(
                "The placement is proposed once the report is complete "
                f"(still needed: {escape_html(needed)})."
            )
            self.proposal.setProperty("placement", "")
            return True
        return False

    # -- registry ------------------------------------------------------------

    def _on_owner_changed(self) -> None:
        pid = self.owner.person_id()
        if pid is not None:
            self.owner_unknown.setChecked(False)
            self.ctx.tasks.run(
                get_person, self.ctx.db, pid, owner=self, on_done=self._on_person_loaded
            )
        else:
            self._fill_animals(())
        self._on_input_changed()

    def _on_person_loaded(self, person: PersonView) -> None:
        self._fill_animals(person.animals)

    def _fill_animals(self, animals: Sequence[OwnedAnimal]) -> None:
        self.animal.blockSignals(True)
        self.animal.clear()
        for a in animals:
            self.animal.addItem(
                f"{a.name or '(no name)'} ({a.species}{', ' + a.breed if a.breed else ''}) #{a.id}",
                a.id,
            )
        self.animal.addItem(NOT_LISTED, None)
        self.animal.blockSignals(False)
        self._on_animal_changed()

    def _on_animal_changed(self, *_args: object) -> None:
        aid = self.animal.currentData()
        if self._filled is not None and self._filled != aid:
            # The proof offered was another animal's: never leave it for this one.
            self.certificate.clear()
            self.vaccinated_on.set_value(None)
            self.expires_on.set_value(None)
            self._filled = None
        self.species.setEnabled(aid is None)
        self.description.setEnabled(aid is None)
        if aid is not None:
            self.ctx.tasks.run(
                get_animal, self.ctx.db, aid, owner=self, on_done=self._on_animal_loaded
            )
        self._on_input_changed()

    def _on_animal_loaded(self, animal: AnimalView) -> None:
        """Offer the registry's vaccination current on the bite day as the proof shown."""
        cert = animal.rabies_current_on(self.bitten_at.value().date())
        if (
            cert is not None
            and not self.certificate.text()
            and self.animal.currentData() == animal.id
        ):
            self._filled = animal.id
            self.certificate.setText(cert.certificate_number)
            self.vaccinated_on.set_value(cert.vaccinated_on)
            self.expires_on.set_value(cert.expires_on)

    def _on_clinics_loaded(self, clinics: Sequence[ClinicView]) -> None:
        for c in clinics:
            self.clinic.addItem(c.name, c.id)
