"""Choosing a registry animal by searching, without a mouse: the animal picker, and a
field showing the chosen animal with Choose… and Clear (as ``PersonField`` for people)."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.animals import AnimalRow, animals_page, count_animals
from ui.common.table_models import Column, PagedTableModel
from ui.common.text import SPECIES
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext


def animal_label(row: AnimalRow) -> str:
    """An animal in a few words: "Rex, dog, Beagle" (as the record names it)."""
    parts = (row.name or "(no name)", SPECIES.get(row.species, row.species), row.breed)
    return ", ".join(x for x in parts if x)


ANIMAL_COLUMNS = (
    Column("Name", lambda r: r.name or "(no name)", 120),
    Column("Species", lambda r: SPECIES.get(r.species, r.species), 70),
    Column("Breed", lambda r: r.breed, 140),
    Column("Colour", lambda r: r.colour, 110),
    Column("Microchip", lambda r: r.microchip, 140),
    Column("Licence", lambda r: r.licence_number, 100),
    Column("Owner", lambda r: r.owner_name),
)


class AnimalPickerDialog(QDialog):
    """Search by name, breed, colour, microchip, licence or owner; Enter (or Choose)
    picks the highlighted animal."""

    chosen = Signal(int, str)  # id, the animal in a few words

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("AnimalPickerDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Choose an animal")
        self.resize(1000, 560)
        self.search = SearchField("Name, breed, colour, microchip, licence or owner")
        caption = QLabel("&Search:")
        caption.setBuddy(self.search)
        self.status = QLabel()
        self.status.setObjectName("SearchStatus")
        top = QHBoxLayout()
        top.addWidget(caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.status)
        self.model = PagedTableModel(
            ctx.tasks,
            ANIMAL_COLUMNS,
            partial(count_animals, ctx.db),
            partial(animals_page, ctx.db),
            parent=self,
        )
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.buttons = QDialogButtonBox()
        self.choose_button = QPushButton("C&hoose")
        self.buttons.addButton(self.choose_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.buttons)
        self.search.search_requested.connect(self.model.search)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.choose_button.clicked.connect(self._on_choose_button_clicked)
        self.buttons.rejected.connect(self.reject)
        self.model.search("")

    def choose_row(self, row: int) -> bool:
        animal = self.model.row_object(row)
        if animal is None:
            return False
        self.chosen.emit(animal.id, animal_label(animal))
        self.accept()
        return True

    def _on_search_too_short(self) -> None:
        self.status.setText("Type at least 2 characters")

    def _on_model_searching_changed(self, searching: bool) -> None:
        self.status.setText("Searching…" if searching else self.status.text())

    def _on_model_counted(self, count: int) -> None:
        self.status.setText(f"{count:,} found")

    def _on_view_opened(self, row: int) -> None:
        self.choose_row(row)

    def _on_choose_button_clicked(self) -> None:
        self.choose_row(self.view.current_row())


class AnimalField(QWidget):
    """Which animal: a read-only label with Choose… (the animal picker) and Clear."""

    changed = Signal()

    def __init__(self, ctx: AppContext, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._id: int | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit()
        self.name.setReadOnly(True)
        self.name.setPlaceholderText(placeholder)
        self.choose_button = QPushButton("Choose…")
        self.clear_button = QPushButton("Clear")
        for b in (self.choose_button, self.clear_button):
            b.setAutoDefault(False)
        row.addWidget(self.name, 1)
        row.addWidget(self.choose_button)
        row.addWidget(self.clear_button)
        self.setFocusProxy(self.choose_button)
        # An animal in words is long ("Tom (cat, Maine Coon mix, tan) (#1)"): take the width.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.choose_button.clicked.connect(self._on_choose_button_clicked)
        self.clear_button.clicked.connect(self._on_clear_button_clicked)
        self.set_animal(None, "")

    def animal_id(self) -> int | None:
        return self._id

    def animal_name(self) -> str:
        return self.name.text()

    def set_animal(self, animal_id: int | None, label: str) -> None:
        self._id = animal_id
        self.name.setText(f"{label} (#{animal_id})" if animal_id is not None else "")
        self.clear_button.setEnabled(animal_id is not None)
        self.changed.emit()

    def _on_choose_button_clicked(self) -> None:
        self.picker = AnimalPickerDialog(self.ctx, self.window())
        self.picker.chosen.connect(self.set_animal)
        self.picker.open()

    def _on_clear_button_clicked(self) -> None:
        self.set_animal(None, "")
