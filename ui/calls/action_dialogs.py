"""What an officer records on a call: a dispatch, its outcome, a complaint and its notice,
a petition, a citation's court date or payment, a caution (the citation itself:
``ui.calls.citation_dialog``)."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from fieldops.rules import calls as rules
from fieldops.services.calls.citations import update_citation
from fieldops.services.calls.complaints import (
    PetitionInput,
    file_petition,
    log_complaint,
    record_notification,
)
from fieldops.services.calls.dispatching import (
    DispatchUpdate,
    dispatch,
    field_officers,
    update_dispatch,
)
from fieldops.services.calls.flags import clear_flag, set_flag
from fieldops.services.calls.views import CallView, CitationView, ComplaintView, DispatchView
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit, OptionalDateTimeEdit
from ui.common.text import day, escape_html, when
from ui.common.widgets import OptionalDateEdit, date_of, set_date
from ui.context import AppContext

CAUTION_STYLE = "background:#fde8e8; color:#a4161a; font-weight:bold; padding:6px;"


def _text_box(height: int = 60) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setTabChangesFocus(True)
    box.setMaximumHeight(height)
    return box


def _date_edit(value: date) -> QDateEdit:
    edit = QDateEdit()
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("ddd d MMM yyyy")
    set_date(edit, value)
    return edit


def _complaint_line(ctx: AppContext, c: ComplaintView) -> QLabel:
    """Which complaint a form records a step of (a call may have several)."""
    label = QLabel(f"#{c.id} from {c.complainant}, logged {when(ctx, c.logged_at)}: {c.alleged}")
    label.setWordWrap(True)
    return label


class CallActionDialog(RecordDialog):
    """A small form on one call; saving tells the call view (``saved``) and closes."""

    close_on_save = True
    fields: FormFields

    def __init__(self, ctx: AppContext, call: CallView, title: str, parent: QWidget | None) -> None:
        super().__init__(ctx, f"{title}: call #{call.id}", parent)
        self.call = call
        # Officer safety: every caution on the address or the people, on every form.
        self.caution = QLabel("<br>".join(escape_html(f.words()) for f in call.flags))
        self.caution.setObjectName("CautionBanner")
        self.caution.setWordWrap(True)
        self.caution.setStyleSheet(CAUTION_STYLE)
        self.caution.setVisible(bool(call.flags))
        self.body.addWidget(self.caution)
        self.form = form_layout()
        self.fields = FormFields(self.form)
        self.body.addLayout(self.form)

    def _on_record_saved(self, view: object) -> None:
        self.ctx.bus.changed.emit("field_call", self.call.id)


class DispatchDialog(CallActionDialog):
    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Dispatch", parent)
        self.setObjectName("DispatchDialog")
        self.save_button.setText("&Dispatch")
        self.officer = self.fields.add("officer", "&Officer:", QComboBox())
        ctx.tasks.run(field_officers, ctx.db, owner=self, on_done=self._on_officers_loaded)
        self.sent_at = self.fields.add("sent_at", "&Sent at:", LocalDateTimeEdit(ctx.timezone))
        self.sent_at.set_value(ctx.now())

    def _on_officers_loaded(self, officers: tuple[tuple[str, str], ...]) -> None:
        for username, name in officers:
            self.officer.addItem(name, username)
        self.officer.setCurrentIndex(max(self.officer.findData(self.ctx.actor.username), 0))
        self.mark_clean()

    def save(self) -> None:
        self.save_with(
            dispatch,
            self.ctx.db,
            self.ctx.actor,
            self.call.id,
            self.call.version,
            self.officer.currentData() or "",
            self.sent_at.value(),
        )


class OutcomeDialog(CallActionDialog):
    """Arrival, clearance, the outcome and a follow-up date on the latest dispatch."""

    def __init__(
        self, ctx: AppContext, call: CallView, d: DispatchView, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, call, "Outcome", parent)
        self.setObjectName("OutcomeDialog")
        self.dispatch = d
        add = self.fields.add
        self.arrived_at = OptionalDateTimeEdit(ctx.timezone, "Not yet")
        self.arrived_at.set_value(d.arrived_at, ctx.now())
        add("arrived_at", "&Arrived:", self.arrived_at, focus=self.arrived_at.edit)
        self.cleared_at = OptionalDateTimeEdit(ctx.timezone, "Not yet")
        self.cleared_at.set_value(d.cleared_at, ctx.now())
        add("cleared_at", "C&leared:", self.cleared_at, focus=self.cleared_at.edit)
        self.outcome = add("outcome", "Ou&tcome:", combo({None: "Not yet"} | rules.OUTCOMES))
        if d.outcome:
            self.outcome.setCurrentIndex(self.outcome.findData(d.outcome))
        self.follow_up = OptionalDateEdit("&No follow-up")
        self.follow_up.set_value(d.follow_up_on)
        self.follow_up.set_default_date(ctx.today())  # unticked, it offers today
        add("follow_up_on", "&Follow-up on:", self.follow_up)
        self.notes = add("notes", "Not&es:", _text_box())
        self.notes.setPlainText(d.notes)

    def confirm_save(self) -> bool:
        """An outcome on the call's latest dispatch closes the call: one Enter must not."""
        outcome = self.outcome.currentData()
        if outcome is None or self.call.status == "closed":
            return True  # the call stays as it is: open, or closed already
        return self.ctx.errors.confirm(
            f"Record \u201c{rules.OUTCOMES[outcome]}\u201d and close call #{self.call.id}?",
            "&Close the call",
            "&Keep editing",
            self,
        )

    def read_input(self) -> DispatchUpdate:
        return DispatchUpdate(
            arrived_at=self.arrived_at.value(),
            cleared_at=self.cleared_at.value(),
            outcome=self.outcome.currentData(),
            follow_up_on=self.follow_up.value(),
            impoundment_id=self.dispatch.impoundment_id,
            notes=self.notes.toPlainText(),
        )

    def save(self) -> None:
        self.save_with(
            update_dispatch,
            self.ctx.db,
            self.ctx.actor,
            self.dispatch.id,
            self.dispatch.version,
            self.read_input(),
            self.ctx.profile,
        )


class ComplaintDialog(CallActionDialog):
    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Complaint (58-534(a))", parent)
        self.setObjectName("ComplaintDialog")
        self.save_button.setText("&Log complaint")
        self.complainant = self.fields.add("complainant", "Com&plainant:", QLineEdit())
        self.complainant.setText(call.caller_name)
        self.adult = self.fields.add("complainant_adult", "", QCheckBox("An &adult"))
        self.adult.setChecked(True)
        self.alleged = self.fields.add("alleged", "Alleged &violation:", _text_box())
        self.alleged.setPlainText(call.description)

    def save(self) -> None:
        self.save_with(
            log_complaint,
            self.ctx.db,
            self.ctx.actor,
            self.call.id,
            complainant=self.complainant.text(),
            alleged=self.alleged.toPlainText(),
            adult=self.adult.isChecked(),
        )


class NoticeDialog(CallActionDialog):
    """The owner's notification of a complaint: how and when."""

    def __init__(
        self, ctx: AppContext, call: CallView, c: ComplaintView, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, call, "Owner notified", parent)
        self.setObjectName("NoticeDialog")
        self.complaint = c
        self.fields.add("complaint_id", "Complaint:", _complaint_line(ctx, c))
        self.how = self.fields.add("notified_how", "&How:", combo(rules.NOTIFY_METHODS))
        self.at = self.fields.add("notified_at", "&When:", LocalDateTimeEdit(ctx.timezone))
        self.at.set_value(ctx.now())

    def save(self) -> None:
        self.save_with(
            record_notification,
            self.ctx.db,
            self.ctx.actor,
            self.complaint.id,
            self.complaint.version,
            how=self.how.currentData(),
            at=self.at.value(),
        )


class PetitionDialog(CallActionDialog):
    """A petition's five parts (58-534(a)(1)-(5)); a missing one is named beside its field,
    and "Record refusal" keeps the refusal on record."""

    def __init__(
        self, ctx: AppContext, call: CallView, c: ComplaintView, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, call, "Petition", parent)
        self.setObjectName("PetitionDialog")
        self.complaint = c
        self.save_button.setText("&Accept and refer")
        add = self.fields.add
        add("complaint_id", "Complaint:", _complaint_line(ctx, c))
        today = ctx.now().astimezone(ctx.timezone).date()
        self.received_on = add("received_on", "&Received on:", _date_edit(today))
        self.petitioners = add("petitioners", "(&1) Petitioners:", _text_box())
        self.animal = add("animal", "(&2) Animal and owner:", _text_box(48))
        self.violations = add("violations", "(&3) Violations:", _text_box())
        self.reported_on = add("reported_on", "(&4) Dates reported:", QLineEdit())
        self.will_testify = add(
            "will_testify", "(&5)", QCheckBox("The petitioners state they will testify")
        )
        self.referred_to = add("referred_to", "Re&fer to:", combo(rules.REFERRALS))
        self.referred_on = add("referred_on", "Referred &on:", _date_edit(today))
        self.refuse_button = self.buttons.addButton(
            "Record refu&sal", self.buttons.ButtonRole.ActionRole
        )
        self.refuse_button.setAutoDefault(False)
        self.refuse_button.clicked.connect(self._on_refuse_button_clicked)

    def read_input(self) -> PetitionInput:
        return PetitionInput(
            received_on=date_of(self.received_on.date()),
            petitioners=self.petitioners.toPlainText(),
            animal=self.animal.toPlainText(),
            violations=self.violations.toPlainText(),
            reported_on=self.reported_on.text(),
            will_testify=self.will_testify.isChecked(),
            referred_to=self.referred_to.currentData(),
            referred_on=date_of(self.referred_on.date()),
        )

    def confirm_save(self) -> bool:
        """An accepted petition is referred and never changed: one Enter must not do it."""
        inp = self.read_input()
        to = rules.REFERRALS.get(inp.referred_to or "", "")
        return self.ctx.errors.confirm(
            f"Accept this petition and refer it to {to} on {day(inp.referred_on)}? "
            "An accepted petition is final: it cannot be changed.",
            "&Accept and refer",
            "&Keep editing",
            self,
        )

    def save(self) -> None:
        self.save_with(
            file_petition,
            self.ctx.db,
            self.ctx.actor,
            self.complaint.id,
            self.read_input(),
            profile=self.ctx.profile,
        )

    def _on_refuse_button_clicked(self) -> None:
        if self.is_saving():
            return
        if not self.ctx.errors.confirm(
            "Record this petition as refused, naming the parts it lacks?",
            "&Record refusal",
            "&Keep editing",
            self,
        ):
            return
        self.save_with(
            file_petition,
            self.ctx.db,
            self.ctx.actor,
            self.complaint.id,
            self.read_input(),
            record_refusal=True,
            profile=self.ctx.profile,
        )


class CautionDialog(CallActionDialog):
    """A supervisor's caution on the call's address (or its owner)."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Caution", parent)
        self.setObjectName("CautionDialog")
        self.save_button.setText("Set ca&ution")
        self.on_owner = self.fields.add(
            "person_id", "", QCheckBox(f"On the &owner ({call.owner})" if call.owner_id else "")
        )
        self.on_owner.setVisible(call.owner_id is not None)
        self.address = self.fields.add("address", "&Address:", QLineEdit(call.address))
        self.reason = self.fields.add("reason", "&Reason:", _text_box())

    def save(self) -> None:
        owner = self.on_owner.isChecked() and self.call.owner_id is not None
        self.save_with(
            set_flag,
            self.ctx.db,
            self.ctx.actor,
            reason=self.reason.toPlainText(),
            person_id=self.call.owner_id if owner else None,
            address="" if owner else self.address.text(),
        )


class ClearCautionDialog(CallActionDialog):
    """A supervisor clears one of the cautions on the call, saying why."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Clear a caution", parent)
        self.setObjectName("ClearCautionDialog")
        self.save_button.setText("C&lear caution")
        self.flag = self.fields.add(
            "flag", "Ca&ution:", combo({f.id: f.words() for f in call.flags})
        )
        self.reason = self.fields.add("clear_reason", "&Reason:", _text_box())

    def save(self) -> None:
        flag = next(f for f in self.call.flags if f.id == self.flag.currentData())
        self.save_with(
            clear_flag,
            self.ctx.db,
            self.ctx.actor,
            flag.id,
            flag.version,
            self.reason.toPlainText(),
        )


class CitationUpdateDialog(CallActionDialog):
    """The court date of a citation, and the day its forfeiture was paid."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Court date or payment", parent)
        self.setObjectName("CitationUpdateDialog")
        self.citation = self.fields.add(
            "citation",
            "C&itation:",
            combo(
                {
                    t.id: f"#{t.id} {t.person}, {t.section}, offence {t.offence_number}"
                    for t in call.citations
                    if not t.voided  # nothing more is recorded on a voided citation
                }
            ),
        )
        self.court_on = OptionalDateEdit("&No court date")
        self.fields.add("court_on", "Co&urt date:", self.court_on)
        self.paid_on = OptionalDateEdit("Not &paid")
        self.fields.add("paid_on", "Pai&d on:", self.paid_on)
        self.citation.currentIndexChanged.connect(self._on_citation_changed)
        self._on_citation_changed()

    def _chosen(self) -> CitationView:
        return next(t for t in self.call.citations if t.id == self.citation.currentData())

    def _on_citation_changed(self, *_args: object) -> None:
        t = self._chosen()
        # A date box unticked offers today, never the widget's 1 Jan 2000.
        for box, value in ((self.court_on, t.court_on), (self.paid_on, t.paid_on)):
            box.set_value(value)
            box.set_default_date(self.ctx.today())

    def save(self) -> None:
        t = self._chosen()
        self.save_with(
            update_citation,
            self.ctx.db,
            self.ctx.actor,
            t.id,
            t.version,
            court_on=self.court_on.value(),
            paid_on=self.paid_on.value(),
            profile=self.ctx.profile,
        )
