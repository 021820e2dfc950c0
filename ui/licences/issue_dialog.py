"""Issuing a dog licence at the counter (or at the pound, from the release wizard).

The quote (rate, half rate, late fee, total, the day it was due) is shown live with
the rules' reasons as the form is filled, and whatever refuses the licence (the
rabies certificate, the dog's age, a tag already issued) is shown beside its field
before Issue is pressed. The service checks it all again when saving.
"""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from fieldops.db.models import PAYMENT_METHOD_CODES
from fieldops.errors import ValidationError
from fieldops.permissions import Permission
from fieldops.services.animals import AnimalRow, AnimalView, animals_page, get_animal
from fieldops.services.licences.issue import LicenceInput, Preview, issue_licence, preview
from fieldops.services.licences.views import LicenceView
from fieldops.services.listing import Page
from fieldops.services.people import PersonView, get_person
from ui.account.gate import gate, refused
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import PersonField
from ui.common.text import escape_html, money
from ui.common.widgets import OptionalDateEdit
from ui.context import AppContext

PREVIEW_DELAY_MS = 250
ALTERED = {None: "As on the dog's record", True: "Yes", False: "No"}
METHODS = {m: m.capitalize() for m in PAYMENT_METHOD_CODES}


class DogField(QWidget):
    """Which dog: type a name, microchip or tag, Find, then choose among the matches."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Name, microchip, licence or owner")
        self.find_button = QPushButton("&Find")
        self.find_button.setAutoDefault(False)
        self.choice = QComboBox()
        self.choice.setMinimumWidth(260)
        row.addWidget(self.search, 1)
        row.addWidget(self.find_button)
        row.addWidget(self.choice, 2)
        self.setFocusProxy(self.search)
        self.find_button.clicked.connect(self._on_find_button_clicked)
        self.search.returnPressed.connect(self._on_find_button_clicked)

    def animal_id(self) -> int | None:
        data = self.choice.currentData()
        return data if isinstance(data, int) else None

    def set_dog(self, animal_id: int, label: str) -> None:
        self.choice.clear()
        self.choice.addItem(label, animal_id)

    def _on_find_button_clicked(self) -> None:
        self.ctx.tasks.run(
            animals_page, self.ctx.db, self.search.text(), 0, 50, owner=self, on_done=self._found
        )

    def _found(self, page: Page[AnimalRow]) -> None:
        self.choice.clear()
        for r in page.rows:  # the service refuses an animal that is not a dog, naming it
            owner = f" — {r.owner_name}" if r.owner_name else ""
            self.choice.addItem(f"{r.name or '(no name)'} #{r.id} ({r.species}){owner}", r.id)
        if self.choice.count() == 0:
            self.choice.addItem("No animal found", None)


class IssueLicenceDialog(RecordDialog):
    """The licence form; closes when the licence is issued (``saved`` carries it)."""

    close_on_save = True

    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None = None,
        *,
        animal_id: int | None = None,
        owner_id: int | None = None,
        impoundment_id: int | None = None,
        renews: LicenceView | None = None,
    ) -> None:
        title = "Renew a dog licence" if renews else "Issue a dog licence"
        super().__init__(ctx, title, parent)
        self.setObjectName("IssueLicenceDialog")
        self.resize(720, 640)
        gate(ctx, self.save_button, Permission.LICENCES)
        self.save_button.setText("&Issue licence")
        self.impoundment_id = impoundment_id
        self.renews = renews
        self.last_preview: Preview | None = None
        form = form_layout()
        self.body.addLayout(form)
        self.fields = FormFields(form)
        self.dog = self.fields.add("animal_id", "&Dog:", DogField(ctx))
        self.owner = self.fields.add("owner_id", "&Owner:", PersonField(ctx, "The dog's owner"))
        self.fields.add("birth_date", "", QLabel())  # the rules' refusal of the dog's age
        self.year = QSpinBox()
        self.year.setRange(1990, ctx.today().year + 1)
        self.year.setValue(ctx.today().year if renews is None else renews.licence_year + 1)
        self.fields.add("licence_year", "Licence &year:", self.year)
        self.tag = self.fields.add("tag_number", "&Tag number:", QLineEdit())
        self.altered = self.fields.add("altered", "Spayed or ne&utered:", combo(ALTERED))
        self.certificate = self.fields.add(
            "rabies_certificate",
            "Rabies c&ertificate:",
            QLineEdit(),
            hint="Blank: the latest vaccination on the dog's record.",
        )
        self.vaccinated = self.fields.add(
            "rabies_vaccinated_on", "&Vaccinated on:", OptionalDateEdit("&Not shown")
        )
        self.expires = self.fields.add(
            "rabies_expires_on", "E&xpires on:", OptionalDateEdit("No expiry &given")
        )
        self.acquired = self.fields.add(
            "acquired_on", "Owner &acquired the dog:", OptionalDateEdit("&Before this year")
        )
        self.resident = self.fields.add(
            "resident_since", "In the city &since:", OptionalDateEdit("Before t&his year")
        )
        self.paid = self.fields.add(
            "paid_amount", "A&mount paid:", QLineEdit(), hint="Blank: the total quoted."
        )
        self.method = self.fields.add("payment_method", "Paid &with:", combo(METHODS))
        self.receipt = self.fields.add(
            "receipt_number", "&Receipt number:", QLineEdit(), hint="Blank: the licence's own."
        )
        self.quote = QLabel()
        self.quote.setObjectName("LicenceQuote")
        self.quote.setWordWrap(True)
        self.body.addWidget(self.quote)
        for d in (self.vaccinated, self.expires, self.acquired, self.resident):
            d.set_default_date(ctx.today())
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh_quote)
        for edit in (self.tag, self.certificate):
            edit.textEdited.connect(self._on_form_changed)
        self.year.valueChanged.connect(self._on_form_changed)
        self.altered.currentIndexChanged.connect(self._on_form_changed)
        self.dog.choice.currentIndexChanged.connect(self._on_dog_changed)
        self.owner.changed.connect(self._on_form_changed)
        for d in (self.vaccinated, self.expires, self.acquired, self.resident):
            d.date_edit.dateChanged.connect(self._on_form_changed)
            d.unknown.toggled.connect(self._on_form_changed)
        if renews is not None:
            self.dog.set_dog(renews.animal_id, f"{renews.animal_name} #{renews.animal_id}")
            self.owner.set_person(renews.owner_id, renews.owner_name)
        elif animal_id is not None:
            self.dog.set_dog(animal_id, f"Dog #{animal_id}")
            ctx.tasks.run(get_animal, ctx.db, animal_id, owner=self, on_done=self._on_animal_read)
        if owner_id is not None:
            self.owner.set_person(owner_id, f"Person #{owner_id}")
            ctx.tasks.run(get_person, ctx.db, owner_id, owner=self, on_done=self._on_owner_read)
        self._timer.start()

    # -- reading the form --------------------------------------------------

    def read_input(self) -> LicenceInput:
        paid = self.paid.text().strip()
        return LicenceInput(
            animal_id=self.dog.animal_id(),
            licence_year=self.year.value(),
            tag_number=self.tag.text(),
            owner_id=self.owner.person_id(),
            altered=self.altered.currentData(),
            rabies_certificate=self.certificate.text(),
            rabies_vaccinated_on=self.vaccinated.value(),
            rabies_expires_on=self.expires.value(),
            acquired_on=self.acquired.value(),
            resident_since=self.resident.value(),
            paid_amount=paid or None,
            payment_method=self.method.currentData(),
            receipt_number=self.receipt.text(),
            impoundment_id=self.impoundment_id,
            renews_id=self.renews.id if self.renews is not None else None,
        )

    def save(self) -> None:
        if refused(self.ctx, self.banner, Permission.LICENCES):
            return
        self.save_with(
            issue_licence,
            self.ctx.db,
            self.ctx.actor,
            self.read_input(),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_record_saved(self, view: LicenceView) -> None:
        self.ctx.bus.changed.emit("dog_licence", view.id)
        self.ctx.bus.changed.emit("animal", view.animal_id)

    # -- the live quote ----------------------------------------------------

    def refresh_quote(self) -> None:
        self._timer.stop()
        self.ctx.tasks.run(
            preview,
            self.ctx.db,
            self.read_input(),
            self.ctx.profile,
            owner=self,
            on_done=self.show_preview,
        )

    def show_preview(self, p: Preview) -> None:
        self.last_preview = p
        if p.errors:
            # Only what the clerk has had a chance to fill in: a blank field is not yet wrong.
            blank = {
                "animal_id": self.dog.animal_id() is None,
                "owner_id": self.owner.person_id() is None,
                "tag_number": not self.tag.text().strip(),
            }
            shown = {k: m for k, m in p.errors.items() if not blank.get(k, False)}
            if shown:
                self.fields.show_errors(ValidationError(shown))
            else:
                self.fields.clear_errors()
            self.quote.setText("")
            return
        self.fields.clear_errors()
        q = p.quote
        assert q is not None
        rate = money(q.rate) + (" × ½ (half rate)" if q.half_rate else "")
        late = f" + late fee {money(q.late_fee)}" if q.late else ""
        why = "".join(f"<br>• {escape_html(t)}" for t in q.why.values())
        self.quote.setText(
            f"<b>Total {money(q.total)}</b>: {rate}{late}; due by {q.due_by:%a %-d %b %Y}{why}"
        )

    def quote_total(self) -> Decimal | None:
        p = self.last_preview
        return p.quote.total if p is not None and p.quote is not None else None

    # -- slots -------------------------------------------------------------

    def _on_form_changed(self, *_args: object) -> None:
        self._timer.start()

    def _on_dog_changed(self, *_args: object) -> None:
        animal_id = self.dog.animal_id()
        if animal_id is not None:
            self.ctx.tasks.run(
                get_animal, self.ctx.db, animal_id, owner=self, on_done=self._on_animal_read
            )
        self._timer.start()

    def _on_owner_read(self, person: PersonView) -> None:
        if self.owner.person_id() == person.id:
            self.owner.set_person(person.id, person.full_name)

    def _on_animal_read(self, animal: AnimalView) -> None:
        if self.dog.choice.count() == 1 and self.dog.animal_id() == animal.id:
            self.dog.choice.setItemText(0, f"{animal.name or '(no name)'} #{animal.id}")
        if animal.owner_id is not None and self.owner.person_id() in (None, animal.owner_id):
            self.owner.set_person(animal.owner_id, animal.owner_name)
