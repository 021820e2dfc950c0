"""The contact of the person bitten, hidden until asked for ("Show contact"): it is private to
the case, read through ``bite_victim_contact`` only when the officer needs it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from fieldops.permissions import Permission
from fieldops.services.quarantine import bite_victim_contact
from ui.account.gate import gate
from ui.context import AppContext


class PrivateContact(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._report_id: int | None = None
        caption = QLabel("<b>Contact of the person bitten (private to this case):</b>")
        self.value = QLabel()
        self.value.setTextFormat(Qt.TextFormat.PlainText)
        self.value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_button = QPushButton("Sho&w contact")
        self.show_button.setAutoDefault(False)
        self.show_button.clicked.connect(self._on_show_button_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(caption)
        row.addWidget(self.value)
        row.addWidget(self.show_button)
        row.addStretch(1)

    def set_report(self, report_id: int, has_contact: bool) -> None:
        """Hidden again whenever the record is shown afresh."""
        if report_id != self._report_id:
            self.value.setText("hidden" if has_contact else "none recorded")
        self._report_id = report_id
        self.show_button.setVisible(has_contact)
        # Read only by the role that records bites (the service refuses anyone else).
        gate(
            self.ctx,
            self.show_button,
            Permission.BITE_REPORTS,
            has_contact and self.value.text() == "hidden",
        )

    def _on_show_button_clicked(self) -> None:
        if self._report_id is None:
            return
        self.show_button.setEnabled(False)
        self.ctx.tasks.run(
            bite_victim_contact,
            self.ctx.db,
            self.ctx.actor,
            self._report_id,
            owner=self,
            on_done=self._on_contact_read,
        )

    def _on_contact_read(self, contact: str) -> None:
        self.value.setText(contact or "none recorded")
