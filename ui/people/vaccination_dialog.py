"""Recording a rabies vaccination from the certificate the owner shows."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QDateEdit, QHBoxLayout, QLineEdit, QPushButton, QWidget

from fieldops.permissions import Permission
from fieldops.services.animals import AnimalView, VaccinationInput, add_vaccination
from ui.account.gate import gate, refused
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.widgets import date_of
from ui.context import AppContext


def _date_edit(value: date) -> QDateEdit:
    edit = QDateEdit(QDate(value.year, value.month, value.day))
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("ddd d MMM yyyy")  # as every date reads
    return edit


def add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


class VaccinationDialog(RecordDialog):
    """Add one vaccination to an animal; closes when saved."""

    close_on_save = True

    def __init__(self, ctx: AppContext, animal: AnimalView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, f"Rabies vaccination — {animal.label}", parent)
        gate(ctx, self.save_button, Permission.RECORDS)  # the service refuses too
        self.setObjectName("VaccinationDialog")
        self.resize(520, 300)
        self._animal = animal
        today = ctx.today()
        form = form_layout()
        self.body.addLayout(form)
        self.fields = FormFields(form)
        self.vaccinated_on = self.fields.add("vaccinated_on", "&Vaccinated on:", _date_edit(today))
        self.expires_on = _date_edit(add_years(today, 1))
        expiry = QWidget()
        row = QHBoxLayout(expiry)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.expires_on)
        self.one_year_button = QPushButton("&1 year")
        self.three_years_button = QPushButton("&3 years")
        for b in (self.one_year_button, self.three_years_button):
            b.setAutoDefault(False)
            row.addWidget(b)
        row.addStretch(1)
        self.fields.add(
            "expires_on",
            "&Expires on:",
            expiry,
            focus=self.expires_on,
            hint="Rabies vaccines are licensed for 1 or 3 years: see the certificate.",
        )
        self.certificate_number = self.fields.add(
            "certificate_number", "Ce&rtificate number:", QLineEdit()
        )
        self.veterinarian = self.fields.add("veterinarian", "Veteri&narian:", QLineEdit())
        self.one_year_button.clicked.connect(self._on_one_year_button_clicked)
        self.three_years_button.clicked.connect(self._on_three_years_button_clicked)
        self.vaccinated_on.setFocus()

    def read_input(self) -> VaccinationInput:
        return VaccinationInput(
            vaccinated_on=date_of(self.vaccinated_on.date()),
            expires_on=date_of(self.expires_on.date()),
            certificate_number=self.certificate_number.text(),
            veterinarian=self.veterinarian.text(),
        )

    def save(self) -> None:
        if refused(self.ctx, self.banner, Permission.RECORDS):
            return
        self.save_with(
            add_vaccination,
            self.ctx.db,
            self.ctx.actor,
            self._animal.id,
            self.read_input(),
            today=self.ctx.today(),
            client_key=self.client_key,
        )

    def _expire_after(self, years: int) -> None:
        d = add_years(date_of(self.vaccinated_on.date()), years)
        self.expires_on.setDate(QDate(d.year, d.month, d.day))

    def _on_one_year_button_clicked(self) -> None:
        self._expire_after(1)

    def _on_three_years_button_clicked(self) -> None:
        self._expire_after(3)
