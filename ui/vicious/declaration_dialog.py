"""The declaration form (58-524(a)): the animal and owner, the incidents, the grounds and a
finding on every exception, each in the ordinance's own words.

Declare stays disabled until every exception has a finding, and the line above the
buttons says which are missing. When the officer finds an exception applies, the button
becomes "Record refusal": the app records the refusal with its reason (the animal cannot
be declared vicious), as the service decides.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from fieldops.modules import Incident
from fieldops.rules import vicious as rules
from fieldops.services.vicious.declaring import (
    DeclarationInput,
    Finding,
    IncidentInput,
    animal_incidents,
    declare,
    missing_findings,
)
from fieldops.services.vicious.views import CaseView
from ui.common.fields import FieldGroups, GridFields, error_label
from ui.common.forms import FormFields, RecordDialog, form_layout
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.context import AppContext
from ui.vicious.inputs import AnimalField, IncidentRow


def _words(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def _section(text: str) -> QLabel:
    label = QLabel(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label


class FindingRow:
    """One exception: its section and words, Applies / Does not apply, what was found."""

    def __init__(self, code: str, grid: QGridLayout, row: int, fields: GridFields) -> None:
        self.code = code
        self.applies = QRadioButton("Applies")
        self.not_applies = QRadioButton("Does not apply")
        self.group = QButtonGroup()
        self.group.addButton(self.applies)
        self.group.addButton(self.not_applies)
        self.why = QLineEdit()
        self.why.setPlaceholderText("What the officer found")
        err = error_label()
        grid.addWidget(_section(rules.EXCEPTION_SECTIONS[code]), row, 0, 2, 1)
        grid.addWidget(_words(rules.EXCEPTION_TEXT[code]), row, 1, 1, 3)
        grid.addWidget(self.applies, row + 1, 1)
        grid.addWidget(self.not_applies, row + 1, 2)
        grid.addWidget(self.why, row + 1, 3)
        grid.addWidget(err, row + 2, 1, 1, 3)
        fields.add(f"finding.{code}", self.not_applies, err)

    def finding(self) -> Finding:
        applies = (
            True if self.applies.isChecked() else (False if self.not_applies.isChecked() else None)
        )
        return Finding(applies, self.why.text())


class DeclarationDialog(RecordDialog):
    close_on_save = True

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, "Vicious-animal declaration (58-524(a))", parent)
        self.setObjectName("DeclarationDialog")
        self.resize(980, 820)
        form = form_layout()
        top = FormFields(form)
        self.animal = AnimalField(ctx)
        self.owner = PersonField(ctx, "The animal's owner on file")
        self.officer = QLineEdit(ctx.actor.full_name or ctx.actor.username)
        self.decided_at = LocalDateTimeEdit(ctx.timezone)
        self.decided_at.set_value(ctx.now())
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(48)
        top.add("animal_id", "&Animal:", self.animal, focus=self.animal.search)
        top.add(
            "owner_id",
            "O&wner:",
            self.owner,
            focus=self.owner.choose_button,
            hint="Leave blank for the animal's owner on file: the notice is served on them.",
        )
        top.add("officer", "Declaring o&fficer:", self.officer)
        top.add("decided_at", "Decided a&t:", self.decided_at)
        self.grid_fields = GridFields()
        notes_form = form_layout()
        notes_fields = FormFields(notes_form)
        notes_fields.add("notes", "N&otes:", self.notes)
        self.fields = FieldGroups(top, self.grid_fields, notes_fields)

        # Incidents
        self.incidents_box = QGroupBox("Incidents the declaration rests on")
        self.incidents_layout = QVBoxLayout(self.incidents_box)
        self.incident_rows: list[IncidentRow] = []
        self.on_file: tuple[Incident, ...] = ()  # the animal's records on file, to link
        self.incidents_error = error_label()
        self.grid_fields.add("incidents", self.incidents_box, self.incidents_error)
        self.incidents_layout.addWidget(self.incidents_error)
        self.add_incident_button = QPushButton("Add &incident")
        self.add_incident_button.setAutoDefault(False)
        self.incidents_layout.addWidget(self.add_incident_button)
        self.add_incident()

        # Grounds
        grounds_box = QGroupBox("Grounds, 58-524(a)(1): at least one")
        g = QGridLayout(grounds_box)
        self.grounds: dict[str, QCheckBox] = {}
        for row, (code, words) in enumerate(rules.GROUND_TEXT.items()):
            box = QCheckBox(rules.GROUND_SECTIONS[code])
            self.grounds[code] = box
            g.addWidget(box, row, 0, Qt.AlignmentFlag.AlignTop)
            g.addWidget(_words(words), row, 1)
        g.setColumnStretch(1, 1)
        self.grounds_error = error_label()
        g.addWidget(self.grounds_error, len(self.grounds), 0, 1, 2)
        self.grid_fields.add("grounds", next(iter(self.grounds.values())), self.grounds_error)

        # Exceptions
        exc_box = QGroupBox("Exceptions, 58-524(a)(2): a finding on every one")
        eg = QGridLayout(exc_box)
        eg.setColumnStretch(3, 1)
        self.findings: dict[str, FindingRow] = {}
        for n, code in enumerate(rules.EXCEPTIONS):
            self.findings[code] = FindingRow(code, eg, n * 3, self.grid_fields)
        self.none_apply = QPushButton("&None of them apply")
        self.none_apply.setAutoDefault(False)
        self.none_apply.setToolTip("Mark every exception without a finding as not applying")
        eg.addWidget(self.none_apply, len(rules.EXCEPTIONS) * 3, 1, 1, 2)

        content = QWidget()
        column = QVBoxLayout(content)
        column.addLayout(form)
        column.addWidget(self.incidents_box)
        column.addWidget(grounds_box)
        column.addWidget(exc_box)
        column.addLayout(notes_form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(content)
        self.body.addWidget(scroll, 1)
        self.why_disabled = QLabel()
        self.why_disabled.setObjectName("SearchStatus")
        self.why_disabled.setWordWrap(True)
        self.body.addWidget(self.why_disabled)

        self.add_incident_button.clicked.connect(self.add_incident)
        self.animal.changed.connect(self._load_incidents)
        self.none_apply.clicked.connect(self._on_none_apply_clicked)
        for r in self.findings.values():
            r.group.buttonToggled.connect(lambda *_a: self.update_declare())
        self.update_declare()

    # -- the form ----------------------------------------------------------

    def add_incident(self) -> IncidentRow:
        row = IncidentRow(self.ctx, len(self.incident_rows), self.grid_fields)
        row.set_choices(self.on_file)
        self.incident_rows.append(row)
        self.incidents_layout.insertWidget(self.incidents_layout.count() - 2, row)
        return row

    def _load_incidents(self) -> None:
        """Offer the chosen animal's records on file (bite reports) in every incident."""
        animal_id = self.animal.animal_id()
        if animal_id is None:
            self._on_incidents(())
            return
        self.ctx.tasks.run(
            animal_incidents,
            self.ctx.db,
            animal_id,
            owner=self,
            # a late answer for an animal no longer chosen is dropped
            on_done=lambda found: (
                self._on_incidents(found) if self.animal.animal_id() == animal_id else None
            ),
        )

    def _on_incidents(self, incidents: tuple[Incident, ...]) -> None:
        self.on_file = incidents
        for row in self.incident_rows:
            row.set_choices(incidents)

    def current_findings(self) -> dict[str, Finding]:
        return {code: r.finding() for code, r in self.findings.items()}

    def update_declare(self) -> None:
        """Enable the main button once every exception has a finding; say why not, or that
        an exception applies and the refusal will be recorded."""
        findings = self.current_findings()
        missing = missing_findings(findings)
        applies = [rules.EXCEPTION_SECTIONS[c] for c, f in findings.items() if f.applies]
        self.save_button.setEnabled(not missing and not self.is_saving())
        if missing:
            sections = ", ".join(rules.EXCEPTION_SECTIONS[c] for c in missing)
            self.why_disabled.setText(
                f"Declare is disabled: record a finding on every exception. "
                f"{len(missing)} without a finding: {sections}."
            )
        elif applies:
            self.why_disabled.setText(
                f"An exception applies ({', '.join(applies)}): the animal cannot be declared "
                "vicious. Record refusal keeps the decision and its reason."
            )
        else:
            self.why_disabled.setText("Every exception has a finding and none applies.")
        self.save_button.setText("Record &refusal" if applies else "&Declare")

    def _set_saving(self, saving: bool) -> None:
        super()._set_saving(saving)
        if not saving:
            self.update_declare()

    def _on_none_apply_clicked(self) -> None:
        for r in self.findings.values():
            if not r.applies.isChecked():
                r.not_applies.setChecked(True)

    def read(self) -> DeclarationInput:
        return DeclarationInput(
            animal_id=self.animal.animal_id(),
            owner_id=self.owner.person_id(),
            officer=self.officer.text(),
            decided_at=self.decided_at.value(),
            grounds=tuple(c for c, box in self.grounds.items() if box.isChecked()),
            findings=self.current_findings(),
            incidents=tuple(IncidentInput(*r.value()) for r in self.incident_rows),
            notes=self.notes.toPlainText(),
        )

    def confirm_save(self) -> bool:
        refusing = any(f.applies for f in self.current_findings().values())
        question = (
            "Record the refusal? The decision and its reason are kept as a legal record."
            if refusing
            else "Declare this animal vicious? The declaration is a legal record: it cannot "
            "be edited afterwards, only withdrawn or overturned."
        )
        return self.ctx.errors.confirm(
            question, "Record &refusal" if refusing else "&Declare", "&Go back", self
        )

    def save(self) -> None:
        self.save_with(
            declare,
            self.ctx.db,
            self.ctx.actor,
            self.read(),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_record_saved(self, view: CaseView) -> None:
        self.ctx.bus.changed.emit("vicious_case", view.id)
