"""A citation issued from a call: each day of a continuing violation is its own offence
(58-534(b))."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QLineEdit, QWidget

from fieldops.errors import ValidationError
from fieldops.rules import calls as rules
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.views import CallView
from ui.calls.action_dialogs import CallActionDialog, _date_edit
from ui.common.forms import combo
from ui.common.widgets import OptionalDateEdit, date_of
from ui.context import AppContext


class CitationDialog(CallActionDialog):
    """A citation: each day of a continuing violation is its own offence (58-534(b))."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Citation", parent)
        self.setObjectName("CitationDialog")
        self.save_button.setText("&Issue")
        add = self.fields.add
        self.person_id = call.owner_id
        self.person = add(
            "person_id", "Person cited:", QLineEdit(call.owner or "(choose the owner on the call)")
        )
        self.person.setReadOnly(True)
        sections = rules.citable_sections(ctx.profile)
        self.section = add("section", "&Section:", combo({s: s for s in sections}))
        if call.section in sections:
            self.section.setCurrentIndex(self.section.findData(call.section))
        today = ctx.now().astimezone(ctx.timezone).date()
        self.first_day = add("days", "&First day:", _date_edit(today))
        self.last_day = add("last_day", "&Last day:", _date_edit(today))
        self.court_on = OptionalDateEdit("&No court date yet")
        self.court_on.set_default_date(today)
        add("court_on", "Co&urt date:", self.court_on)
        self.issued_by = add(
            "issued_by", "Issued &by:", QLineEdit(ctx.actor.full_name or ctx.actor.username)
        )

    def days(self) -> tuple[date, ...]:
        """Each day from the first to the last; none when the last is before the first."""
        first, last = date_of(self.first_day.date()), date_of(self.last_day.date())
        return tuple(date.fromordinal(d) for d in range(first.toordinal(), last.toordinal() + 1))

    def confirm_save(self) -> bool:
        if not self.days():  # the form's own two boxes: nothing to ask the service
            self._on_save_failed(
                ValidationError({"last_day": "The last day cannot be before the first day."})
            )
            return False
        n = len(self.days())
        return self.ctx.errors.confirm(
            f"Issue {n} citation{'s' if n != 1 else ''} (one for each day)? A citation is final.",
            "&Issue",
            "&Keep editing",
            self,
        )

    def save(self) -> None:
        self.save_with(
            cite,
            self.ctx.db,
            self.ctx.actor,
            CitationInput(
                self.person_id,
                self.section.currentData(),
                self.days(),
                self.issued_by.text(),
                call_id=self.call.id,
                address=self.call.address,
                description=self.call.description,
                court_on=self.court_on.value(),
            ),
            self.ctx.profile,
        )
