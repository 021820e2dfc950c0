"""The call view's further actions: a follow-up done, a citation corrected or voided, and
another module's form (a bite report, a vicious case) opened from the call and linked
back to it through the seam (``ui.modules``), never by importing that module."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Protocol, cast

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QLineEdit, QPushButton, QWidget

from fieldops.permissions import Permission, permitted
from fieldops.rules import calls as rules
from fieldops.services.calls.citation_corrections import (
    CitationCorrection,
    correct_citation,
    void_citation,
)
from fieldops.services.calls.dispatching import field_officers
from fieldops.services.calls.followups import record_follow_up
from fieldops.services.calls.links import CallActions, call_actions, link_record
from fieldops.services.calls.views import CallView, CitationView
from ui import modules as ui_modules
from ui.calls.action_dialogs import CallActionDialog, _date_edit, _text_box
from ui.common.forms import combo
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.common.text import day, escape_html, when
from ui.common.widgets import date_of, set_date
from ui.context import AppContext


class CallDialog(Protocol):
    """What this part needs of the call view that holds it (ui.calls.call_dialog), named
    here so that the two files do not import each other."""

    ctx: AppContext
    view: CallView
    buttons: dict[str, QPushButton]
    child: QDialog | None

    def reload(self, *_args: object) -> None: ...

    def _open(self, dialog: QDialog) -> None: ...


@dataclass(frozen=True)
class ModuleForm:
    """Another module's form a kind of call opens: the creator's (module, kind), the
    button, and how the saved record is linked (the opener's kind, the id's attribute)."""

    module: str
    creates: str
    button: str
    opens: str
    id_attribute: str


MODULE_FORMS = {
    "bite": ModuleForm("quarantine", "bite_report", "Open &bite report…", "bite", "bite_report_id"),
    "vicious": ModuleForm("vicious", "case", "Open &vicious case…", "case", "id"),
}


def prefill(v: CallView) -> dict[str, object]:
    """What the call knows, in the seam's generic prefill words."""
    out: dict[str, object] = {
        "when": v.received_at,
        "place": v.address + (f", {v.place}" if v.place else ""),
        "description": v.description,
        "notes": f"From call #{v.id}: {v.description}".strip(),
    }
    if not v.anonymous and v.caller_name:
        out["reported_by"] = v.caller_name
    if v.owner_id is not None:
        out |= {"owner_id": v.owner_id, "owner_name": v.owner}
    if v.animal_id is not None:
        out |= {"animal_id": v.animal_id, "animal_name": v.animal}
    elif v.animal:
        out["animal_description"] = v.animal
    return out


class CallActionsPart:
    """The call view's part: three buttons and the line of links and follow-ups done."""

    def __init__(self, dialog: CallDialog) -> None:
        # Weakly: the call view owns this part, and closes (and is deleted) on its own.
        self._dialog = weakref.ref(dialog)
        self.ctx = dialog.ctx
        self.actions: CallActions | None = None
        self.line = QLabel()
        self.line.setObjectName("CallLinks")
        self.line.setWordWrap(True)
        self.line.setTextFormat(Qt.TextFormat.RichText)
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.line.linkActivated.connect(self.open_link)
        self.line.setVisible(False)
        b = dialog.buttons
        b["follow_up"].clicked.connect(self.open_follow_up)
        b["fix_citation"].clicked.connect(self.open_citation_fix)
        b["module_form"].clicked.connect(self.open_module_form)

    @property
    def dialog(self) -> CallDialog:
        d = self._dialog()
        assert d is not None  # the part lives only as long as its call view
        return d

    @property
    def widget(self) -> QWidget:
        """The call view as the parent of what this part opens (it is a dialog)."""
        return cast(QWidget, self.dialog)

    def _reload(self) -> None:
        d = self._dialog()
        if d is not None and shiboken6.isValid(d):
            d.reload()

    def open_follow_up(self) -> None:
        d = self.dialog
        d._open(FollowUpDoneDialog(self.ctx, d.view, self.widget))

    def open_citation_fix(self) -> None:
        d = self.dialog
        d._open(CitationFixDialog(self.ctx, d.view, self.widget))

    def show_view(self, v: CallView) -> None:
        b = self.dialog.buttons
        form = MODULE_FORMS.get(v.kind)
        b["module_form"].setVisible(form is not None)
        if form is not None:
            b["module_form"].setText(form.button)
            b["module_form"].setEnabled(ui_modules.can_create(form.module, form.creates))
        b["fix_citation"].setEnabled(any(not t.voided for t in v.citations))
        b["follow_up"].setEnabled(False)  # until the call's actions are read
        self.ctx.tasks.run(
            call_actions, self.ctx.db, v.id, owner=self.widget, on_done=self.show_actions
        )

    def show_actions(self, a: CallActions) -> None:
        if a.call_id != self.dialog.view.id:
            return
        self.actions = a
        self.dialog.buttons["follow_up"].setEnabled(a.follow_up_open)
        e = escape_html
        parts = [
            f'<a href="{e(x.module)}/{e(x.kind)}/{x.record_id}">{e(x.words)}</a>' for x in a.links
        ]
        lines = ["<b>Opened from this call:</b> " + ", ".join(parts)] if parts else []
        for f in a.follow_ups:
            outcome = f" ({e(f.outcome_label)})" if f.outcome_label else ""
            lines.append(
                f"<b>Follow-up of {day(f.due_on)} done</b> {when(self.ctx, f.done_at)} by "
                f"{e(f.done_by)}{outcome}: {e(f.note)}"
            )
        self.line.setText("<br>".join(lines))
        self.line.setVisible(bool(lines))

    def link_texts(self) -> list[str]:
        return [x.words for x in (self.actions.links if self.actions else ())]

    def open_link(self, href: str) -> None:
        module, kind, rid = href.split("/")
        ui_modules.open_record(self.ctx, module, kind, int(rid), self.widget)

    def open_module_form(self) -> QDialog | None:
        """The bite report or vicious case form, filled with what the call knows; saved,
        the new record is linked back to the call."""
        v = self.dialog.view
        form = MODULE_FORMS.get(v.kind)
        if form is None:
            return None
        child = ui_modules.new_record(
            self.ctx, form.module, form.creates, self.widget, **prefill(v)
        )
        if child is None:
            return None
        self.dialog.child = child

        def saved(record: object) -> None:
            rid = getattr(record, form.id_attribute, None)
            if isinstance(rid, int):
                self.ctx.tasks.run(
                    link_record,
                    self.ctx.db,
                    self.ctx.actor,
                    v.id,
                    form.module,
                    form.opens,
                    rid,
                    # No owner: the link is written even if the call view was closed meanwhile.
                    on_done=lambda _a: self._reload(),
                )

        child.saved.connect(saved)  # type: ignore[attr-defined]
        return child


class FollowUpDoneDialog(CallActionDialog):
    """The call's follow-up done: when, by whom, what was found, and an outcome if one."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Follow-up done", parent)
        self.setObjectName("FollowUpDoneDialog")
        self.save_button.setText("&Record follow-up")
        add = self.fields.add
        if call.follow_up_on is not None:
            add("due", "Due:", QLabel(day(call.follow_up_on)))
        self.done_at = add("done_at", "&When done:", LocalDateTimeEdit(ctx.timezone))
        self.done_at.set_value(ctx.now())
        self.officer = add("officer", "&By:", QComboBox())
        ctx.tasks.run(field_officers, ctx.db, owner=self, on_done=self._on_officers_loaded)
        self.note = add("note", "&Note:", _text_box(90))
        self.outcome = add("outcome", "Ou&tcome:", combo({None: "None"} | rules.OUTCOMES))

    def _on_officers_loaded(self, officers: tuple[tuple[str, str], ...]) -> None:
        for username, name in officers:
            self.officer.addItem(name, username)
        self.officer.setCurrentIndex(max(self.officer.findData(self.ctx.actor.username), 0))
        self.mark_clean()

    def save(self) -> None:
        self.save_with(
            record_follow_up,
            self.ctx.db,
            self.ctx.actor,
            self.call.id,
            self.call.version,
            done_at=self.done_at.value(),
            done_by=self.officer.currentData() or "",
            note=self.note.toPlainText(),
            outcome=self.outcome.currentData(),
        )


class CitationFixDialog(CallActionDialog):
    """A citation's mistakes corrected with a reason (the forfeiture follows the ladder),
    or, by a supervisor, the citation voided with a reason (it stays on record)."""

    def __init__(self, ctx: AppContext, call: CallView, parent: QWidget | None = None) -> None:
        super().__init__(ctx, call, "Correct or void a citation", parent)
        self.setObjectName("CitationFixDialog")
        self.save_button.setText("&Save correction")
        add = self.fields.add
        self.open_citations = [t for t in call.citations if not t.voided]
        self.citation = add(
            "citation",
            "C&itation:",
            combo(
                {
                    t.id: f"#{t.id} {t.person}, {t.section}, {day(t.offence_on)}"
                    for t in self.open_citations
                }
            ),
        )
        self.person = PersonField(ctx, "The person cited")
        add("person_id", "&Person cited:", self.person, focus=self.person.choose_button)
        sections = rules.citable_sections(ctx.profile)
        self.section = add("section", "Sec&tion:", combo({s: s for s in sections}))
        self.offence_on = add("offence_on", "&Day of the offence:", _date_edit(ctx.today()))
        self.address = add("address", "&Address:", QLineEdit())
        self.description = add("description", "D&escription:", _text_box())
        self.reason = add("reason", "&Reason:", _text_box())
        self.void_button = self.buttons.addButton(
            "&Void citation", self.buttons.ButtonRole.ActionRole
        )
        self.void_button.setAutoDefault(False)
        self.void_button.setVisible(permitted(ctx.actor.role, Permission.CORRECTIONS))
        self.void_button.clicked.connect(self._on_void_button_clicked)
        self.citation.currentIndexChanged.connect(self._on_citation_changed)
        self._on_citation_changed()

    def chosen(self) -> CitationView:
        return next(t for t in self.open_citations if t.id == self.citation.currentData())

    def _on_citation_changed(self, *_args: object) -> None:
        t = self.chosen()
        self.person.set_person(t.person_id, t.person)
        at = self.section.findData(t.section)
        if at < 0:  # a section the profile no longer lists: shown as written
            self.section.addItem(t.section, t.section)
            at = self.section.count() - 1
        self.section.setCurrentIndex(at)
        set_date(self.offence_on, t.offence_on)
        self.address.setText(t.address)
        self.description.setPlainText(t.description)

    def read_input(self) -> CitationCorrection:
        return CitationCorrection(
            person_id=self.person.person_id(),
            section=self.section.currentData(),
            offence_on=date_of(self.offence_on.date()),
            address=self.address.text(),
            description=self.description.toPlainText(),
        )

    def save(self) -> None:
        t = self.chosen()
        self.save_with(
            correct_citation,
            self.ctx.db,
            self.ctx.actor,
            t.id,
            t.version,
            self.read_input(),
            self.reason.toPlainText(),
            self.ctx.profile,
        )

    def _on_void_button_clicked(self) -> None:
        if self.is_saving():
            return
        t = self.chosen()
        if not self.ctx.errors.confirm(
            f"Void citation #{t.id}? It stays on record, marked void, and is no offence.",
            "&Void citation",
            "&Keep editing",
            self,
        ):
            return
        self.save_with(
            void_citation, self.ctx.db, self.ctx.actor, t.id, t.version, self.reason.toPlainText()
        )
