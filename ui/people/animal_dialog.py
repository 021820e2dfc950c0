"""An animal's record: details and owner, rabies vaccinations, impoundments, history."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.rules.release import RELEASE_KINDS
from fieldops.services.animal_record import (
    AnimalFate,
    AnimalImpoundment,
    animal_fate,
    animal_impoundments,
)
from fieldops.services.animals import (
    AnimalInput,
    AnimalView,
    create_animal,
    update_animal,
)
from fieldops.services.history import record_history
from ui import modules
from ui.account.gate import gate, refused
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.person_picker import PersonPickerDialog
from ui.common.table_models import ListTableModel
from ui.common.text import ALTERED, SEX_LABELS, SPECIES
from ui.common.widgets import OptionalDateEdit, RecordTableView
from ui.context import AppContext
from ui.people.columns import animal_impoundment_columns, owner_text, vaccination_columns
from ui.people.person_dialog import notes_edit
from ui.people.vaccination_dialog import VaccinationDialog


def _select(combo: QComboBox, value: object) -> None:
    combo.setCurrentIndex(max(combo.findData(value), 0))


class AnimalDialog(RecordDialog):
    """Create or edit an animal; once saved, add vaccinations and read its history."""

    def __init__(
        self,
        ctx: AppContext,
        animal: AnimalView | None = None,
        parent: QWidget | None = None,
        *,
        owner: tuple[int, str] | None = None,
    ) -> None:
        super().__init__(ctx, "New animal", parent)
        gate(ctx, self.save_button, Permission.RECORDS)  # the service refuses too
        self.setObjectName("AnimalDialog")
        self.resize(1020, 680)  # the history and impoundments read whole
        self._animal = animal
        self._owner_id: int | None = None
        self._fate: AnimalFate | None = None
        # What became of the animal (deceased, transferred, in the pound), above the tabs.
        self.fate_label = QLabel()
        self.fate_label.setObjectName("SectionHeading")
        self.fate_label.setWordWrap(True)
        self.fate_label.hide()
        self.body.addWidget(self.fate_label)
        self.tabs = QTabWidget()
        self.body.addWidget(self.tabs)
        self.tabs.addTab(self._build_details(), "&Details")
        self.tabs.addTab(self._build_vaccinations(), "Rabies &vaccinations")
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.tabs.addTab(self.history_view, "&History")
        self.impoundments_model = ListTableModel(animal_impoundment_columns(ctx), parent=self)
        self.impoundments_view = RecordTableView()
        self.impoundments_view.setModel(self.impoundments_model)
        self.impoundments_view.setToolTip("Enter or double-click opens the impoundment")
        self.impoundments_view.opened.connect(self._on_impoundments_view_opened)
        self.impoundments_tab = self.tabs.addTab(self.impoundments_view, "Impoundments")
        self._show_animal(animal)
        if animal is None and owner is not None:
            self._set_owner(*owner)
        self.name.setFocus()

    def _build_details(self) -> QWidget:
        page = QWidget()
        form = form_layout()
        page.setLayout(form)
        self.fields = FormFields(form)
        add = self.fields.add
        self.name = add("name", "&Name:", QLineEdit())
        self.species = add("species", "S&pecies:", combo(SPECIES))
        self.species_detail = add(
            "species_detail",
            "&Kind of animal:",
            QLineEdit(),
            hint="Only for species Other, e.g. ferret or rabbit.",
        )
        self.breed = add("breed", "&Breed:", QLineEdit())
        self.colour = add("colour", "Co&lour:", QLineEdit())
        self.sex = add("sex", "Se&x:", combo(SEX_LABELS))
        self.altered = add("altered", "&Altered (spayed/neutered):", combo(ALTERED))
        self.birth_date = OptionalDateEdit("&Unknown")
        self.birth_date.date_edit.setMaximumDate(_qdate(self.ctx.today()))
        add(
            "birth_date",
            "Bi&rth date:",
            self.birth_date,
            focus=self.birth_date.date_edit,
            hint="Approximate is fine; tick Unknown when nobody knows.",
        )
        self.markings = add("markings", "&Markings:", notes_edit())
        self.microchip = add("microchip", "Microch&ip:", QLineEdit())
        self.licence_number = add("licence_number", "Lic&ence number:", QLineEdit())
        self.licence_year = add("licence_year", "Licence &year:", QLineEdit())
        self.licence_year.setValidator(QIntValidator(0, 9999, self.licence_year))
        self.licence_year.setMaximumWidth(100)
        add("owner_id", "&Owner:", self._build_owner_row(), focus=self.choose_owner_button)
        self.notes = add("notes", "No&tes:", notes_edit())
        self.species.currentIndexChanged.connect(self._on_species_current_index_changed)
        chain = [
            self.name,
            self.species,
            self.species_detail,
            self.breed,
            self.colour,
            self.sex,
            self.altered,
            self.birth_date.date_edit,
            self.birth_date.unknown,
            self.markings,
            self.microchip,
            self.licence_number,
            self.licence_year,
            self.choose_owner_button,
            self.clear_owner_button,
            self.open_owner_button,
            self.notes,
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)
        return page

    def _build_owner_row(self) -> QWidget:
        box = QWidget()
        # As wide as the form, so "Name (#12) (former owner)" reads whole.
        box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        self.owner_name = QLineEdit()
        self.owner_name.setReadOnly(True)
        self.owner_name.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.owner_name.setPlaceholderText("No owner recorded")
        self.choose_owner_button = QPushButton("Choose…")
        self.clear_owner_button = QPushButton("No owner")
        self.open_owner_button = QPushButton("Open owner")
        row.addWidget(self.owner_name, 1)
        for b in (self.choose_owner_button, self.clear_owner_button, self.open_owner_button):
            b.setAutoDefault(False)
            row.addWidget(b)
        self.choose_owner_button.clicked.connect(self._on_choose_owner_button_clicked)
        self.clear_owner_button.clicked.connect(self._on_clear_owner_button_clicked)
        self.open_owner_button.clicked.connect(self._on_open_owner_button_clicked)
        return box

    def _build_vaccinations(self) -> QWidget:
        page = QWidget()
        column = QVBoxLayout(page)
        self.vaccinations_model = ListTableModel(
            vaccination_columns(self.ctx, lambda: self._fate), parent=self
        )
        self.vaccinations_view = RecordTableView()
        self.vaccinations_view.setModel(self.vaccinations_model)
        self.add_vaccination_button = QPushButton("&Add vaccination…")
        self.add_vaccination_button.setAutoDefault(False)
        gate(self.ctx, self.add_vaccination_button, Permission.RECORDS)
        self.add_vaccination_button.clicked.connect(self._on_add_vaccination_button_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_vaccination_button)
        buttons.addStretch(1)
        column.addWidget(self.vaccinations_view, 1)
        column.addLayout(buttons)
        return page

    # -- showing ---------------------------------------------------------

    def animal(self) -> AnimalView | None:
        return self._animal

    def _show_animal(self, a: AnimalView | None) -> None:
        self._animal = a
        self.setWindowTitle(f"{a.label} — animal #{a.id}" if a else "New animal")
        self.name.setText(a.name if a else "")
        _select(self.species, a.species if a else "dog")
        self.species_detail.setText(a.species_detail if a else "")
        self.breed.setText(a.breed if a else "")
        self.colour.setText(a.colour if a else "")
        _select(self.sex, a.sex if a else "unknown")
        _select(self.altered, a.altered if a else None)
        self.birth_date.set_default_date(self.ctx.today())
        self.birth_date.set_value(a.birth_date if a else None)
        self.markings.setPlainText(a.markings if a else "")
        self.microchip.setText(a.microchip if a else "")
        self.licence_number.setText(a.licence_number if a else "")
        self.licence_year.setText(str(a.licence_year) if a and a.licence_year else "")
        self._set_owner(a.owner_id if a else None, a.owner_name if a else "")
        self.notes.setPlainText(a.notes if a else "")
        self._on_species_current_index_changed()
        self.vaccinations_model.set_rows(a.vaccinations if a else ())
        self.tabs.setTabEnabled(1, a is not None)
        self.tabs.setTabEnabled(2, a is not None)
        self.tabs.setTabEnabled(self.impoundments_tab, a is not None)
        if a is not None:
            self._load_history(a.id)
            self.ctx.tasks.run(animal_fate, self.ctx.db, a.id, owner=self, on_done=self._show_fate)
            self.ctx.tasks.run(
                animal_impoundments,
                self.ctx.db,
                a.id,
                self.ctx.profile,
                self.ctx.now(),
                owner=self,
                on_done=self.impoundments_model.set_rows,
            )

    def _load_history(self, animal_id: int) -> None:
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "animal",
            animal_id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history_model.set_rows,
        )

    def fate(self) -> AnimalFate | None:
        return self._fate

    def _show_fate(self, fate: AnimalFate | None) -> None:
        """A dead or transferred animal says so, and its owner reads as the former owner."""
        self._fate = fate
        ended = fate is not None and fate.kind not in RELEASE_KINDS
        self.fate_label.setText(fate.status(self.ctx.timezone) if fate and ended else "")
        self.fate_label.setVisible(ended)
        a = self._animal
        if a is not None and a.owner_id == self._owner_id:
            self._set_owner(self._owner_id, a.owner_name)
        # The vaccinations' status depends on whether the animal is alive.
        self.vaccinations_model.set_rows(a.vaccinations if a else ())

    def _set_owner(self, owner_id: int | None, name: str) -> None:
        self._owner_id = owner_id
        former = (
            self._fate is not None
            and self._fate.owner_is_former
            and self._animal is not None
            and owner_id == self._animal.owner_id
        )
        self.owner_name.setText(owner_text(f"{name} (#{owner_id})", former) if owner_id else "")
        self.owner_name.setCursorPosition(0)
        self.clear_owner_button.setEnabled(owner_id is not None)
        self.open_owner_button.setEnabled(owner_id is not None)

    def owner_id(self) -> int | None:
        return self._owner_id

    # -- saving ----------------------------------------------------------

    def read_input(self) -> AnimalInput:
        year = self.licence_year.text().strip()
        return AnimalInput(
            species=self.species.currentData(),
            name=self.name.text(),
            species_detail=self.species_detail.text() if self._is_other() else "",
            breed=self.breed.text(),
            colour=self.colour.text(),
            sex=self.sex.currentData(),
            altered=self.altered.currentData(),
            birth_date=self.birth_date.value(),
            markings=self.markings.toPlainText(),
            microchip=self.microchip.text(),
            licence_number=self.licence_number.text(),
            licence_year=int(year) if year else None,
            owner_id=self._owner_id,
            notes=self.notes.toPlainText(),
        )

    def save(self) -> None:
        if refused(self.ctx, self.banner, Permission.RECORDS):
            return
        ctx, a = self.ctx, self._animal
        if a is None:
            self.save_with(
                create_animal,
                ctx.db,
                ctx.actor,
                self.read_input(),
                today=ctx.today(),
                client_key=self.client_key,
            )
        else:
            self.save_with(
                update_animal,
                ctx.db,
                ctx.actor,
                a.id,
                self.read_input(),
                expected_version=a.version,
                today=ctx.today(),
            )

    def _on_record_saved(self, view: AnimalView) -> None:
        self._show_animal(view)
        self.ctx.bus.changed.emit("animal", view.id)

    def _is_other(self) -> bool:
        return bool(self.species.currentData() == "other")

    # -- slots -----------------------------------------------------------

    def _on_species_current_index_changed(self, _index: int = 0) -> None:
        self.species_detail.setEnabled(self._is_other())

    def _on_choose_owner_button_clicked(self) -> None:
        picker = PersonPickerDialog(self.ctx, self)
        picker.chosen.connect(self._set_owner)
        picker.open()

    def _on_clear_owner_button_clicked(self) -> None:
        self._set_owner(None, "")
        self.choose_owner_button.setFocus()

    def _on_open_owner_button_clicked(self) -> None:
        if self._owner_id is not None:
            modules.open_record(self.ctx, "registry", "person", self._owner_id, self)

    def _on_add_vaccination_button_clicked(self) -> None:
        if self._animal is not None:
            dialog = VaccinationDialog(self.ctx, self._animal, self)
            dialog.saved.connect(self._on_vaccination_saved)
            dialog.open()

    def _on_vaccination_saved(self, view: AnimalView) -> None:
        # Only the list and history: the details tab may hold edits not yet saved.
        if self._animal is not None:
            self._animal = replace(self._animal, vaccinations=view.vaccinations)
        self.vaccinations_model.set_rows(view.vaccinations)
        self._load_history(view.id)
        self.ctx.bus.changed.emit("animal", view.id)

    def _on_impoundments_view_opened(self, row: int) -> None:
        imp: AnimalImpoundment | None = self.impoundments_model.row_object(row)
        if imp is not None:
            modules.open_record(self.ctx, "impound", "impoundment", imp.id, self)


def _qdate(d: date) -> QDate:
    return QDate(d.year, d.month, d.day)
