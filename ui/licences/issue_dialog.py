"""Issuing a dog licence at the counter (or at the pound, from the release wizard).

The quote (rate, half rate, late fee, total, the day it was due) is shown live with
the rules' reasons as the form is filled, and whatever refuses the licence (the
rabies certificate, the dog's age, a tag already issued) is shown beside its field
before Issue is pressed. The service checks it all again when saving.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
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
    """The licence form; closes when the licence is issued (``saved`` carries it).

    A counter form: a scanner types a microchip or tag and ends with Enter, so Enter in
    a one-line field moves on (in the Dog search box it runs Find) and never issues.
    Issuing records money and names an owner on a legal record: it asks first, naming
    the dog, the owner, the tag and what was paid. An owner the form filled in from the
    dog's record follows the dog when another dog is chosen; one the clerk chose stays,
    with a note when it is not the dog's recorded owner.
    """

    close_on_save = True
    enter_moves_on = True

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
        self.resize(760, 700)
        gate(ctx, self.save_button, Permission.LICENCES)
        self.save_button.setText("&Issue licence")
        self.impoundment_id = impoundment_id
        self.renews = renews
        self.last_preview: Preview | None = None
        self._previewed: LicenceInput | None = None  # the form the last preview is of
        self._issue_when_quoted = False
        form = form_layout()
        self.body.addLayout(form)
        self.fields = FormFields(form)
        self.dog = self.fields.add("animal_id", "&Dog:", DogField(ctx))
        owner = PersonField(ctx, "The dog's owner")
        # As wide as the form: the licence is issued in this name, which must read whole.
        owner.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.owner = self.fields.add("owner_id", "&Owner:", owner)
        self.owner_note = QLabel()  # the chosen owner is not the dog's recorded owner
        self.owner_note.setObjectName("FieldWarning")
        self.owner_note.setWordWrap(True)
        self.owner_note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        form.addRow("", self.owner_note)
        form.setRowVisible(self.owner_note, False)
        self._form = form
        # The owner the form put in from a dog's record (follows the dog), and the dog's
        # recorded owner (id, name) once read: None until then.
        self._owner_filled: int | None = None
        self._dog_owner: tuple[int | None, str] | None = None
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
        self.owner.changed.connect(self._show_owner_note)
        # The payment is not in the quote, but it is in the question Issue asks.
        for edit in (self.paid, self.receipt):
            edit.textEdited.connect(self._stop_waiting_to_issue)
        self.method.currentIndexChanged.connect(self._stop_waiting_to_issue)
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
        inp = self.read_input()
        self.ctx.tasks.run(
            preview,
            self.ctx.db,
            inp,
            self.ctx.profile,
            owner=self,
            on_done=partial(self.show_preview, of=inp),
        )

    def show_preview(self, p: Preview, of: LicenceInput | None = None) -> None:
        self.last_preview, self._previewed = p, of
        self._show_quote(p)
        if self._issue_when_quoted and of is not None and of == self.read_input():
            # Issue was pressed before the quote was up to date: ask now, with the total.
            self._issue_when_quoted = False
            self.banner.clear_message()
            self._on_save_button_clicked()

    def _show_quote(self, p: Preview) -> None:
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

    # -- asking before issuing --------------------------------------------

    def confirm_save(self) -> bool:
        """Ask before issuing, with the quote of the form as it is now: when the quote
        shown is of an earlier state of the form, it is worked out first and the
        question comes then. A form the rules refuse is not asked about: the save
        names the fields and records nothing."""
        inp = self.read_input()
        p = self.last_preview
        if p is None or self._previewed != inp:
            self._issue_when_quoted = True
            self.banner.show_note("Working out the total: the licence is asked about next.")
            self.refresh_quote()
            return False
        if p.quote is None:
            return True
        return self.ctx.errors.confirm(
            self.confirmation_text(inp, p), self.save_button.text(), "&Go back", self
        )

    def confirmation_text(self, inp: LicenceInput, p: Preview) -> str:
        """The dog, the owner, the licence and the money, as the licence will record them."""
        q = p.quote
        assert q is not None
        dog = f"{p.animal_name or '(no name)'} #{inp.animal_id}"
        owner = p.owner_name + self._owner_differs_text(inp.owner_id, short=True)
        late = f", with the late fee of {money(q.late_fee)}" if q.late else ""
        paid = str(inp.paid_amount or "").strip()
        amount = money(q.total) if not paid else (paid if paid.startswith("$") else f"${paid}")
        receipt = inp.receipt_number.strip() or "the licence's own number"
        return (
            f"Issue dog licence tag {inp.tag_number.strip().upper()} for {inp.licence_year}?\n\n"
            f"Dog: {dog}\nOwner (the licence is in this name): {owner}\n"
            f"Total {money(q.total)}{late}; paid {amount} by "
            f"{self.method.currentText().lower()}, receipt {receipt}.\n\n"
            "An issued licence and its payment are a record: only a supervisor voids one."
        )

    # -- slots -------------------------------------------------------------

    def _on_form_changed(self, *_args: object) -> None:
        self._stop_waiting_to_issue()
        self._timer.start()

    def _stop_waiting_to_issue(self, *_args: object) -> None:
        """A change after Issue was pressed: the question waited for is of another form."""
        if self._issue_when_quoted:
            self._issue_when_quoted = False
            self.banner.clear_message()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in the Dog search box (a scanned chip or tag) runs Find, already started
        # by the box itself, and stays there: never a move on towards Issue.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            self.focusWidget() is self.dog.search
        ):
            event.accept()
            return
        super().keyPressEvent(event)

    def _on_dog_changed(self, *_args: object) -> None:
        animal_id = self.dog.animal_id()
        self._dog_owner = None  # the new dog's owner is not known until it is read
        self._stop_waiting_to_issue()
        self._show_owner_note()
        if animal_id is not None:
            self.ctx.tasks.run(
                get_animal, self.ctx.db, animal_id, owner=self, on_done=self._on_animal_read
            )
        self._timer.start()

    def _on_owner_read(self, person: PersonView) -> None:
        if self.owner.person_id() == person.id:
            self.owner.set_person(person.id, person.full_name)

    def _on_animal_read(self, animal: AnimalView) -> None:
        if self.dog.animal_id() != animal.id:
            return  # another dog was chosen while this one was read
        if self.dog.choice.count() == 1:
            self.dog.choice.setItemText(0, f"{animal.name or '(no name)'} #{animal.id}")
        self._dog_owner = (animal.owner_id, animal.owner_name)
        current = self.owner.person_id()
        if current is None or current == self._owner_filled:
            # Empty, or filled in from the previous dog: the owner follows the dog.
            self._owner_filled = animal.owner_id
            self.owner.set_person(animal.owner_id, animal.owner_name if animal.owner_id else "")
        self._show_owner_note()

    def _owner_differs_text(self, owner_id: int | None, *, short: bool = False) -> str:
        known = self._dog_owner
        if known is None or known[0] is None or owner_id is None or owner_id == known[0]:
            return ""
        if short:
            return f" (not the dog's recorded owner, {known[1]} (#{known[0]}))"
        return (
            f"Not the dog's recorded owner, {known[1]} (#{known[0]}): the licence is issued "
            "in the name chosen here."
        )

    def _show_owner_note(self) -> None:
        text = self._owner_differs_text(self.owner.person_id())
        self.owner_note.setText(text)
        self._form.setRowVisible(self.owner_note, bool(text))
