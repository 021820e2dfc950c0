"""Choosing a person (an animal's owner) by searching, without a mouse."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.people import PersonView, count_people, people_page
from ui import modules
from ui.common.table_models import Column, PagedTableModel
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext

PERSON_COLUMNS = (
    Column("Name", lambda r: r.full_name, 230),
    Column("Address", lambda r: r.address, 250),
    Column("City", lambda r: r.city, 130),
    Column("Phone", lambda r: r.phone, 140),
    Column("E-mail", lambda r: r.email),
)


class PersonPickerDialog(QDialog):
    """Search, then Enter (or Choose) picks the highlighted person."""

    chosen = Signal(int, str)  # id, full name

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("PersonPickerDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Choose a person")
        self.resize(1000, 560)
        self.search = SearchField("Name, address, phone or e-mail")
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
            PERSON_COLUMNS,
            partial(count_people, ctx.db),
            partial(people_page, ctx.db),
            parent=self,
        )
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.buttons = QDialogButtonBox()
        self.choose_button = QPushButton("C&hoose")
        self.new_button = QPushButton("&New person…")
        self.new_button.setAutoDefault(False)
        self.buttons.addButton(self.choose_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.new_button, QDialogButtonBox.ButtonRole.ActionRole)
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
        self.new_button.clicked.connect(self._on_new_button_clicked)
        self.buttons.rejected.connect(self.reject)
        self.model.search("")

    def choose_row(self, row: int) -> bool:
        person = self.model.row_object(row)
        if person is None:
            return False
        self.chosen.emit(person.id, person.full_name)
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

    def _on_new_button_clicked(self) -> None:
        dialog = modules.new_record(self.ctx, "registry", "person", self)
        if dialog is None:  # no installed module makes people: nothing to open
            return
        self._new_person_dialog = dialog
        dialog.saved.connect(self._on_new_person_saved)  # type: ignore[attr-defined]

    def _on_new_person_saved(self, person: PersonView) -> None:
        self._new_person_dialog.accept()
        self.chosen.emit(person.id, person.full_name)
        self.accept()
