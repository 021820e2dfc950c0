"""What is done on a permit after the application: issue, renew, revoke, note a change in
the animals or update their list, record an incident, review, mail the notice, file and
decide the appeal. Each is one service call; the record updates from the answer."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit, QSpinBox, QWidget

from fieldops.db.models import PAYMENT_METHOD_CODES
from fieldops.db.models.permit import APPEAL_OUTCOMES
from fieldops.rules import chicken_renewal, fancier_renewal, format_day
from fieldops.services.permits.animal_list import note_animal_change, update_animal_list
from fieldops.services.permits.appeals import decide_appeal, file_appeal, mail_notice
from fieldops.services.permits.applying import renew_fancier
from fieldops.services.permits.enforcing import (
    IncidentInput,
    record_incident,
    review_permit,
    revoke_chicken,
)
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import (
    ENDING_LABELS,
    INCIDENT_LABELS,
    OUTCOME_LABELS,
    PURPOSE_LABELS,
    PermitView,
)
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.text import money
from ui.context import AppContext
from ui.permits.inputs import AnimalsTable, date_edit, day_of, long_text

METHODS = {m: m.capitalize() for m in PAYMENT_METHOD_CODES}


class PermitActionDialog(RecordDialog):
    """A small form on one permit; ``saved`` carries the updated permit view."""

    close_on_save = True

    def __init__(
        self, ctx: AppContext, permit: PermitView, title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, f"{title}: permit #{permit.id}, {permit.holder}", parent)
        self.permit = permit
        self.layout_ = form_layout()
        self.form_fields = FormFields(self.layout_)
        self.fields = self.form_fields
        self.body.addLayout(self.layout_)
        self.preview = QLabel()
        self.preview.setObjectName("FieldHint")
        self.preview.setWordWrap(True)
        self.body.addWidget(self.preview)

    def run(self, service: object, *args: object, **kw: object) -> None:
        self.save_with(
            service,  # type: ignore[arg-type]
            self.ctx.db,
            self.ctx.actor,
            self.permit.id,
            *args,
            version=self.permit.version,
            client_key=self.client_key,
            **kw,
        )

    def final(self, question: str, button: str) -> bool:
        return self.ctx.errors.confirm(question, button, "&Go back", self)

    def _on_record_saved(self, view: PermitView) -> None:
        self.ctx.bus.changed.emit("permit", view.id)


class IssueDialog(PermitActionDialog):
    # A receipt number is scanned at the counter, ending with Enter: it issued the permit
    # at once, as paid in cash at the fees quoted.
    enter_moves_on = True

    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Issue the permit", parent)
        self.setObjectName("PermitIssueDialog")
        self.issued_on = date_edit(ctx.today())
        self.form_fields.add("issued_on", "Issued &on:", self.issued_on)
        self.paid = self.form_fields.add(
            "paid_amount", "A&mount paid:", QLineEdit(), hint="Blank: the fees quoted."
        )
        self.method = self.form_fields.add("payment_method", "Paid &with:", combo(METHODS))
        self.receipt = self.form_fields.add(
            "receipt_number", "&Receipt number:", QLineEdit(), hint="Blank: the permit's own."
        )
        a = permit.pending_application
        if a is not None:
            self.preview.setText(f"For {a.year}; fees {money(a.total)}, paid at the counter.")
        self.save_button.setText("&Issue")

    def confirmation_text(self) -> str:
        """The question Issue asks: the permit, the day, and the money taken, by name."""
        a, p = self.permit.pending_application, self.permit
        paid = self.paid.text().strip()
        amount = f"${paid}" if paid and not paid.startswith("$") else paid
        if not amount:
            amount = money(a.total) if a is not None else "the fees quoted"
        receipt = self.receipt.text().strip() or "the permit's own number"
        year = f" for {a.year}" if a is not None else ""
        return (
            f"Issue permit #{p.id}{year} to {p.holder}, {p.address}, on "
            f"{format_day(day_of(self.issued_on))}?\n\nPaid {amount} by "
            f"{self.method.currentText().lower()}; receipt {receipt}. "
            "An issued permit's payment cannot be edited."
        )

    def confirm_save(self) -> bool:
        return self.final(self.confirmation_text(), "&Issue")

    def save(self) -> None:
        self.run(
            issue_permit,
            day_of(self.issued_on),
            self.ctx.profile,
            paid_amount=self.paid.text().strip() or None,
            payment_method=self.method.currentData(),
            receipt_number=self.receipt.text(),
        )


class FancierRenewDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Apply for renewal", parent)
        self.setObjectName("FancierRenewDialog")
        self.applied_on = date_edit(ctx.today())
        self.year = QSpinBox()
        self.year.setRange(permit.year + 1, permit.year + 2)
        self.form_fields.add("applied_on", "Applied &on:", self.applied_on)
        self.form_fields.add("year", "Permit &year:", self.year)
        self.form_fields.add("review", "", QLabel("Renewed only after a review that renews."))
        self.save_button.setText("&Apply for renewal")

    def save(self) -> None:
        self.run(renew_fancier, day_of(self.applied_on), self.year.value(), self.ctx.profile)


class RevokeDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Revoke for a violation", parent)
        self.setObjectName("PermitRevokeDialog")
        self.revoked_on = date_edit(ctx.today())
        self.reason = long_text()
        self.form_fields.add("revoked_on", "Revoked &on:", self.revoked_on)
        self.form_fields.add("reason", "The &violation:", self.reason)
        self.save_button.setText("&Revoke")

    def confirm_save(self) -> bool:
        return self.final("Revoke the permit? The revocation cannot be edited.", "&Revoke")

    def save(self) -> None:
        self.run(
            revoke_chicken, day_of(self.revoked_on), self.reason.toPlainText(), self.ctx.profile
        )


class ChangeDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Note a change in the animals", parent)
        self.setObjectName("PermitChangeDialog")
        self.changed_on = date_edit(ctx.today())
        self.note = long_text()
        self.form_fields.add("changed_on", "Changed &on:", self.changed_on)
        self.form_fields.add("note", "&What changed:", self.note)
        self.save_button.setText("&Note change")

    def save(self) -> None:
        self.run(
            note_animal_change, day_of(self.changed_on), self.note.toPlainText(), self.ctx.profile
        )


class ListUpdateDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Update the list of animals", parent)
        self.setObjectName("PermitListDialog")
        self.changed_on = date_edit(ctx.today())
        self.updated_on = date_edit(ctx.today())
        self.animals = AnimalsTable(permit.animals)
        self.note = long_text(40)
        self.form_fields.add("changed_on", "Animals changed &on:", self.changed_on)
        self.form_fields.add("updated_on", "List up&dated on:", self.updated_on)
        self.form_fields.add("animals", "A&nimals kept:", self.animals)
        self.form_fields.add("note", "No&te:", self.note)
        self.save_button.setText("&Update list")

    def save(self) -> None:
        self.run(
            update_animal_list,
            day_of(self.changed_on),
            day_of(self.updated_on),
            self.animals.lines(),
            self.ctx.profile,
            note=self.note.toPlainText(),
        )


class IncidentDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Record an incident", parent)
        self.setObjectName("PermitIncidentDialog")
        self.occurred_on = date_edit(ctx.today())
        self.kind = combo(INCIDENT_LABELS)
        self.ending = combo(ENDING_LABELS)
        self.number = QLineEdit()
        self.distance = QSpinBox()
        self.distance.setRange(-1, 99_999)
        self.distance.setSpecialValueText("not a neighbour's complaint")
        self.distance.setSuffix(" feet")
        self.distance.setValue(-1)
        self.description = long_text()
        f = self.form_fields
        f.add("occurred_on", "&On:", self.occurred_on)
        f.add("kind", "&Kind:", self.kind)
        f.add("ending", "&Ended in:", self.ending, hint="A warning or a citation counts at review.")
        f.add("citation_number", "Citation &number:", self.number)
        if permit.kind == "chicken":
            f.add(
                "distance_feet",
                "Complainant's &distance:",
                self.distance,
                hint="How far the complaining owner's property is (a renewal test may count "
                "complaints within a radius).",
            )
        f.add("description", "&What happened:", self.description)
        self.save_button.setText("&Record incident")

    def save(self) -> None:
        self.run(
            record_incident,
            IncidentInput(
                day_of(self.occurred_on),
                self.kind.currentData(),
                self.ending.currentData(),
                self.description.toPlainText(),
                self.number.text(),
                self.distance.value() if self.distance.value() >= 0 else None,
            ),
            self.ctx.profile,
        )


class ReviewDialog(PermitActionDialog):
    """The review of incidents: the rules' decision is shown before it is recorded."""

    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Review the incidents", parent)
        self.setObjectName("PermitReviewDialog")
        self.review_day = date_edit(ctx.today())
        self.purpose = combo(PURPOSE_LABELS)
        self.notes = long_text(48)
        self.form_fields.add("review_day", "Review &day:", self.review_day)
        self.form_fields.add("purpose", "&For:", self.purpose)
        self.form_fields.add("notes", "N&otes:", self.notes)
        self.save_button.setText("&Record review")
        self.review_day.dateChanged.connect(self._show_decision)
        self._show_decision()

    def decision_text(self) -> str:
        found = [i.occurred_on for i in self.permit.incidents if i.counts]
        day = day_of(self.review_day)
        if self.permit.kind == "chicken":
            near = [(i.occurred_on, i.distance_feet) for i in self.permit.incidents]
            complaints = [(d, f) for d, f in near if f is not None]
            return chicken_renewal(
                day, self.ctx.profile, complaints=complaints, violations=found
            ).why
        return fancier_renewal(found, day, self.ctx.profile).why["renew"]

    def _show_decision(self, *_a: object) -> None:
        self.preview.setText(self.decision_text())

    def confirm_save(self) -> bool:
        return self.final(
            f"Record the review? {self.decision_text()} It cannot be edited.", "&Record review"
        )

    def save(self) -> None:
        self.run(
            review_permit,
            day_of(self.review_day),
            self.ctx.profile,
            purpose=self.purpose.currentData(),
            notes=self.notes.toPlainText(),
        )


class NoticeDialog(PermitActionDialog):
    """The decision's notice by certified mail; the appeal's due day is shown as it is set."""

    # The article number is scanned off the certified-mail label, ending with Enter: it
    # recorded the mailing dated today, once and for all (it starts the appeal's days).
    enter_moves_on = True

    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Mail the notice", parent)
        self.setObjectName("PermitNoticeDialog")
        self.mailed_on = date_edit(ctx.today())
        self.article = QLineEdit()
        self.form_fields.add("mailed_on", "&Mailed on:", self.mailed_on)
        self.form_fields.add("article_number", "Certified mail &article:", self.article)
        self.save_button.setText("&Record mailing")
        self.mailed_on.dateChanged.connect(self._show_appeal_by)
        self._show_appeal_by()

    def _show_appeal_by(self, *_a: object) -> None:
        r = self.permit.adverse_review
        if r is None:
            return
        d = fancier_renewal(r.counted, r.review_day, self.ctx.profile)
        mailed = day_of(self.mailed_on)
        self.preview.setText(
            f"Appeal due by {format_day(d.appeal_by(mailed))}. Why this date? "
            + d.explain_appeal_by(mailed)
        )

    def confirmation_text(self) -> str:
        """The question Record asks: the day mailed, the article, and the appeal's due day."""
        mailed = day_of(self.mailed_on)
        text = (
            f"Record the notice to {self.permit.holder} as mailed by certified mail on "
            f"{format_day(mailed)}, article {self.article.text().strip()}?"
        )
        r = self.permit.adverse_review
        if r is not None:
            d = fancier_renewal(r.counted, r.review_day, self.ctx.profile)
            text += f"\n\nThe appeal is then due by {format_day(d.appeal_by(mailed))}."
        return text + " The mailing is recorded once and cannot be edited."

    def confirm_save(self) -> bool:
        if not self.article.text().strip():
            return True  # refused beside the field, nothing recorded: nothing to ask
        return self.final(self.confirmation_text(), "&Record mailing")

    def save(self) -> None:
        self.run(mail_notice, day_of(self.mailed_on), self.article.text(), self.ctx.profile)


class AppealDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "File the appeal", parent)
        self.setObjectName("PermitAppealDialog")
        self.filed_on = date_edit(ctx.today())
        self.grounds = long_text()
        self.form_fields.add("filed_on", "&Filed on:", self.filed_on)
        self.form_fields.add("grounds", "&Grounds:", self.grounds)
        if permit.appeal_by is not None:
            self.preview.setText(
                f"Due by {format_day(permit.appeal_by)}; enforcement is stayed until it is decided."
            )
        self.save_button.setText("File &appeal")

    def save(self) -> None:
        self.run(file_appeal, day_of(self.filed_on), self.grounds.toPlainText(), self.ctx.profile)


class DecisionDialog(PermitActionDialog):
    def __init__(self, ctx: AppContext, permit: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, permit, "Decide the appeal", parent)
        self.setObjectName("PermitDecisionDialog")
        self.decided_on = date_edit(ctx.today())
        self.outcome = combo({k: OUTCOME_LABELS[k] for k in APPEAL_OUTCOMES})
        self.authority = QLineEdit("Board of appeals")
        self.reason = long_text(48)
        self.form_fields.add("decided_on", "&Decided on:", self.decided_on)
        self.form_fields.add("outcome", "&Outcome:", self.outcome)
        self.form_fields.add("authority", "&By:", self.authority)
        self.form_fields.add("reason", "Rea&son:", self.reason)
        self.save_button.setText("&Record decision")

    def confirm_save(self) -> bool:
        return self.final(
            f"Record \u201c{self.outcome.currentText()}\u201d? It cannot be edited.",
            "&Record decision",
        )

    def save(self) -> None:
        self.run(
            decide_appeal,
            day_of(self.decided_on),
            self.outcome.currentData(),
            self.authority.text(),
            self.ctx.profile,
            reason=self.reason.toPlainText(),
        )
