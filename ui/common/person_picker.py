"""Choosing a person (an animal's owner) by searching, without a mouse."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import (
    QDialogButtonBox,
    QPushButton,
    QWidget,
)

from fieldops.services.people import PersonView, count_people, people_page
from ui import modules
from ui.common.forms import RecordDialog
from ui.common.registry_picker import RegistryPickerDialog
from ui.common.table_models import Column
from ui.context import AppContext

PERSON_COLUMNS = (
    Column("Name", lambda r: r.full_name, 230),
    Column("Address", lambda r: r.address, 250),
    Column("City", lambda r: r.city, 130),
    Column("Phone", lambda r: r.phone, 140),
    Column("E-mail", lambda r: r.email),
)


class PersonPickerDialog(RegistryPickerDialog):
    """Search, then Enter (or Choose) picks the highlighted person; New person… makes one."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(
            ctx,
            parent,
            name="PersonPickerDialog",
            title="Choose a person",
            placeholder="Name, address, phone or e-mail",
            columns=PERSON_COLUMNS,
            count=partial(count_people, ctx.db),
            page=partial(people_page, ctx.db),
            words=lambda person: person.full_name,
        )
        self.new_button = QPushButton("&New person…")
        self.new_button.setAutoDefault(False)
        self.buttons.addButton(self.new_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.new_button.clicked.connect(self._on_new_button_clicked)

    def _on_new_button_clicked(self) -> None:
        dialog = modules.new_record(self.ctx, "registry", "person", self)
        if dialog is None:  # no installed module makes people: nothing to open
            return
        assert isinstance(dialog, RecordDialog)  # a record's form, which says when it saved
        self._new_person_dialog = dialog
        dialog.saved.connect(self._on_new_person_saved)

    def _on_new_person_saved(self, person: PersonView) -> None:
        self._new_person_dialog.accept()
        self.chosen.emit(person.id, person.full_name)
        self.accept()
