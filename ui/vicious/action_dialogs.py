"""What is done on a case after the declaration: serve the notice, record the outcome, add or
complete a next step, withdraw or overturn. Each is one service call; the case view updates
from the answer."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QComboBox, QDateEdit, QLabel, QLineEdit, QPlainTextEdit, QWidget

from fieldops.rules import format_instant, vicious_notice_deadline
from fieldops.rules import vicious as rules
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import (
    EndingInput,
    OutcomeInput,
    StepInput,
    add_step,
    complete_step,
    end_declaration,
    record_outcome,
)
from fieldops.services.vicious.views import CaseView
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit
from ui.common.widgets import set_date
from ui.context import AppContext


def _text(height: int = 60) -> QPlainTextEdit:
    edit = QPlainTextEdit()
    edit.setFixedHeight(height)
    return edit


def _date_edit(value: date) -> QDateEdit:
    edit = QDateEdit()
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("ddd d MMM yyyy")
    set_date(edit, value)
    return edit


def _day(edit: QDateEdit) -> date:
    d: QDate = edit.date()
    return date(d.year(), d.month(), d.day())


class CaseActionDialog(RecordDialog):
    """A small form on one case; ``saved`` carries the updated case view."""

    close_on_save = True

    def __init__(
        self, ctx: AppContext, case: CaseView, title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(ctx, f"{title}: case #{case.id}, {case.animal}", parent)
        self.case = case
        self.layout_ = form_layout()
        # Typed as FormFields so the subclasses' add() calls type-check; the base
        # class only knows self.fields as FieldMarks.
        self.form_fields = FormFields(self.layout_)
        self.fields = self.form_fields
        self.body.addLayout(self.layout_)

    def _on_record_saved(self, view: CaseView) -> None:
        self.ctx.bus.changed.emit("vicious_case", view.id)


class NoticeDialog(CaseActionDialog):
    """The written notice served (58-524(c)(2)): in person, or posted on the front door."""

    def __init__(self, ctx: AppContext, case: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, case, "Serve the notice", parent)
        self.setObjectName("NoticeDialog")
        self.method = combo(rules.NOTICE_METHODS)
        self.served_at = LocalDateTimeEdit(ctx.timezone)
        self.served_at.set_value(ctx.now())
        self.served_by = QLineEdit(ctx.actor.full_name or ctx.actor.username)
        self.place = QLineEdit(case.owner_address)
        self.notes = _text()
        self.form_fields.add("method", "&How served:", self.method)
        self.form_fields.add(
            "served_at",
            "Served a&t:",
            self.served_at,
            hint="When it was handed over, or when it was posted on the door: "
            f"the {ctx.profile.notice_hours} hours run from then.",
        )
        self.form_fields.add("served_by", "Served &by:", self.served_by)
        self.form_fields.add("place", "&Where:", self.place)
        self.form_fields.add("notes", "N&otes:", self.notes)
        self.deadline_preview = QLabel()
        self.deadline_preview.setObjectName("FieldHint")
        self.deadline_preview.setWordWrap(True)
        self.body.addWidget(self.deadline_preview)
        self.save_button.setText("&Record service")
        self.served_at.dateTimeChanged.connect(lambda *_a: self.show_deadline())
        self.show_deadline()

    def show_deadline(self) -> None:
        """The deadline this time of service gives, and why (the rules' own words)."""
        served = self.served_at.value()
        deadline = vicious_notice_deadline(served, self.ctx.profile)
        self.deadline_preview.setText(
            f"Deadline: {format_instant(deadline, self.ctx.profile)}. Why this date? "
            + rules.explain_vicious_notice_deadline(served, self.ctx.profile)
        )

    def confirm_save(self) -> bool:
        return self.ctx.errors.confirm(
            "Record the notice as served? The deadline is set from this time and cannot be "
            "edited afterwards.",
            "&Record service",
            "&Go back",
            self,
        )

    def save(self) -> None:
        self.save_with(
            serve_notice,
            self.ctx.db,
            self.ctx.actor,
            self.case.id,
            NoticeInput(
                self.method.currentData(),
                self.served_at.value(),
                self.served_by.text(),
                self.place.text(),
                self.notes.toPlainText(),
            ),
            self.ctx.profile,
            version=self.case.version,
            client_key=self.client_key,
        )


class OutcomeDialog(CaseActionDialog):
    """Destroyed (by whom, proof), removed from the city (to where, how confirmed), or not
    complied."""

    def __init__(self, ctx: AppContext, case: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, case, "Record the outcome", parent)
        self.setObjectName("OutcomeDialog")
        self.kind = combo(rules.OUTCOMES)
        self.at = LocalDateTimeEdit(ctx.timezone)
        self.at.set_value(ctx.now())
        self.by_whom = QLineEdit()
        self.proof = _text()
        self.removed_to = QLineEdit()
        self.confirmed_how = _text()
        self.notes = _text(48)
        self.form_fields.add("kind", "O&utcome:", self.kind)
        self.form_fields.add("at", "&When:", self.at)
        self.form_fields.add("by_whom", "Destroyed &by:", self.by_whom)
        self.form_fields.add("proof", "&Proof:", self.proof)
        self.form_fields.add("removed_to", "Removed &to:", self.removed_to)
        self.form_fields.add("confirmed_how", "Confirmed &how:", self.confirmed_how)
        self.form_fields.add("notes", "N&otes:", self.notes)
        self.save_button.setText("&Record outcome")
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self._on_kind_changed()

    def _on_kind_changed(self, *_a: object) -> None:
        kind = self.kind.currentData()
        for name, shown in (
            ("by_whom", kind == "destroyed"),
            ("proof", kind == "destroyed"),
            ("removed_to", kind == "removed"),
            ("confirmed_how", kind == "removed"),
        ):
            row = self.form_fields.input(name).parentWidget()  # add() boxes each field in its row
            assert row is not None
            self.layout_.setRowVisible(row, shown)

    def confirm_save(self) -> bool:
        return self.ctx.errors.confirm(
            f"Record the outcome \u201c{self.kind.currentText()}\u201d? It cannot be edited "
            "afterwards.",
            "&Record outcome",
            "&Go back",
            self,
        )

    def save(self) -> None:
        self.save_with(
            record_outcome,
            self.ctx.db,
            self.ctx.actor,
            self.case.id,
            OutcomeInput(
                self.kind.currentData(),
                self.at.value(),
                self.by_whom.text(),
                self.proof.toPlainText(),
                self.removed_to.text(),
                self.confirmed_how.toPlainText(),
                self.notes.toPlainText(),
            ),
            self.ctx.profile,
            version=self.case.version,
            client_key=self.client_key,
        )


class StepDialog(CaseActionDialog):
    """A next step after the owner did not comply, with the day it is due."""

    def __init__(self, ctx: AppContext, case: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, case, "Add a next step", parent)
        self.setObjectName("StepDialog")
        self.kind = combo(
            {k: f"{v} ({rules.NEXT_STEP_SECTIONS[k]})" for k, v in rules.NEXT_STEPS.items()}
        )
        self.due_on = _date_edit(ctx.today())
        self.what = _text()
        self.form_fields.add("kind", "&Step:", self.kind)
        self.form_fields.add("due_on", "&Due on:", self.due_on)
        self.form_fields.add("what", "&What is to be done:", self.what)
        self.save_button.setText("&Add step")

    def save(self) -> None:
        self.save_with(
            add_step,
            self.ctx.db,
            self.ctx.actor,
            self.case.id,
            StepInput(self.kind.currentData(), _day(self.due_on), self.what.toPlainText()),
            self.ctx.profile,
            version=self.case.version,
            client_key=self.client_key,
        )


class StepDoneDialog(CaseActionDialog):
    """A next step taken: the day, and what came of it."""

    def __init__(self, ctx: AppContext, case: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, case, "Record a step taken", parent)
        self.setObjectName("StepDoneDialog")
        self.step = QComboBox()
        for st in case.steps:
            if st.done_on is None:
                self.step.addItem(f"{st.label} ({st.section}), due {st.due_on:%a %d %b %Y}", st.id)
        self.done_on = _date_edit(ctx.today())
        self.outcome_text = _text()  # not "result": that is QDialog.result()
        self.form_fields.add("step", "&Step:", self.step)
        self.form_fields.add("done_on", "&Taken on:", self.done_on)
        self.form_fields.add("result", "&What came of it:", self.outcome_text)
        self.save_button.setText("&Record")

    def save(self) -> None:
        self.save_with(
            complete_step,
            self.ctx.db,
            self.ctx.actor,
            self.step.currentData(),
            _day(self.done_on),
            self.outcome_text.toPlainText(),
            self.ctx.profile,
        )


class EndingDialog(CaseActionDialog):
    """Withdraw or overturn the declaration: a supervisor's new event with its reason."""

    def __init__(self, ctx: AppContext, case: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, case, "Withdraw or overturn", parent)
        self.setObjectName("EndingDialog")
        self.kind = combo(rules.ENDINGS)
        self.decided_on = _date_edit(ctx.today())
        self.authority = QLineEdit()
        self.authority.setPlaceholderText("The court, the appeal body, the officer's supervisor")
        self.reason = _text(80)
        self.form_fields.add("kind", "&What:", self.kind)
        self.form_fields.add("decided_on", "&Decided on:", self.decided_on)
        self.form_fields.add("authority", "Decided &by:", self.authority)
        self.form_fields.add("reason", "&Reason:", self.reason)
        self.save_button.setText("Re&cord")
        self.close_button.setText("C&lose")

    def confirm_save(self) -> bool:
        return self.ctx.errors.confirm(
            "End this declaration? The animal will no longer be held as vicious; the "
            "declaration stays on record with this decision after it.",
            "Re&cord",
            "&Go back",
            self,
        )

    def save(self) -> None:
        self.save_with(
            end_declaration,
            self.ctx.db,
            self.ctx.actor,
            self.case.id,
            EndingInput(
                self.kind.currentData(),
                _day(self.decided_on),
                self.authority.text(),
                self.reason.toPlainText(),
            ),
            self.ctx.profile,
            version=self.case.version,
            client_key=self.client_key,
        )
