"""What is done to an issued licence: a lost tag replaced, the licence transferred to
the dog's new owner, or the licence voided (a supervisor's task, with the reason)."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QWidget

from fieldops.db.models import PAYMENT_METHOD_CODES
from fieldops.permissions import Permission
from fieldops.services.licences.changes import (
    replace_tag,
    replacement_fee,
    transfer_licence,
    void_licence,
)
from fieldops.services.licences.views import LicenceView
from ui.account.gate import gate, refused
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import PersonField
from ui.common.text import money
from ui.common.widgets import OptionalDateEdit
from ui.context import AppContext

KINDS = {
    "replace": ("Replace a lost tag", "&Replace tag", Permission.LICENCES),
    "transfer": ("Transfer to a new owner", "&Transfer", Permission.LICENCES),
    "void": ("Void the licence", "&Void licence", Permission.CORRECTIONS),
}
METHODS = {m: m.capitalize() for m in PAYMENT_METHOD_CODES}


class LicenceChangeDialog(RecordDialog):
    """One change of a licence; closes when saved (``saved`` carries the licence now).

    A counter form: the new tag is scanned and the scanner ends with Enter, which moves
    on and never saves (it replaced the tag at once, for good). A replacement asks first,
    naming the dog, the owner, both tags and what was paid; a void asks too."""

    close_on_save = True
    enter_moves_on = True

    def __init__(
        self, ctx: AppContext, view: LicenceView, kind: str, parent: QWidget | None = None
    ) -> None:
        title, button, self.permission = KINDS[kind]
        super().__init__(ctx, f"{title} — tag {view.tag_number} ({view.licence_year})", parent)
        self.setObjectName("LicenceChangeDialog")
        self.resize(520, 260)
        self.kind, self.view = kind, view
        self.save_button.setText(button)
        gate(ctx, self.save_button, self.permission)
        form = form_layout()
        self.body.addLayout(form)
        self.fields = FormFields(form)
        if kind == "replace":
            self.tag = self.fields.add("tag_number", "&New tag number:", QLineEdit())
            fee = replacement_fee(ctx.profile)
            self.paid = self.fields.add(
                "paid_amount", "A&mount paid:", QLineEdit(), hint=f"The fee: {money(fee)}."
            )
            self.method = self.fields.add("payment_method", "Paid &with:", combo(METHODS))
        elif kind == "transfer":
            self.owner = self.fields.add(
                "owner_id", "New &owner:", PersonField(ctx, "Who now owns the dog")
            )
            self.on = self.fields.add("on", "&Date of the change:", OptionalDateEdit("Toda&y"))
        else:
            self.reason = self.fields.add("reason", "&Reason:", QPlainTextEdit())
            self.reason.setTabChangesFocus(True)

    def confirmation_text(self) -> str:
        """The question Replace asks: the dog, the owner, the tags and the money."""
        v = self.view
        paid = self.paid.text().strip()
        fee = replacement_fee(self.ctx.profile)
        if paid:
            money_line = f"Paid {paid if paid.startswith('$') else '$' + paid} by "
            money_line += f"{self.method.currentText().lower()}."
        elif fee:
            money_line = f"Paid {money(fee)} by {self.method.currentText().lower()}."
        else:
            money_line = "No fee: the jurisdiction sets none for a replacement tag."
        return (
            f"Replace lost tag {v.tag_number} ({v.licence_year}) with new tag "
            f"{self.tag.text().strip().upper()}?\n\n"
            f"Dog: {v.animal_name} #{v.animal_id}\nOwner: {v.owner_name} #{v.owner_id}\n"
            f"{money_line}\n\nTag {v.tag_number} is never issued again for {v.licence_year}."
        )

    def confirm_save(self) -> bool:
        if self.kind == "replace":
            if not self.tag.text().strip():
                return True  # refused beside the field, nothing changed: nothing to ask
            return self.ctx.errors.confirm(
                self.confirmation_text(), "&Replace tag", "&Go back", self
            )
        if self.kind != "void":
            return True
        return self.ctx.errors.confirm(
            f"Void licence tag {self.view.tag_number} for {self.view.licence_year}? "
            "The dog will no longer show it as its licence.",
            "&Void licence",
            "&Keep it",
            self,
        )

    def save(self) -> None:
        if refused(self.ctx, self.banner, self.permission):
            return
        v, ctx = self.view, self.ctx
        if self.kind == "replace":
            self.save_with(
                replace_tag,
                ctx.db,
                ctx.actor,
                v.id,
                self.tag.text(),
                ctx.profile,
                version=v.version,
                paid_amount=self.paid.text().strip() or None,
                payment_method=self.method.currentData(),
                client_key=self.client_key,
            )
        elif self.kind == "transfer":
            self.save_with(
                transfer_licence,
                ctx.db,
                ctx.actor,
                v.id,
                self.owner.person_id(),
                ctx.profile,
                version=v.version,
                on=self.on.value(),
                client_key=self.client_key,
            )
        else:
            self.save_with(
                void_licence, ctx.db, ctx.actor, v.id, self.reason.toPlainText(), version=v.version
            )

    def _on_record_saved(self, view: LicenceView) -> None:
        self.ctx.bus.changed.emit("dog_licence", view.id)
        self.ctx.bus.changed.emit("animal", view.animal_id)
