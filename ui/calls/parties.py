"""The quick call form's "People and animals involved": a small table of rows, each a
person or an animal beyond the caller, from the registry or described, in a role.

Each row's inputs answer to the service's field names (``parties.0.role``), so a
refusal is shown beside the row it names; Tab walks the rows, Add person (Alt+E) and
Add animal (Alt+I) add one with the focus on its role."""

from __future__ import annotations

import itertools

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.rules import calls as rules
from fieldops.services.calls.parties import PartyInput
from fieldops.services.calls.views import PartyView
from ui.common.animal_picker import AnimalField
from ui.common.fields import GridFields, error_label
from ui.common.forms import combo
from ui.common.inputs import PersonField
from ui.context import AppContext

HEADINGS = ("", "Role", "From the registry", "Or described", "Notes", "")


class PartyRow:
    """One person or animal involved: its role, its registry record or description."""

    def __init__(self, ctx: AppContext, kind: str) -> None:
        self.kind = kind
        self.label = QLabel(rules.PARTY_KINDS[kind])
        self.role = combo(rules.PARTY_ROLES[kind])
        self.record: PersonField | AnimalField = (
            PersonField(ctx, "Not in the registry")
            if kind == "person"
            else AnimalField(ctx, "Not in the registry")
        )
        self.record.name.setMinimumWidth(190)
        name = self.record.name  # a long registry name or animal reads whole on hover
        self.record.changed.connect(lambda: name.setToolTip(name.text()))
        self.description = QLineEdit()
        self.description.setPlaceholderText(
            "Name, age, how to reach them" if kind == "person" else "Species, colour, size"
        )
        self.description.setMinimumWidth(200)
        self.notes = QLineEdit()
        self.notes.setPlaceholderText("What they saw, what happened to them")
        self.remove = QPushButton("Remove")
        self.remove.setAutoDefault(False)
        self.remove.setToolTip(f"Take this {kind} off the call")
        self.error = error_label()

    def widgets(self) -> tuple[QWidget, ...]:
        return (
            self.label,
            self.role,
            self.record,
            self.description,
            self.notes,
            self.remove,
            self.error,
        )

    def record_id(self) -> int | None:
        r = self.record
        return r.person_id() if isinstance(r, PersonField) else r.animal_id()

    def set_record(self, record_id: int | None, name: str) -> None:
        r = self.record
        if isinstance(r, PersonField):
            r.set_person(record_id, name)
        else:
            r.set_animal(record_id, name)

    def value(self) -> PartyInput:
        rid = self.record_id()
        return PartyInput(
            self.kind,
            self.role.currentData(),
            person_id=rid if self.kind == "person" else None,
            animal_id=rid if self.kind == "animal" else None,
            description=self.description.text(),
            notes=self.notes.text(),
        )


class PartiesWidget(QWidget):
    """The rows, with Add person and Add animal under them."""

    changed = Signal()

    def __init__(self, ctx: AppContext, fields: GridFields, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._fields = fields
        self._rows: list[PartyRow] = []
        # The input Tab leaves for the first row (the form's field above the table).
        self.before: QWidget | None = None
        self.grid = QGridLayout()
        self.grid.setColumnStretch(2, 3)
        self.grid.setColumnStretch(3, 2)
        self.grid.setColumnStretch(4, 2)
        self._headings: list[QLabel] = []
        for column, title in enumerate(HEADINGS):
            heading = QLabel(title)
            heading.setObjectName("FieldHint")
            self.grid.addWidget(heading, 0, column)
            self._headings.append(heading)
        self.add_person_button = QPushButton("Add p&erson")
        self.add_animal_button = QPushButton("Add an&imal")
        for b in (self.add_person_button, self.add_animal_button):
            b.setAutoDefault(False)
        self.error = error_label()
        bottom = QHBoxLayout()
        bottom.addWidget(self.add_person_button)
        bottom.addWidget(self.add_animal_button)
        bottom.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.grid)
        layout.addWidget(self.error)
        layout.addLayout(bottom)
        fields.add("parties", self.add_person_button, self.error)
        self.add_person_button.clicked.connect(self._on_add_person_button_clicked)
        self.add_animal_button.clicked.connect(self._on_add_animal_button_clicked)
        self._relay()

    # -- rows --------------------------------------------------------------

    def add_row(self, kind: str) -> PartyRow:
        row = PartyRow(self.ctx, kind)
        row.remove.clicked.connect(lambda: self.remove_row(self._rows.index(row)))
        self._rows.append(row)
        self._relay()
        self.changed.emit()
        return row

    def add_view(self, p: PartyView) -> PartyRow:
        """A saved row again (correcting a call)."""
        row = self.add_row(p.kind)
        row.role.setCurrentIndex(row.role.findData(p.role))
        if p.person_id is not None or p.animal_id is not None:
            row.set_record(p.person_id or p.animal_id, p.name)
        row.description.setText(p.description)
        row.notes.setText(p.notes)
        return row

    def remove_row(self, index: int) -> None:
        row = self._rows.pop(index)
        for widget in row.widgets():
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self._relay()
        self.changed.emit()
        # The focus goes on to the next row, or to Add person when none is left.
        target = self._rows[min(index, len(self._rows) - 1)].role if self._rows else None
        (target or self.add_person_button).setFocus()

    def row(self, index: int) -> PartyRow:
        return self._rows[index]

    def count(self) -> int:
        return len(self._rows)

    def parties(self) -> tuple[PartyInput, ...]:
        return tuple(r.value() for r in self._rows)

    def _relay(self) -> None:
        """Place the rows again and name their fields by their new positions."""
        self._fields.remove_prefix("parties.")
        for row in self._rows:  # a widget is taken out before it is placed again
            for widget in row.widgets():
                self.grid.removeWidget(widget)
        for i, row in enumerate(self._rows):
            base = 1 + 2 * i
            for column, widget in enumerate(row.widgets()[:-1]):
                self.grid.addWidget(widget, base, column)
            self.grid.addWidget(row.error, base + 1, 0, 1, len(HEADINGS))
            f = f"parties.{i}"
            self._fields.add(f"{f}.kind", row.role, row.error)
            self._fields.add(f"{f}.role", row.role, row.error)
            self._fields.add(f"{f}.{row.kind}_id", row.record.choose_button, row.error)
            self._fields.add(f"{f}.description", row.description, row.error)
            self._fields.add(f"{f}.notes", row.notes, row.error)
        for heading in self._headings:
            heading.setVisible(bool(self._rows))
        # Tab walks each row left to right, then the next row, then the buttons.
        chain: list[QWidget] = [self.before] if self.before is not None else []
        for row in self._rows:
            r = row.record
            chain += [row.role, r.choose_button, r.clear_button, row.description, row.notes]
            chain.append(row.remove)
        chain += [self.add_person_button, self.add_animal_button]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _on_add_person_button_clicked(self) -> None:
        self.add_row("person").role.setFocus()

    def _on_add_animal_button_clicked(self) -> None:
        self.add_row("animal").role.setFocus()
