"""The "People and animals" area: one search over both registers, and the records."""

from __future__ import annotations

import itertools
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.services.animal_record import animal_list_page
from fieldops.services.animals import count_animals
from fieldops.services.people import count_people, people_page
from ui.account.gate import gate
from ui.common.person_picker import PERSON_COLUMNS
from ui.common.table_models import PagedTableModel
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext
from ui.people import opening
from ui.people.columns import ANIMAL_COLUMNS

SEARCH_HINT = "Name, address, phone, e-mail, microchip or licence number"


class _RegisterSection(QWidget):
    """A heading with the count, and the lazy list under it."""

    def __init__(self, title: str, model: PagedTableModel) -> None:
        super().__init__()
        self._title = title
        self.model = model
        self.heading = QLabel()
        self.heading.setObjectName("SectionHeading")
        self.view = RecordTableView()
        self.view.setModel(model)
        self.heading.setBuddy(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.view, 1)
        model.counted.connect(self._on_model_counted)
        self._on_model_counted(None)

    def _on_model_counted(self, count: int | None) -> None:
        self.heading.setText(f"{self._title} — {self.count_text(count)}")

    def count_text(self, count: int | None) -> str:
        text = self.model.search_text()
        if count is None:
            return "searching…"
        if not text:
            return f"{count:,}"
        if count == 0:
            return f"none match “{text}”"
        return f"{count:,} match “{text}”"


class PeopleAndAnimalsWidget(QWidget):
    """Search people and animals at once; open, create and edit their records.

    Page protocol used by the main window: ``focus_search`` (Ctrl+F),
    ``new_record`` (Ctrl+N: a new person), ``refresh`` (F5) and
    ``page_actions`` (New animal, Ctrl+Shift+N).
    """

    new_record_label = "&New person…"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("PeopleAndAnimalsWidget")
        self.search = SearchField(SEARCH_HINT)
        self.search.setToolTip(
            "Find people and animals (Ctrl+F). Enter searches at once; Down moves to the list."
        )
        self.status = QLabel()
        self.status.setObjectName("SearchStatus")
        self.people_model = PagedTableModel(
            ctx.tasks,
            PERSON_COLUMNS,
            partial(count_people, ctx.db),
            partial(people_page, ctx.db),
            parent=self,
        )
        self.animals_model = PagedTableModel(
            ctx.tasks,
            ANIMAL_COLUMNS,
            partial(count_animals, ctx.db),
            partial(animal_list_page, ctx.db, zone=ctx.timezone),
            parent=self,
        )
        self.people = _RegisterSection("&People", self.people_model)
        self.animals = _RegisterSection("&Animals", self.animals_model)
        self.new_person_button = QPushButton("&New person…")
        self.new_person_button.setToolTip("New person (Ctrl+N)")
        self.new_animal_button = QPushButton("New ani&mal…")
        self.new_animal_button.setToolTip("New animal (Ctrl+Shift+N)")
        self.open_button = QPushButton("&Open")
        self.open_button.setToolTip("Open the highlighted person or animal (Enter)")
        self.address_button = QPushButton("A&ddress history…")
        self.address_button.setToolTip(
            "Every call, impoundment, bite, vicious case, permit and citation at an "
            "address, and the cautions there"
        )
        self.address_action = QAction("Address &history…", self)
        self.new_animal_action = QAction("New &animal…", self)
        self.new_animal_action.setShortcut(QKeySequence("Ctrl+Shift+N"))
        for control in (self.new_person_button, self.new_animal_button, self.new_animal_action):
            gate(ctx, control, Permission.RECORDS)  # the services refuse too
        self._last_view = self.people.view
        self._lay_out()
        self._connect()
        self._on_search_search_requested("")

    def _lay_out(self) -> None:
        self.heading = QLabel("People and animals")
        self.heading.setObjectName("PageHeading")
        caption = QLabel("&Search:")
        caption.setBuddy(self.search)
        top = QHBoxLayout()
        top.addWidget(caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.status)
        top.addSpacing(12)
        for b in (
            self.new_person_button,
            self.new_animal_button,
            self.open_button,
            self.address_button,
        ):
            top.addWidget(b)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.people)
        splitter.addWidget(self.animals)
        splitter.setSizes([400, 300])
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        chain = [
            self.search,
            self.people.view,
            self.animals.view,
            self.new_person_button,
            self.new_animal_button,
            self.open_button,
            self.address_button,
        ]
        for first, then in itertools.pairwise(chain):
            QWidget.setTabOrder(first, then)

    def _connect(self) -> None:
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.people.view.focus_first_row)
        for model in (self.people_model, self.animals_model):
            model.searching_changed.connect(self._on_model_searching_changed)
        self.people.view.opened.connect(self._on_people_view_opened)
        self.animals.view.opened.connect(self._on_animals_view_opened)
        self.people.view.selectionModel().currentChanged.connect(self._on_people_current_changed)
        self.animals.view.selectionModel().currentChanged.connect(self._on_animals_current_changed)
        self.new_person_button.clicked.connect(self.new_record)
        self.new_animal_button.clicked.connect(self.new_animal_action.trigger)
        self.new_animal_action.triggered.connect(self._on_new_animal_action_triggered)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.address_button.clicked.connect(self.address_action.trigger)
        self.address_action.triggered.connect(self.open_address_history)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    # -- page protocol ---------------------------------------------------

    def focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def new_record(self) -> None:
        opening.new_person(self.ctx, self)

    def refresh(self) -> None:
        self.people_model.refresh()
        self.animals_model.refresh()

    def page_actions(self) -> list[QAction]:
        return [self.new_animal_action, self.address_action]

    def open_address_history(self) -> QWidget:
        """Asks an address; lists every module's records there (issue 16)."""
        from ui.common.place_history import AddressHistoryDialog

        dialog = AddressHistoryDialog(self.ctx, self)
        dialog.show()
        return dialog

    def is_searching(self) -> bool:
        return self.people_model.is_searching() or self.animals_model.is_searching()

    # -- slots -----------------------------------------------------------

    def _on_search_search_requested(self, text: str) -> None:
        self.people_model.search(text)
        self.animals_model.search(text)

    def _on_search_too_short(self) -> None:
        self.status.setText("Type at least 2 characters")

    def _on_model_searching_changed(self, _searching: bool) -> None:
        self.status.setText("Searching…" if self.is_searching() else "")

    def _on_people_view_opened(self, row: int) -> None:
        person = self.people_model.row_object(row)
        if person is not None:
            opening.open_person(self.ctx, person.id, self)

    def _on_animals_view_opened(self, row: int) -> None:
        animal = self.animals_model.row_object(row)
        if animal is not None:
            opening.open_animal(self.ctx, animal.id, self)

    def _on_people_current_changed(self) -> None:
        self._last_view = self.people.view

    def _on_animals_current_changed(self) -> None:
        self._last_view = self.animals.view

    def _on_open_button_clicked(self) -> None:
        view = self._last_view
        (self._on_people_view_opened if view is self.people.view else self._on_animals_view_opened)(
            view.current_row()
        )

    def _on_new_animal_action_triggered(self) -> None:
        opening.new_animal(self.ctx, self)

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in ("person", "animal"):
            self.refresh()
