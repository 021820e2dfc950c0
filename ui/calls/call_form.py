"""The quick call form: fit for the phone, the address and the kind first."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QWidget,
)

from fieldops.rules import calls as rules
from fieldops.services.calls.records import CallInput, create_call, update_call
from fieldops.services.calls.views import CallView
from ui.calls.parties import PartiesWidget
from ui.common.animal_picker import AnimalField
from ui.common.fields import FieldGroups, GridFields
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.context import AppContext


def _text_box(height: int = 60) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setTabChangesFocus(True)
    box.setMaximumHeight(height)
    return box


def _wide(field: PersonField) -> PersonField:
    """A person as long as the form is wide: a name and its number read whole (as the
    animal field beside them), never cut at its start."""
    field.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    return field


class CallForm(RecordDialog):
    """Take a call; Save opens the call view, ready to dispatch."""

    close_on_save = True

    def __init__(
        self, ctx: AppContext, parent: QWidget | None = None, view: CallView | None = None
    ) -> None:
        super().__init__(ctx, "New call" if view is None else f"Call #{view.id}", parent)
        self.editing = view
        self.setObjectName("CallForm")
        self.save_button.setText("&Save call")
        form = form_layout()
        self.form_fields = FormFields(form)
        self.party_fields = GridFields()
        self.fields = FieldGroups(self.form_fields, self.party_fields)
        add = self.form_fields.add
        self.address = add("address", "&Address:", QLineEdit())
        self.address.setPlaceholderText("House number and street, or the nearest corner")
        self.kind = add("kind", "&Kind:", combo({k: rules.kind_label(k) for k in rules.CALL_KINDS}))
        self.priority = add("priority", "&Priority:", combo(rules.PRIORITIES))
        self.priority.setCurrentIndex(self.priority.findData(3))
        self.description = add("description", "&Reported:", _text_box())
        self.place = add("place", "P&lace:", QLineEdit())
        self.place.setPlaceholderText("Back yard, alley, park shelter…")
        self.received_how = add("received_how", "Recei&ved by:", combo(rules.RECEIVED_HOW))
        self.received_at = add("received_at", "Received a&t:", LocalDateTimeEdit(self.ctx.timezone))
        self.received_at.set_value(self.ctx.now())
        self.anonymous = add("anonymous", "", QCheckBox("Anon&ymous caller"))
        self.caller = _wide(PersonField(self.ctx, "Caller not in the registry"))
        add("caller_id", "Caller (re&gistry):", self.caller, focus=self.caller.choose_button)
        self.caller_name = add("caller_name", "Caller's &name:", QLineEdit())
        self.caller_phone = add("caller_phone", "Caller's p&hone:", QLineEdit())
        self.owner = _wide(PersonField(self.ctx, "Owner not known"))
        add("owner_id", "O&wner:", self.owner, focus=self.owner.choose_button)
        self.owner_description = add("owner_description", "Owner (&described):", QLineEdit())
        self.animal = AnimalField(self.ctx, "Animal not in the registry")
        add("animal_id", "Ani&mal:", self.animal, focus=self.animal.choose_button)
        self.animal_description = add("animal_description", "Animal (descri&bed):", QLineEdit())
        self.body.addLayout(form)
        heading = QLabel("People and animals involved")
        heading.setObjectName("SectionHeading")
        self.body.addWidget(heading)
        self.parties = PartiesWidget(self.ctx, self.party_fields)
        self.parties.before = self.animal_description
        self.body.addWidget(self.parties)
        self.resize(1060, 0)  # the involved table's rows read whole (within a 1280 screen)
        self.anonymous.toggled.connect(self._on_anonymous_toggled)
        if view is not None:
            self.save_button.setText("&Save changes")
            self._fill(view)

    def _fill(self, v: CallView) -> None:
        """An existing call's answers, to correct (the change is audited)."""
        self.address.setText(v.address)
        self.kind.setCurrentIndex(self.kind.findData(v.kind))
        self.priority.setCurrentIndex(self.priority.findData(v.priority))
        self.description.setPlainText(v.description)
        self.place.setText(v.place)
        self.received_how.setCurrentIndex(self.received_how.findData(v.received_how))
        self.received_at.set_value(v.received_at)
        self.anonymous.setChecked(v.anonymous)
        if v.caller_id is not None:
            self.caller.set_person(v.caller_id, v.caller_name)
        else:
            self.caller_name.setText(v.caller_name)
        self.caller_phone.setText(v.caller_phone)
        if v.owner_id is not None:
            self.owner.set_person(v.owner_id, v.owner)
        else:
            self.owner_description.setText(v.owner)
        if v.animal_id is not None:
            self.animal.set_animal(v.animal_id, v.animal)
        else:
            self.animal_description.setText(v.animal)
        for p in v.parties:
            self.parties.add_view(p)

    def initial_focus(self) -> QWidget | None:
        return self.address

    def _on_anonymous_toggled(self, anonymous: bool) -> None:
        for w in (self.caller, self.caller_name, self.caller_phone):
            w.setEnabled(not anonymous)

    def read_input(self) -> CallInput:
        return CallInput(
            received_at=self.received_at.value(),
            received_how=self.received_how.currentData(),
            kind=self.kind.currentData(),
            address=self.address.text(),
            priority=self.priority.currentData(),
            place=self.place.text(),
            description=self.description.toPlainText(),
            anonymous=self.anonymous.isChecked(),
            caller_id=self.caller.person_id(),
            caller_name=self.caller_name.text(),
            caller_phone=self.caller_phone.text(),
            owner_id=self.owner.person_id(),
            owner_description=self.owner_description.text(),
            animal_id=self.animal.animal_id(),
            animal_description=self.animal_description.text(),
            parties=self.parties.parties(),
        )

    def save(self) -> None:
        if self.editing is not None:
            inp = self.read_input()
            v = self.editing
            shown = inp.received_at
            if shown is not None and shown == v.received_at.replace(second=0, microsecond=0):
                inp = replace(inp, received_at=v.received_at)  # the form shows the minute
            self.save_with(update_call, self.ctx.db, self.ctx.actor, v.id, v.version, inp)
            return
        self.save_with(
            create_call, self.ctx.db, self.ctx.actor, self.read_input(), client_key=self.client_key
        )

    def _on_record_saved(self, view: CallView) -> None:
        self.ctx.bus.changed.emit("field_call", view.id)
