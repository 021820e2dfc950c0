"""The forms that record what happens in a quarantine: an exam, and each event.

Each saves through one service verb; field errors show beside the fields and
nothing is written. Closing a quarantine (release, death, escape) asks first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QComboBox, QDateEdit, QLineEdit, QPlainTextEdit, QWidget

from fieldops.errors import ValidationError
from fieldops.rules.quarantine import EXAM_FINDINGS
from fieldops.services import quarantine as qs
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit
from ui.common.widgets import date_of, set_date
from ui.context import AppContext

# kind -> (title, save button, fields, who label)
EVENTS = {
    "delivered": ("Delivered to the clinic", "&Record delivery", ("at", "notes"), ""),
    "broken_home": (
        "Home quarantine broken",
        "&Move to clinic",
        ("at", "clinic_id", "citation", "notes"),
        "",
    ),
    "extended": (
        "Extend the observation period",
        "&Extend",
        ("new_last_day", "who", "notes"),
        "&Veterinarian:",
    ),
    "signs_of_rabies": (
        "Signs of rabies",
        "&Record",
        ("at", "who", "notes"),
        "&Health officer notified:",
    ),
    "died": ("The animal died", "&Record death", ("at", "notes"), ""),
    "euthanized": ("The animal was euthanized", "&Record euthanasia", ("at", "notes"), ""),
    "specimen_sent": (
        "Specimen sent to the State Laboratory of Hygiene",
        "&Record",
        ("at", "who", "notes"),
        "Sent &by:",
    ),
    "escaped": ("The animal escaped", "&Record escape", ("at", "notes"), ""),
    "released": (
        "Release with the veterinarian's certification",
        "&Release",
        ("at", "who", "notes"),
        "Certifying &veterinarian:",
    ),
    "certificate_received": (
        "Certification of quarantine received",
        "&Record",
        ("received_on", "notes"),
        "",
    ),
    "referral_sent": (
        "Referred to the health officer",
        "&Record",
        ("at", "who", "notes"),
        "&Health officer:",
    ),
}
AT_LABELS = {
    "delivered": "Delivered &at:",
    "broken_home": "Found &at:",
    "signs_of_rabies": "Notified &at:",
    "specimen_sent": "Sent &at:",
    "referral_sent": "Referred &at:",
    "released": "Released &at:",
}
FINAL = {
    "released": "Release the animal as certified free of rabies? The quarantine closes.",
    "died": "Record that the animal died? The quarantine closes.",
    "euthanized": "Record that the animal was euthanized? The quarantine closes.",
    "escaped": "Record that the animal escaped? The quarantine closes.",
}


class EventDialog(RecordDialog):
    """One event of a quarantine (or, for ``referral_sent``, of a bite report)."""

    close_on_save = True

    def __init__(
        self, ctx: AppContext, record_id: int, kind: str, parent: QWidget | None = None
    ) -> None:
        title, button, names, who_label = EVENTS[kind]
        super().__init__(ctx, title, parent)
        self.setObjectName("QuarantineEventDialog")
        self.kind, self.record_id = kind, record_id
        self.save_button.setText(button)
        form = form_layout()
        self.fields = FormFields(form)
        self.at = LocalDateTimeEdit(ctx.timezone)
        self.at.set_value(ctx.now())
        self.day = QDateEdit()
        self.day.setCalendarPopup(True)
        self.day.setDisplayFormat("ddd d MMM yyyy")
        set_date(self.day, ctx.today())
        self.who = QLineEdit()
        self.clinic = QComboBox()
        self.clinic.addItem("Choose a licensed clinic", None)
        self.citation = QLineEdit()
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(70)
        for name in names:
            if name == "at":
                self.fields.add("at", AT_LABELS.get(kind, "&When:"), self.at)
            elif name in ("new_last_day", "received_on"):
                label = "New &last day:" if name == "new_last_day" else "Received &on:"
                self.fields.add(name, label, self.day)
            elif name == "who":
                self.fields.add(
                    "veterinarian" if kind == "extended" else "who", who_label, self.who
                )
            elif name == "clinic_id":
                self.fields.add("clinic_id", "C&linic:", self.clinic)
            elif name == "citation":
                self.fields.add(
                    "citation",
                    "Ci&tation no.:",
                    self.citation,
                    hint="If a citation was issued (city code 58-527(b)).",
                )
            elif name == "notes":
                self.fields.add("notes", "&Notes:", self.notes)
        self.body.addLayout(form)
        if "clinic_id" in names:
            ctx.tasks.run(
                qs.list_clinics,
                ctx.db,
                licensed_only=True,
                owner=self,
                on_done=self._on_clinics_loaded,
            )

    def _on_clinics_loaded(self, clinics: Sequence[qs.ClinicView]) -> None:
        for c in clinics:
            self.clinic.addItem(c.name, c.id)

    def confirm_save(self) -> bool:
        question = FINAL.get(self.kind)
        return question is None or self.ctx.errors.confirm(
            question, "&Yes, record it", "&Not yet", self
        )

    def save(self) -> None:
        c, a, p, rid = self.ctx.db, self.ctx.actor, self.ctx.profile, self.record_id
        at, who, notes = self.at.value(), self.who.text(), self.notes.toPlainText()
        day = date_of(self.day.date())
        # Read on this thread: the service runs on a worker, which must not touch widgets.
        clinic_id: int | None = self.clinic.currentData()
        citation = self.citation.text()
        k = self.kind
        # Each kind's service with its arguments bound; only the chosen one is run.
        ck = self.client_key  # the same key for every retry of this save
        calls: dict[str, Callable[[], qs.Done]] = {
            "delivered": lambda: qs.record_delivery(c, a, rid, at, p, notes, client_key=ck),
            "broken_home": lambda: qs.record_broken_home(
                c, a, rid, at, clinic_id, p, citation=citation, notes=notes, client_key=ck
            ),
            "extended": lambda: qs.extend_period(c, a, rid, day, who, p, notes, client_key=ck),
            "signs_of_rabies": lambda: qs.record_signs_of_rabies(
                c, a, rid, at, who, p, notes, client_key=ck
            ),
            "died": lambda: qs.record_death(c, a, rid, "died", at, p, notes, client_key=ck),
            "euthanized": lambda: qs.record_death(
                c, a, rid, "euthanized", at, p, notes, client_key=ck
            ),
            "specimen_sent": lambda: qs.record_specimen_sent(
                c, a, rid, at, who, p, notes, client_key=ck
            ),
            "escaped": lambda: qs.record_escape(c, a, rid, at, p, notes, client_key=ck),
            "released": lambda: qs.release_certified(c, a, rid, at, who, p, notes, client_key=ck),
            "certificate_received": lambda: qs.record_certificate_received(
                c, a, rid, day, p, notes, client_key=ck
            ),
            "referral_sent": lambda: qs.record_referral_sent(
                c, a, rid, at, who, notes, client_key=ck
            ),
        }
        self.save_with(calls[k])

    def _on_record_saved(self, done: qs.Done) -> None:
        if done.warning:
            self.ctx.errors.tell(done.warning, self.parentWidget(), "Recorded")
        self.ctx.bus.changed.emit("quarantine", done.quarantine_id or 0)
        self.ctx.bus.changed.emit("bite_report", done.bite_report_id)


class ExamDialog(RecordDialog):
    """An examination by a veterinarian; one off its required day is saved with a warning."""

    close_on_save = True

    def __init__(
        self,
        ctx: AppContext,
        quarantine_id: int,
        parent: QWidget | None = None,
        clinic_id: int | None = None,
    ) -> None:
        super().__init__(ctx, "Record an examination", parent)
        self.setObjectName("QuarantineExamDialog")
        self.quarantine_id = quarantine_id
        self._clinic_id = clinic_id
        self.save_button.setText("&Record exam")
        form = form_layout()
        self.fields = FormFields(form)
        self.examined_on = QDateEdit()
        self.examined_on.setCalendarPopup(True)
        self.examined_on.setDisplayFormat("ddd d MMM yyyy")
        self.examined_on.setMaximumDate(QDate(9999, 12, 31))
        set_date(self.examined_on, ctx.today())
        self.veterinarian = QLineEdit()
        self.clinic = QComboBox()
        self.clinic.addItem("None (a visit at home)", None)
        self.finding = combo(EXAM_FINDINGS)
        self.fee = QLineEdit()
        self.fee.setPlaceholderText("0.00")
        self.fields.add("examined_on", "&Examined on:", self.examined_on)
        self.fields.add("veterinarian", "&Veterinarian:", self.veterinarian)
        self.fields.add("clinic_id", "C&linic:", self.clinic)
        self.fields.add("finding", "&Finding:", self.finding)
        self.fields.add("fee", "Fee (the &owner's):", self.fee)
        self.body.addLayout(form)
        ctx.tasks.run(
            qs.list_clinics, ctx.db, licensed_only=True, owner=self, on_done=self._on_clinics_loaded
        )

    def _on_clinics_loaded(self, clinics: Sequence[qs.ClinicView]) -> None:
        for c in clinics:
            self.clinic.addItem(c.name, c.id)
        if self._clinic_id is not None:
            self.clinic.setCurrentIndex(max(0, self.clinic.findData(self._clinic_id)))
        self.mark_clean()

    def confirm_save(self) -> bool:
        """A finding of death closes the quarantine: asked first, as the death itself is."""
        return self.finding.currentData() != "died" or self.ctx.errors.confirm(
            "Record that the veterinarian found the animal dead? The quarantine closes.",
            "&Yes, record it",
            "&Not yet",
            self,
        )

    def save(self) -> None:
        text = self.fee.text().strip().lstrip("$").replace(",", "")
        try:
            fee = Decimal(text) if text else None
        except InvalidOperation:
            self._on_save_failed(
                ValidationError({"fee": "Enter the fee as an amount, e.g. 45.00."})
            )
            return
        self.save_with(
            qs.record_exam,
            self.ctx.db,
            self.ctx.actor,
            self.quarantine_id,
            qs.ExamInput(
                date_of(self.examined_on.date()),
                self.veterinarian.text(),
                self.finding.currentData(),
                fee,
                self.clinic.currentData(),
            ),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_record_saved(self, done: qs.Done) -> None:
        if done.warning:
            self.ctx.errors.tell(done.warning, self.parentWidget(), "Examination recorded")
        self.ctx.bus.changed.emit("quarantine", done.quarantine_id or 0)
