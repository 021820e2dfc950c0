"""The release wizard: who takes the animal, then every legal requirement with its evidence.

"Release the animal" stays disabled until the service's own check
(``release_check``) says every requirement is met; the checklist marks what
is still missing and why, and a line under it says how many.
The checklist lists the pound's requirements and every installed module's
blocks (``fieldops.modules``) alike, and the evidence fields shown are those
of the requirements the service returns (rabies, licence), so no ordinance
question is decided here. A supervisor may give a reason to override a
requirement marked overridable (a module's block: an open bite quarantine, a
vicious declaration); nothing else can be overridden.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from fieldops.db.engine import Database
from fieldops.errors import UserError, ValidationError
from fieldops.permissions import Permission, permitted
from fieldops.rules import Profile
from fieldops.rules.release import licence_agreement_accepted, must_release_to_owner
from fieldops.services.dispositions import (
    CheckedRequirement,
    ReleaseRequest,
    RequirementsNotMet,
    release,
    release_check,
)
from fieldops.services.impound_views import FeeSummary, ImpoundView
from fieldops.services.payments import quote
from ui import modules
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.common.style import POUND_STYLE
from ui.common.text import day, when
from ui.common.widgets import Banner
from ui.context import AppContext
from ui.impounds.checklist import ChecklistWidget
from ui.impounds.fees import totals_text

CHECK_DELAY_MS = 300


@dataclass(frozen=True)
class ReleaseCheck:
    requirements: tuple[CheckedRequirement, ...]
    fees: FeeSummary


def check_release(
    db: Database, impoundment_id: int, req: ReleaseRequest, profile: Profile
) -> ReleaseCheck:
    """The requirements and the fees for one release, read together (in a task)."""
    at = req.at
    assert at is not None  # the wizard's request always carries the time on its form
    return ReleaseCheck(
        release_check(db, impoundment_id, req, profile),
        quote(db, impoundment_id, at, req.to_owner, profile),
    )


RELEASE_BUTTON = "&Release the animal"


def unmet_text(unmet: list[CheckedRequirement]) -> str:
    """The line under the checklist: why the release button is disabled, without repeating
    what the checklist already says beside each requirement."""
    button = RELEASE_BUTTON.replace("&", "")
    count = (
        "1 requirement marked ✘ above is"
        if len(unmet) == 1
        else f"{len(unmet)} requirements marked ✘ above are"
    )
    return f"{button} stays disabled: {count} not met yet."


class WhoPage(QWizardPage):
    """Step 1: the owner (or representative) or someone else, and who exactly."""

    def __init__(self, ctx: AppContext, view: ImpoundView) -> None:
        super().__init__()
        self.ctx, self.view = ctx, view
        self.setTitle("Who takes the animal?")
        self.setSubTitle(f"#{view.id} {view.animal.summary}")
        self.to_owner = QRadioButton("The &owner or the owner's representative (reclaim)")
        self.to_other = QRadioButton("&Someone else: a new owner (adoption)")
        group = QButtonGroup(self)
        group.addButton(self.to_owner)
        group.addButton(self.to_other)
        self.explain = QLabel()
        self.explain.setWordWrap(True)
        self.explain.setObjectName("FieldHint")
        self.recipient = PersonField(ctx, "Choose the person who takes the animal")
        self.at = LocalDateTimeEdit(ctx.timezone)
        self.at.set_value(ctx.now())
        # Why the person chosen cannot take the animal this way (the owner as an adopter).
        self.recipient_error = QLabel()
        self.recipient_error.setObjectName("FieldError")
        self.recipient_error.setWordWrap(True)
        self.recipient_error.hide()
        form = QFormLayout()
        for caption, widget, buddy in (
            ("&Person:", self.recipient, self.recipient.choose_button),
            ("Released &at:", self.at, self.at),
        ):
            label = QLabel(caption)
            label.setBuddy(buddy)
            form.addRow(label, widget)
        form.insertRow(1, "", self.recipient_error)  # under the person
        layout = QVBoxLayout(self)
        layout.addWidget(self.to_owner)
        layout.addWidget(self.to_other)
        layout.addWidget(self.explain)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addStretch(1)
        self.to_owner.toggled.connect(self._on_to_owner_toggled)
        self.recipient.changed.connect(self.completeChanged)
        self.to_owner.setChecked(True)

    def is_to_owner(self) -> bool:
        return self.to_owner.isChecked()

    def isComplete(self) -> bool:
        return self.recipient.person_id() is not None

    def show_recipient_error(self, message: str) -> None:
        """Say beside the person why they cannot take the animal so ("": nothing)."""
        self.recipient_error.setText(message)
        self.recipient_error.setVisible(bool(message))

    def validatePage(self) -> bool:
        """The owner on this record is not taken on as an adopter (the service refuses the
        registry's owner too, on the same field)."""
        owner = self.view.owner
        is_owner = owner is not None and self.recipient.person_id() == owner.id
        if must_release_to_owner(self.is_to_owner(), is_owner):
            self.show_recipient_error(
                "This is the animal's owner: record a release to the owner (reclaim)."
            )
            return False
        self.show_recipient_error("")
        return True

    def _on_to_owner_toggled(self, owner: bool) -> None:
        self.show_recipient_error("")
        self.choose_kind(owner)

    def choose_kind(self, owner: bool) -> None:
        """Explain the kind of release, and offer the owner as the person for a reclaim."""
        v = self.view
        if owner:
            self.explain.setText(
                "The owner may reclaim at any time before a final "
                "disposition (city code 58-526(b)(1))."
            )
            if v.owner is not None:
                self.recipient.set_person(v.owner.id, v.owner.full_name)
        else:
            self.explain.setText(
                "Someone other than the owner may take the animal from "
                f"{when(self.ctx, v.release_to_others_from, midnight='start')}, after the "
                f"owner's last day to claim, {day(v.last_claim_day)} (city code 58-526(b)(2))."
            )
            if v.owner is not None and self.recipient.person_id() == v.owner.id:
                self.recipient.set_person(None, "")


class RequirementsPage(QWizardPage):
    """Step 2: the evidence shown at the counter, and the checklist it satisfies."""

    def __init__(self, ctx: AppContext, view: ImpoundView, who: WhoPage) -> None:
        super().__init__()
        self.ctx, self.view, self.who = ctx, view, who
        self.setTitle("Requirements of release")
        self.setFinalPage(True)
        self.fees: FeeSummary | None = None
        self._generation = 0
        self._current = False  # the checklist answers the inputs as they are now
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_DELAY_MS)
        self.banner = Banner()
        self.rabies_certificate = QLineEdit()
        self.rabies_certificate.setPlaceholderText("Certificate number and date, if shown")
        self.rabies_prepaid = QLineEdit()
        self.rabies_prepaid.setPlaceholderText("Veterinarian's receipt number")
        self.licence_receipt = QLineEdit()
        self.licence_receipt.setPlaceholderText("Licence receipt number")
        self.licence_agreement = QCheckBox(
            "The new owner has signed an &agreement to license the dog"
        )
        self.notes = QPlainTextEdit()
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(50)
        self.fees_label = QLabel()
        self.fees_label.setObjectName("MoneyTotal")
        self.pay_button = QPushButton("Record &payment…")
        self.pay_button.setAutoDefault(False)
        evidence = self.evidence = QFormLayout()
        for caption, widget in (
            ("Rabies &certificate:", self.rabies_certificate),
            ("Prepaid &vaccination:", self.rabies_prepaid),
            ("&Licence receipt:", self.licence_receipt),
        ):
            label = QLabel(caption)
            label.setBuddy(widget)
            evidence.addRow(label, widget)
        evidence.addRow("", self.licence_agreement)
        # A module that issues licences (ui.modules) offers its form here, prefilled.
        self.issue_licence_button = QPushButton("&Issue licence now…")
        self.issue_licence_button.setAutoDefault(False)
        evidence.addRow("", self.issue_licence_button)
        evidence.setRowVisible(self.issue_licence_button, False)
        # Shown once the check says which requirements this release has (show_evidence_rows).
        for row in self._evidence_rows():
            evidence.setRowVisible(row, False)
        fee_row = QHBoxLayout()
        fee_row.addWidget(self.fees_label, 1)
        fee_row.addWidget(self.pay_button)
        evidence.addRow("Fees:", fee_row)
        evidence.addRow("N&otes:", self.notes)
        self.checklist = ChecklistWidget(permitted(ctx.actor.role, Permission.OVERRIDES))
        # A scroll box only for a checklist taller than the window (overrides typed
        # into many rows); at the default size every requirement shows in full.
        scroll = self.checklist_scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.checklist)
        self.unmet_label = QLabel()
        self.unmet_label.setObjectName("UnmetSummary")
        self.unmet_label.setWordWrap(True)
        self.unmet_label.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(evidence)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.unmet_label)
        for edit in (self.rabies_certificate, self.rabies_prepaid, self.licence_receipt):
            edit.textEdited.connect(self._on_evidence_changed)
        self.licence_agreement.toggled.connect(self._on_evidence_changed)
        self.checklist.override_edited.connect(self._on_evidence_changed)
        self._timer.timeout.connect(self.check_now)
        self.pay_button.clicked.connect(self._on_pay_button_clicked)
        self.issue_licence_button.clicked.connect(self._on_issue_licence_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)

    def initializePage(self) -> None:
        owner = self.who.is_to_owner()
        if self.fees is not None and self.fees.to_owner != owner:
            self.fees = None  # another kind of release's fees: never offered for payment
            self.fees_label.setText("")
        self.setSubTitle(
            (
                "Release to the owner or the owner's representative: "
                if owner
                else "Release to a new owner: "
            )
            + self.who.recipient.person_name()
        )
        self.check_now()

    def request(self) -> ReleaseRequest:
        return ReleaseRequest(
            to_owner=self.who.is_to_owner(),
            recipient_id=self.who.recipient.person_id(),
            at=self.who.at.value(),
            rabies_certificate=self.rabies_certificate.text(),
            rabies_prepaid_receipt=self.rabies_prepaid.text(),
            licence_receipt=self.licence_receipt.text(),
            licence_agreement=self.licence_agreement.isChecked()
            and licence_agreement_accepted(self.who.is_to_owner()),
            overrides=self.checklist.overrides(),
            notes=self.notes.toPlainText(),
        )

    def check_now(self) -> None:
        """Ask the service which requirements the evidence as entered meets."""
        self._timer.stop()
        self._generation += 1
        self._set_current(False)
        self.ctx.tasks.run(
            check_release,
            self.ctx.db,
            self.view.id,
            self.request(),
            self.ctx.profile,
            owner=self,
            on_done=partial(self._on_checked, self._generation),
        )

    def _on_checked(self, generation: int, result: ReleaseCheck) -> None:
        if generation == self._generation:  # else the evidence changed meanwhile
            self.show_check(result)

    def _evidence_rows(self) -> tuple[QWidget, ...]:
        return (
            self.rabies_certificate,
            self.rabies_prepaid,
            self.licence_receipt,
            self.licence_agreement,
        )

    def show_evidence_rows(self, codes: set[str]) -> None:
        """The evidence fields of the requirements this release has (58-526(b): rabies for a
        dog or a cat, a licence for a dog), as the service's check returned them."""
        shown = {
            self.rabies_certificate: "rabies" in codes,
            self.rabies_prepaid: "rabies" in codes,
            self.licence_receipt: "licence" in codes,
            self.licence_agreement: "licence" in codes
            and licence_agreement_accepted(self.who.is_to_owner()),
        }
        for widget, visible in shown.items():
            self.evidence.setRowVisible(widget, visible)

    def show_check(self, result: ReleaseCheck) -> None:
        self.show_evidence_rows({c.requirement.code for c in result.requirements})
        self.fees = result.fees
        self.fees_label.setText(totals_text(result.fees))
        self.checklist.show_checked(result.requirements)
        unlicensed = any(c.requirement.code == "licence" and not c.met for c in result.requirements)
        self.evidence.setRowVisible(
            self.issue_licence_button, unlicensed and modules.can_create("licences", "licence")
        )
        unmet = self.checklist.unmet()
        self.unmet_label.setVisible(bool(unmet))
        self.unmet_label.setText(unmet_text(unmet) if unmet else "")
        self._set_current(True)

    def _set_current(self, current: bool) -> None:
        self._current = current
        self.completeChanged.emit()

    def is_checked(self) -> bool:
        """Whether the checklist answers the evidence as it is now entered."""
        return self._current

    def isComplete(self) -> bool:
        return self._current and self.checklist.all_met()

    def show_refusal(self, exc: BaseException) -> bool:
        """Say why the release was refused; False (a bug) leaves it to the error router."""
        if not isinstance(exc, UserError):
            self.banner.show_error("Nothing was saved because of an error in FieldOps.")
            return False
        if isinstance(exc, RequirementsNotMet):
            lines = "".join(f"\n• {r.label}: {r.detail}" for r in exc.requirements)
            self.banner.show_error(f"The release was refused:{lines}")
        elif isinstance(exc, ValidationError):
            self.banner.show_error(
                "The release was refused: " + " ".join(e.message for e in exc.errors)
            )
            if "recipient_id" in exc.by_field():  # said beside the person, on step 1
                self.who.show_recipient_error(exc.by_field()["recipient_id"])
                wizard = self.wizard()
                if wizard is not None:
                    wizard.back()
                return True
        else:
            self.banner.show_error(str(exc))
        self.check_now()
        return True

    def _on_evidence_changed(self, *_args: object) -> None:
        self._set_current(False)
        self._timer.start()

    def _on_pay_button_clicked(self) -> None:
        from ui.impounds.payment_dialog import PaymentDialog

        who = self.who.recipient
        payer_id = who.person_id()
        payer = (payer_id, who.person_name()) if payer_id is not None else None
        fees = (
            self.fees
            if self.fees is not None and self.fees.to_owner == self.who.is_to_owner()
            else None
        )
        self.payment_dialog = PaymentDialog(self.ctx, self.view, fees, self.wizard(), payer=payer)
        self.payment_dialog.open()

    def _on_issue_licence_button_clicked(self) -> None:
        self.licence_dialog = modules.new_record(
            self.ctx,
            "licences",
            "licence",
            self.wizard(),
            animal_id=self.view.animal.id,
            owner_id=self.who.recipient.person_id(),
            impoundment_id=self.view.id,
        )
        if self.licence_dialog is not None:
            self.licence_dialog.finished.connect(self._on_licence_dialog_finished)

    def _on_licence_dialog_finished(self, _result: int) -> None:
        self.check_now()  # a licence issued is on the dog: the requirement checks again

    def _on_bus_changed(self, entity: str, entity_id: int) -> None:
        if entity == "impoundment" and entity_id == self.view.id and self.isVisible():
            self.check_now()


class ReleaseWizardDialog(QWizard):
    """Release an impounded animal to a person; closes once the release is recorded."""

    def __init__(self, ctx: AppContext, view: ImpoundView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.view = ctx, view
        self.setObjectName("ReleaseWizardDialog")
        self.setStyleSheet(POUND_STYLE)
        self.setWindowTitle(f"Release — impoundment #{view.id}")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage)
        self.resize(880, 740)
        self.who = WhoPage(ctx, view)
        self.requirements = RequirementsPage(ctx, view, self.who)
        self.addPage(self.who)
        self.addPage(self.requirements)
        self.setButtonText(QWizard.WizardButton.FinishButton, RELEASE_BUTTON)
        self._releasing = False
        self.released: ImpoundView | None = None
        # Sent with every attempt: a retry after a lost reply returns the release it made.
        self.client_key = str(uuid.uuid4())

    def finish_button(self) -> QPushButton:
        button = self.button(QWizard.WizardButton.FinishButton)
        assert isinstance(button, QPushButton)  # QWizard's own buttons are push buttons
        return button

    def accept(self) -> None:
        """Release the animal (the finish button): record the release; the wizard closes only when it is saved."""
        if self.released is not None:
            super().accept()
            return
        if self._releasing:
            return
        self._releasing = True
        self.finish_button().setEnabled(False)
        self.ctx.tasks.run(
            release,
            self.ctx.db,
            self.ctx.actor,
            self.view.id,
            self.requirements.request(),
            self.ctx.profile,
            client_key=self.client_key,
            owner=self,
            on_done=self._on_released,
            on_error=self._on_release_failed,
        )

    def _on_released(self, view: ImpoundView) -> None:
        self._releasing = False
        self.released = view
        self.ctx.bus.changed.emit("impoundment", view.id)
        self.ctx.bus.changed.emit("animal", view.animal.id)
        super().accept()

    def _on_release_failed(self, exc: BaseException) -> bool:
        self._releasing = False
        return self.requirements.show_refusal(exc)
