"""The register of veterinary clinics, in Administration: a supervisor adds a clinic or changes
its licence status; everyone reads it. A clinic quarantine is ordered only at a licensed clinic
(the pound may be registered as one)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.services.quarantine import (
    ClinicInput,
    ClinicView,
    create_clinic,
    list_clinics,
    update_clinic,
)
from ui.account import can
from ui.account.gate import gate, whose_task
from ui.common.forms import FormFields, form_layout, show_refusal
from ui.common.table_models import Column, ListTableModel
from ui.common.widgets import Banner, RecordTableView
from ui.context import AppContext

COLUMNS = (
    Column("Clinic", lambda c: c.name, 260),
    Column("Address", lambda c: c.address, 260),
    Column("Phone", lambda c: c.phone, 120),
    Column("Licensed", lambda c: "Yes" if c.licensed else "No — no quarantines", 160),
    Column("Pound", lambda c: "Yes" if c.is_pound else "", 70),
)


class ClinicsWidget(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Veterinary clinics (bite quarantines)", parent)
        self.ctx = ctx
        self.client_key = str(uuid.uuid4())  # a new clinic's save, kept across its retries
        self.setObjectName("ClinicsWidget")
        self.model = ListTableModel(COLUMNS, parent=self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.view.setMaximumHeight(170)
        self.banner = Banner()
        self.name, self.address, self.phone = QLineEdit(), QLineEdit(), QLineEdit()
        self.licensed = QCheckBox("Licensed veterinary clinic")
        self.licensed.setChecked(True)
        self.is_pound = QCheckBox("This is the pound (its quarantines are paid at the counter)")
        form = form_layout()
        self.fields = FormFields(form)
        self.fields.add("name", "Clinic name:", self.name)
        self.fields.add("address", "Address:", self.address)
        self.fields.add("phone", "Phone:", self.phone)
        self.fields.add("licensed", "", self.licensed)
        self.fields.add("is_pound", "", self.is_pound)
        self.add_button = QPushButton("Add clinic")
        self.change_button = QPushButton("Save changes to the selected clinic")
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.change_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)
        layout.addWidget(self.banner)
        editor = QWidget()
        editor.setLayout(form)
        layout.addWidget(editor)
        layout.addLayout(buttons)
        if not can(ctx, Permission.CLINICS):
            note = QLabel(whose_task(ctx, Permission.CLINICS))
            note.setObjectName("FieldHint")
            note.setWordWrap(True)
            layout.addWidget(note)
            for w in (editor, self.add_button, self.change_button):
                gate(ctx, w, Permission.CLINICS)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.change_button.clicked.connect(self._on_change_button_clicked)
        self.view.clicked.connect(self._on_view_clicked)
        self.refresh()

    def refresh(self) -> None:
        self.ctx.tasks.run(list_clinics, self.ctx.db, owner=self, on_done=self.model.set_rows)

    def _input(self) -> ClinicInput:
        return ClinicInput(
            self.name.text(),
            self.address.text(),
            self.phone.text(),
            self.licensed.isChecked(),
            self.is_pound.isChecked(),
        )

    def _on_view_clicked(self, index: QModelIndex) -> None:
        c = self.model.row_object(index.row())
        if c is not None:
            self.name.setText(c.name)
            self.address.setText(c.address)
            self.phone.setText(c.phone)
            self.licensed.setChecked(c.licensed)
            self.is_pound.setChecked(c.is_pound)

    def _run(self, fn: Callable[..., ClinicView], *args: object) -> None:
        self.fields.clear_errors()
        self.banner.clear_message()
        self.ctx.tasks.run(fn, *args, owner=self, on_done=self._on_saved, on_error=self._on_failed)

    def _on_add_button_clicked(self) -> None:
        add = partial(create_clinic, client_key=self.client_key)
        self._run(add, self.ctx.db, self.ctx.actor, self._input())

    def _on_change_button_clicked(self) -> None:
        c = self.model.row_object(self.view.current_row())
        if c is None:
            self.banner.show_error("Choose the clinic to change in the list first.")
            return
        self._run(update_clinic, self.ctx.db, self.ctx.actor, c.id, c.version, self._input())

    def _on_saved(self, clinic: ClinicView) -> None:
        self.client_key = str(uuid.uuid4())  # the next Add is another clinic
        self.banner.show_note(f"Saved {clinic.name}.")
        self.ctx.bus.changed.emit("clinic", clinic.id)
        self.refresh()

    def _on_failed(self, exc: BaseException) -> bool:
        return show_refusal(
            exc,
            self.fields,
            self.banner,
            invalid="Nothing was saved.",
            bug="Nothing was saved because of an error in FieldOps.",
        )
