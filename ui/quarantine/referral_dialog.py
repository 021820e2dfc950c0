"""A bite by an animal that is neither a dog nor a cat: the report and its referral to the
health officer (no quarantine under city code 58-527)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.permissions import Permission
from fieldops.services.quarantine import BiteView, get_bite
from ui.account.gate import gate
from ui.common.text import escape_html, when
from ui.context import AppContext
from ui.quarantine.event_dialogs import EventDialog
from ui.quarantine.private_contact import PrivateContact


class BiteReportDialog(QDialog):
    def __init__(self, ctx: AppContext, view: BiteView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx, self.view = ctx, view
        self.setObjectName("BiteReportDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(f"Bite report #{view.id}")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.refer_button = QPushButton("&Record referral…")
        close = QPushButton("&Close")
        close.clicked.connect(self.close)
        self.refer_button.clicked.connect(self.open_referral)
        row = QHBoxLayout()
        row.addWidget(self.refer_button)
        row.addStretch(1)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        self.contact = PrivateContact(ctx)
        layout.addWidget(self.contact)
        layout.addLayout(row)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.show_view(view)

    def show_view(self, b: BiteView) -> None:
        self.view = b
        e = escape_html
        sent = b.referral_sent
        self.text.setText(
            "<br>".join(
                [
                    f"<b>Bite #{b.id}</b>: {e(b.animal)} bit {e(b.victim_name)} at {e(b.place)}, "
                    f"{e(when(self.ctx, b.bitten_at))}.",
                    e(b.referral_why),
                    (
                        f"<b>Referred</b> to {e(sent.who)} on {e(when(self.ctx, sent.at))}."
                        if sent
                        else "<b>Not yet referred to the health officer.</b>"
                    ),
                ]
            )
        )
        gate(self.ctx, self.refer_button, Permission.BITE_REPORTS, sent is None)
        self.contact.set_report(b.id, b.has_victim_contact)

    def open_referral(self) -> EventDialog:
        dialog = EventDialog(self.ctx, self.view.id, "referral_sent", self)
        dialog.show()
        return dialog

    def _on_bus_changed(self, entity: str, record_id: int) -> None:
        if entity == "bite_report" and record_id == self.view.id:
            self.ctx.tasks.run(
                get_bite,
                self.ctx.db,
                self.view.id,
                self.ctx.profile,
                owner=self,
                on_done=self.show_view,
            )
