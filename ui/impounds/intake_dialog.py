"""Intake at the counter: the animal (from the registry or described), and the impoundment.

Quick to fill: a scanned microchip or a licence tag brings up the registry
animal it belongs to, a name or a description suggests possible matches, and
a repeat impoundment (the owner's fee doubles, 58-526(a)) is shown before
anything is saved; Save asks once more when it has not been seen yet.

A scanner types the chip and Enter: Enter in the chip or licence field looks
the animal up and offers it ("Use this animal" takes the focus, so a second
Enter uses it); Enter there, or in the match list, never saves.
"""

from __future__ import annotations

import itertools
from datetime import date, datetime
from functools import partial

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import ValidationError
from fieldops.rules import impound_hold, to_local
from fieldops.services.animals import AnimalInput, AnimalView, get_animal
from fieldops.services.impound_views import REASONS, ImpoundView
from fieldops.services.impounds import (
    IntakeInput,
    OfficerChoices,
    intake,
    officer_choices,
)
from fieldops.services.intake_check import IntakeCheck
from ui.common.fields import FieldGroups
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import (
    AgeSpinBox,
    LocalDateTimeEdit,
    OfficerComboBox,
    OptionalDateTimeEdit,
    PersonField,
)
from ui.common.style import POUND_STYLE
from ui.common.table_models import ListTableModel
from ui.common.text import ALTERED, SEX_LABELS, SPECIES, escape_html
from ui.common.widgets import RecordTableView
from ui.context import AppContext
from ui.impounds.matches import (
    IDENTIFIERS,
    MATCH_COLUMNS,
    WHOLE_COLUMNS,
    AnimalMatch,
    MatchQuery,
    find_matches,
)
from ui.impounds.photo_field import PhotoField
from ui.impounds.repeat_warning import RepeatWarningLabel

MATCH_DELAY_MS = 300

NEW_ANIMAL_TEXT = "A new animal, described below (or use a possible match)."


class IntakeDialog(RecordDialog):
    """Log an animal into the pound; on save it closes and the impoundment opens."""

    close_on_save = True

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, "New intake", parent)
        self.setObjectName("IntakeDialog")
        self.setStyleSheet(POUND_STYLE)
        self.resize(1280, 780)
        self._animal: AnimalView | None = None
        self._save_after_check = False
        self._match_generation = 0
        self._match_timer = QTimer(self)
        self._match_timer.setSingleShot(True)
        self._match_timer.setInterval(MATCH_DELAY_MS)
        self.save_button.setText("&Save")
        columns = QHBoxLayout()
        columns.addLayout(self._build_animal(), 6)
        columns.addSpacing(16)
        columns.addLayout(self._build_impoundment(), 5)
        self.body.addLayout(columns)
        self.fields = FieldGroups(self.animal_fields, self.impound_fields)
        self._connect()
        self._chain_tabs()
        self._on_reason_current_index_changed()
        self._on_species_current_index_changed()
        self._update_hold_preview()
        self.microchip.setFocus()
        self.ctx.tasks.run(
            officer_choices,
            self.ctx.db,
            self.ctx.actor,
            owner=self,
            on_done=self._on_officer_choices_loaded,
        )

    def _custody_day(self) -> date:
        """The local date of impoundment: the day the record gives the animal's age on."""
        if not hasattr(self, "impounded_at"):
            return self.ctx.today()  # the age field is built before the time
        return to_local(self.impounded_at.value(), self.ctx.profile).date()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in the chip or licence field looks the animal up (a scanner types the
        # digits and Enter), and in the match list chooses the match: never a save.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.focusWidget() in (
            self.microchip,
            self.licence_number,
            self.matches_view,
        ):
            event.accept()
            return
        super().keyPressEvent(event)

    # -- layout ----------------------------------------------------------

    def _build_animal(self) -> QVBoxLayout:
        column = QVBoxLayout()
        heading = QLabel("The animal")
        heading.setObjectName("SectionHeading")
        form = form_layout()
        self.animal_fields = FormFields(form)
        add = self.animal_fields.add
        self.chosen = QLabel(NEW_ANIMAL_TEXT)
        self.new_animal_button = QPushButton("Describe a ne&w animal instead")
        self.new_animal_button.setAutoDefault(False)
        self.new_animal_button.hide()
        add("animal", "Animal:", self.chosen, focus=self.new_animal_button)
        form.addRow("", self.new_animal_button)
        self.species = add("animal.species", "S&pecies:", combo(SPECIES))
        self.species_detail = add(
            "animal.species_detail",
            "&Kind of animal:",
            QLineEdit(),
            hint="Only for species Other, e.g. ferret or rabbit.",
        )
        self.microchip = add("animal.microchip", "&Microchip:", QLineEdit())
        self.microchip.setPlaceholderText("Scan or type the chip number, then Enter to look it up")
        self.licence_number = add("animal.licence_number", "Licence ta&g:", QLineEdit())
        self.licence_year = add("animal.licence_year", "Licence &year:", QSpinBox())
        self.licence_year.setRange(1999, 2100)
        self.licence_year.setSpecialValueText("Not known")
        self.licence_year.setValue(1999)
        self.name = add("animal.name", "&Name:", QLineEdit())
        self.breed = add("animal.breed", "&Breed:", QLineEdit())
        self.colour = add("animal.colour", "Co&lour:", QLineEdit())
        self.sex = add("animal.sex", "Se&x:", combo(SEX_LABELS))
        self.age = add("animal.birth_date", "Approx. age:", AgeSpinBox(self._custody_day))
        self.altered = add("altered", "Spayed/neutered:", combo(ALTERED), hint="As seen at intake.")
        self.markings = add("animal.markings", "M&arkings:", QLineEdit())
        self._description = [
            self.species,
            self.species_detail,
            self.microchip,
            self.licence_number,
            self.licence_year,
            self.name,
            self.breed,
            self.colour,
            self.sex,
            self.age,
            self.markings,
        ]
        self.matches_heading = QLabel("Possible matches in the registry")
        self.matches_heading.setObjectName("SectionHeading")
        self.matches_model = ListTableModel(MATCH_COLUMNS, parent=self)
        self.matches_view = RecordTableView()
        self.matches_view.setModel(self.matches_model)
        self.matches_heading.setBuddy(self.matches_view)
        header = self.matches_view.horizontalHeader()
        for i, match_column in enumerate(MATCH_COLUMNS):
            if match_column.title in WHOLE_COLUMNS:
                header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        self.use_match_button = QPushButton("&Use this animal")
        # When offered (a scanned chip found its animal) it has the focus, and Enter uses it.
        self.use_match_button.setAutoDefault(True)
        self.use_match_button.setEnabled(False)
        self.offer_label = QLabel()
        self.offer_label.setObjectName("FieldHint")
        self.offer_label.setWordWrap(True)
        self.offer_label.hide()
        use_row = QHBoxLayout()
        use_row.addWidget(self.use_match_button)
        use_row.addWidget(self.offer_label, 1)
        use_row.addStretch(0)  # the button keeps its width while the note is hidden
        column.addWidget(heading)
        column.addLayout(form)
        column.addWidget(self.matches_heading)
        column.addWidget(self.matches_view, 1)
        column.addLayout(use_row)
        return column

    def _build_impoundment(self) -> QVBoxLayout:
        column = QVBoxLayout()
        heading = QLabel("The impoundment")
        heading.setObjectName("SectionHeading")
        form = form_layout()
        self.impound_fields = FormFields(form)
        add = self.impound_fields.add
        self.impounded_at = add(
            "impounded_at", "&Impounded at:", LocalDateTimeEdit(self.ctx.timezone)
        )
        self.impounded_at.set_value(self.ctx.now())
        self.officer = add("officer", "&Officer:", OfficerComboBox())
        self.reason = add("reason", "&Reason:", combo(REASONS))
        self.reason_detail = add("reason_detail", "Reason &details:", QLineEdit())
        self.bit_person = add(
            "bit_person",
            "",
            QCheckBox(
                f"Bit a person (the hold is {self.ctx.profile.bite_hold_days} days, "
                f"not {self.ctx.profile.hold_days})"
            ),
        )
        self.found_place = add("found_place", "&Found at (place):", QLineEdit())
        self.found_place.setPlaceholderText(
            "Address or place; for a surrender, where it was handed over"
        )
        self.found_at = OptionalDateTimeEdit(self.ctx.timezone)
        self.found_at.edit.set_value(self.ctx.now())
        add("found_at", "Found when:", self.found_at, focus=self.found_at.edit)
        self.condition = add("condition", "Condition:", QLineEdit())
        self.condition.setPlaceholderText("e.g. good, thin, matted, aggressive")
        self.injuries = QPlainTextEdit()
        self.injuries.setTabChangesFocus(True)
        self.injuries.setMaximumHeight(48)
        self.injuries.setPlaceholderText("None seen")
        add("injuries", "In&juries:", self.injuries)
        self.owner = PersonField(self.ctx, "Owner not known")
        add(
            "owner_id",
            "O&wner:",
            self.owner,
            focus=self.owner.choose_button,
            hint="An owner surrender needs the owner who signed the relinquishment.",
        )
        self.kennel = add("kennel", "K&ennel:", QLineEdit())
        self.kennel.setMaximumWidth(160)
        self.photo_field = PhotoField(self.ctx)
        add("photo", "P&hoto:", self.photo_field, focus=self.photo_field.photo_button)
        self.notes = QPlainTextEdit()
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(70)
        add("notes", "No&tes:", self.notes)
        self.hold_preview = QLabel()
        self.hold_preview.setWordWrap(True)
        self.hold_preview.setObjectName("FieldHint")
        self.repeat_label = RepeatWarningLabel(self.ctx, self._repeat_key, self._answer_repeat)
        column.addWidget(heading)
        column.addLayout(form)
        column.addWidget(self.hold_preview)
        column.addWidget(self.repeat_label)
        column.addStretch(1)
        return column

    def _chain_tabs(self) -> None:
        chain = [
            self.microchip,
            self.licence_number,
            self.licence_year,
            self.species,
            self.species_detail,
            self.name,
            self.breed,
            self.colour,
            self.sex,
            self.age,
            self.altered,
            self.markings,
            self.matches_view,
            self.use_match_button,
            self.new_animal_button,
            self.impounded_at,
            self.officer,
            self.reason,
            self.reason_detail,
            self.bit_person,
            self.found_place,
            self.found_at.edit,
            self.found_at.unknown,
            self.condition,
            self.injuries,
            self.owner.choose_button,
            self.owner.clear_button,
            self.kennel,
            self.photo_field.photo_button,
            self.photo_field.remove_photo_button,
            self.notes,
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _connect(self) -> None:
        for edit in (self.microchip, self.licence_number, self.name, self.breed, self.colour):
            edit.textEdited.connect(self._on_description_edited)
        self.microchip.returnPressed.connect(self._on_identifier_return_pressed)
        self.licence_number.returnPressed.connect(self._on_identifier_return_pressed)
        self.species.currentIndexChanged.connect(self._on_species_current_index_changed)
        self._match_timer.timeout.connect(self._on_match_timer_timeout)
        self.matches_view.opened.connect(self.choose_match)
        self.matches_view.selectionModel().currentChanged.connect(self._on_matches_current_changed)
        self.use_match_button.clicked.connect(self._on_use_match_button_clicked)
        self.new_animal_button.clicked.connect(self.describe_new_animal)
        self.reason.currentIndexChanged.connect(self._on_reason_current_index_changed)
        self.bit_person.toggled.connect(self._update_hold_preview)
        self.impounded_at.dateTimeChanged.connect(self._on_impounded_at_changed)

    # -- the animal --------------------------------------------------------

    def match_query(self) -> MatchQuery:
        return MatchQuery(
            species=self.species.currentData(),
            microchip=self.microchip.text(),
            licence=self.licence_number.text(),
            name=self.name.text(),
            breed=self.breed.text(),
            colour=self.colour.text(),
        )

    def find_matches_now(self, *, offer: bool = False, focus: bool = False) -> None:
        """Look the description up in the registry (also after a pause in typing).

        ``offer``: an animal the chip or licence identifies is selected, ready for
        "Use this animal" (which takes the focus when ``focus``)."""
        self._match_timer.stop()
        self._match_generation += 1
        q = self.match_query()
        done = partial(self._on_matches_found, self._match_generation, offer, focus)
        if q.is_empty():
            done(())
            return
        self.ctx.tasks.run(find_matches, self.ctx.db, q, owner=self, on_done=done)

    def choose_match(self, row: int) -> None:
        match: AnimalMatch | None = self.matches_model.row_object(row)
        if match is not None:
            self.use_registry_animal(match.animal.id)

    def use_registry_animal(self, animal_id: int) -> None:
        """Take this registry animal as the one impounded (read off the GUI thread)."""
        self.ctx.tasks.run(
            get_animal, self.ctx.db, animal_id, owner=self, on_done=self._set_registry_animal
        )

    def chosen_animal(self) -> AnimalView | None:
        return self._animal

    def describe_new_animal(self) -> None:
        self._animal = None
        for widget in self._description:
            widget.setEnabled(True)
        self._on_species_current_index_changed()
        self.chosen.setText(NEW_ANIMAL_TEXT)
        self.new_animal_button.hide()
        self.age.show_new()
        self.repeat_label.show_answer(None, None)
        self.animal_fields.unmark("animal")
        self.microchip.setFocus()

    def _set_registry_animal(self, a: AnimalView) -> None:
        self._animal = a
        self.chosen.setText(f"<b>{escape_html(a.label)}</b>, registry animal #{a.id}")
        self.chosen.setToolTip(f"Owner: {a.owner_name}" if a.owner_name else "No owner recorded")
        self.new_animal_button.show()
        self.species.setCurrentIndex(max(self.species.findData(a.species), 0))
        self.species_detail.setText(a.species_detail)
        for edit, value in (
            (self.microchip, a.microchip),
            (self.licence_number, a.licence_number),
            (self.name, a.name),
            (self.breed, a.breed),
            (self.colour, a.colour),
            (self.markings, a.markings),
        ):
            edit.setText(value)
        self.licence_year.setValue(a.licence_year or self.licence_year.minimum())
        self.sex.setCurrentIndex(max(self.sex.findData(a.sex), 0))
        self.altered.setCurrentIndex(max(self.altered.findData(a.altered), 0))
        for widget in self._description:
            widget.setEnabled(False)
        self.age.show_registry(a.birth_date)
        self.offer_label.hide()
        if self.focusWidget() in (self.use_match_button, self.matches_view, None):
            self.officer.setFocus()  # the animal is done: on to the impoundment
        if a.owner_id is not None and self.owner.person_id() is None:
            self.owner.set_person(a.owner_id, a.owner_name)
        self.check_repeat()

    # -- the repeat warning, and a refusal shown at choice ----------------

    def check_repeat(self) -> None:
        """Ask whether this animal may be taken in at this time, and whether it was
        impounded inside the repeat window."""
        self.repeat_label.check()

    def _repeat_key(self) -> tuple[int, datetime] | None:
        return None if self._animal is None else (self._animal.id, self.impounded_at.value())

    def _answer_repeat(self, check: IntakeCheck, _key: tuple[int, datetime]) -> None:
        if check.refusal:  # an animal in the pound now, or dead: said before it is typed up
            self.animal_fields.mark("animal", check.refusal)
        else:
            self.animal_fields.unmark("animal")
        if self._save_after_check:
            self._save_after_check = False
            if check.repeat is None:
                self.save()  # a refusal is the save's to give, in its own unit of work
            else:
                self.banner.show_error(
                    "This is a repeat impoundment (see the warning). "
                    "Save again to take the animal in."
                )

    def repeat_text(self) -> str:
        return self.repeat_label.warning()

    # -- saving ----------------------------------------------------------

    def read_input(self) -> IntakeInput:
        new_animal = None
        if self._animal is None:
            year = self.licence_year.value()
            new_animal = AnimalInput(
                species=self.species.currentData(),
                name=self.name.text(),
                species_detail=self.species_detail.text()
                if self.species.currentData() == "other"
                else "",
                breed=self.breed.text(),
                colour=self.colour.text(),
                sex=self.sex.currentData(),
                birth_date=self.age.birth_date(),
                markings=self.markings.text(),
                microchip=self.microchip.text(),
                licence_number=self.licence_number.text(),
                licence_year=None if year == self.licence_year.minimum() else year,
                owner_id=self.owner.person_id(),
            )
        return IntakeInput(
            impounded_at=self.impounded_at.value(),
            officer=self.officer.text(),
            altered=self.altered.currentData(),
            condition=self.condition.text(),
            injuries=self.injuries.toPlainText(),
            reason=self.reason.currentData(),
            reason_detail=self.reason_detail.text() if self.reason.currentData() == "other" else "",
            animal_id=self._animal.id if self._animal else None,
            new_animal=new_animal,
            found_place=self.found_place.text(),
            found_at=self.found_at.value(),
            bit_person=self.bit_person.isChecked(),
            owner_id=self.owner.person_id(),
            kennel=self.kennel.text(),
            notes=self.notes.toPlainText(),
            photo=self.photo_field.photo,
        )

    def save(self) -> None:
        if self._animal is not None and self.repeat_label.shown_for != self._repeat_key():
            self._save_after_check = True  # the warning must be seen before saving
            self.check_repeat()
            return
        self.save_with(
            intake,
            self.ctx.db,
            self.ctx.actor,
            self.read_input(),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_save_failed(self, exc: BaseException) -> bool:
        handled = super()._on_save_failed(exc)
        if (
            isinstance(exc, ValidationError)
            and self._animal is None
            and "animal.microchip" in exc.by_field()
            and self.microchip.text().strip()
        ):
            self.find_matches_now(offer=True)  # the chip is registered: offer that animal
        return handled

    def _on_record_saved(self, view: ImpoundView) -> None:
        if self._animal is None:
            self.ctx.bus.changed.emit("animal", view.animal.id)
        self.ctx.bus.changed.emit("impoundment", view.id)

    # -- slots -----------------------------------------------------------

    def _on_description_edited(self, _text: str) -> None:
        self._match_timer.start()

    def _on_match_timer_timeout(self) -> None:
        self.find_matches_now()

    def _on_identifier_return_pressed(self) -> None:
        if self._animal is None:
            self.find_matches_now(offer=True, focus=True)

    def _on_officer_choices_loaded(self, choices: OfficerChoices) -> None:
        self.officer.set_choices(choices.names, choices.last)

    def _on_matches_found(
        self, generation: int, offer: bool, focus: bool, matches: tuple[AnimalMatch, ...]
    ) -> None:
        if generation == self._match_generation:
            self.show_matches(matches, offer=offer, focus=focus)

    def show_matches(
        self, matches: tuple[AnimalMatch, ...], *, offer: bool = False, focus: bool = False
    ) -> None:
        self.matches_model.set_rows(matches)
        n = len(matches)
        self.matches_heading.setText(
            "Possible matches in the registry"
            + (f" — {n}" if n else (" — none" if not self.match_query().is_empty() else ""))
        )
        self.use_match_button.setEnabled(False)
        self.offer_label.hide()
        if offer and matches and matches[0].matched_by in IDENTIFIERS:
            self.offer(matches[0], focus=focus)

    def offer(self, match: AnimalMatch, *, focus: bool) -> None:
        """Select the animal a chip or licence identifies and say how to take it in."""
        self.matches_view.selectRow(0)
        self.use_match_button.setEnabled(True)
        a = match.animal
        what = "microchip" if match.matched_by == "Microchip" else "licence tag"
        self.offer_label.setText(
            f"This {what} is registered to {a.name or '(no name)'} "
            f"(#{a.id}). Use this animal to take it in" + (" (Enter)." if focus else ".")
        )
        self.offer_label.show()
        if focus:
            self.use_match_button.setFocus()

    def _on_matches_current_changed(self) -> None:
        self.use_match_button.setEnabled(self.matches_view.current_row() >= 0)

    def _on_use_match_button_clicked(self) -> None:
        self.choose_match(self.matches_view.current_row())

    def _on_species_current_index_changed(self, _index: int = 0) -> None:
        self.species_detail.setEnabled(
            self._animal is None and self.species.currentData() == "other"
        )
        if self._animal is None:
            self._match_timer.start()

    def _on_reason_current_index_changed(self, _index: int = 0) -> None:
        self.reason_detail.setEnabled(self.reason.currentData() == "other")
        self._update_hold_preview()

    def _on_impounded_at_changed(self) -> None:
        self._update_hold_preview()
        self.age.refresh()
        self.repeat_label.check_soon()

    def _update_hold_preview(self) -> None:
        hold = impound_hold(
            self.impounded_at.value(),
            self.ctx.profile,
            bit_person=self.bit_person.isChecked(),
            surrendered=self.reason.currentData() == "owner_surrender",
        )
        self.hold_preview.setText("Hold: " + hold.why["last_claim_day"])
