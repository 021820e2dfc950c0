"""One dog licence: its facts, the fee and payment, its history, and what may be done
with it (renew, replace a lost tag, transfer, void, save the certificate)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.services.history import HistoryLine, record_history
from fieldops.services.licences.documents import certificate_pdf
from fieldops.services.licences.views import LicenceView, get_licence
from ui.account.gate import gate
from ui.common import documents as docs
from ui.common.cautions import CautionBanner
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.table_models import ListTableModel
from ui.common.text import day, escape_html, money, when
from ui.common.widgets import Banner
from ui.context import AppContext


def licence_history(ctx: AppContext, licence_id: int) -> tuple[HistoryLine, ...]:
    """The licence's events and those of the licences it follows (renewed, replaced,
    transferred), newest first."""
    lines: list[HistoryLine] = []
    seen: set[int] = set()
    current: int | None = licence_id
    while current is not None and current not in seen:
        seen.add(current)
        lines += record_history(ctx.db, "dog_licence", current, ctx.timezone)
        current = get_licence(ctx.db, current).previous_id
    return tuple(sorted(lines, key=lambda h: h.at, reverse=True))


class LicenceDialog(docs.DocumentQuestions, QDialog):
    save_dialog_title = "Save the licence certificate"

    def __init__(self, ctx: AppContext, view: LicenceView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("LicenceDialog")
        self.resize(820, 620)
        self.banner = Banner()
        self.cautions = CautionBanner(ctx)  # the owner's and at their address, if any
        self.facts = QLabel()
        self.facts.setWordWrap(True)
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history = QTableView()
        self.history.setModel(self.history_model)
        self.history.horizontalHeader().setStretchLastSection(False)
        self.history.horizontalHeader().setSectionResizeMode(
            HISTORY_SENTENCE_COLUMN, self.history.horizontalHeader().ResizeMode.Stretch
        )
        self.renew_button = QPushButton("Re&new…")
        self.replace_button = QPushButton("Replace lost &tag…")
        self.transfer_button = QPushButton("T&ransfer…")
        self.void_button = QPushButton("&Void…")
        self.certificate_button = QPushButton("&Save certificate…")
        actions = QHBoxLayout()
        for b in (
            self.renew_button,
            self.replace_button,
            self.transfer_button,
            self.void_button,
            self.certificate_button,
        ):
            b.setAutoDefault(False)
            actions.addWidget(b)
        actions.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText("&Close")
        history_label = QLabel("&History:")
        history_label.setBuddy(self.history)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.cautions)
        layout.addWidget(self.facts)
        layout.addLayout(actions)
        layout.addWidget(history_label)
        layout.addWidget(self.history, 1)
        layout.addWidget(buttons)
        buttons.rejected.connect(self.reject)
        self.renew_button.clicked.connect(self._on_renew_button_clicked)
        self.replace_button.clicked.connect(lambda: self._change("replace"))
        self.transfer_button.clicked.connect(lambda: self._change("transfer"))
        self.void_button.clicked.connect(lambda: self._change("void"))
        self.certificate_button.clicked.connect(self._on_certificate_button_clicked)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.show_view(view)

    def licence_id(self) -> int:
        return self.view.id

    def show_view(self, view: LicenceView) -> None:
        self.view = v = view
        self.cautions.load((v.owner_id,), (v.owner_address,))
        self.setWindowTitle(f"Dog licence {v.licence_year} · tag {v.tag_number}")
        fee = money(v.rate) + (" (half rate)" if v.half_rate else "")
        if v.late:
            fee += f" + late fee {money(v.late_fee)} (due by {day(v.due_by)})"
        rows = [
            ("Status", v.status_words + (f": {v.void_reason}" if v.void_reason else "")),
            ("Dog", f"{v.animal_name} {v.breed} {v.colour}".strip()),
            ("Microchip", v.microchip or "—"),
            ("Owner", f"{v.owner_name}, {v.owner_address}"),
            ("Licence", f"{v.licence_year}, tag {v.tag_number} ({v.origin_words})"),
            ("Fee", f"{fee}; total {money(v.total)}"),
            ("Paid", f"{money(v.paid_amount)} ({v.payment_method}), receipt {v.receipt_number}"),
            ("Rabies", f"{v.rabies_certificate or 'certificate'} of {day(v.rabies_vaccinated_on)}"),
            (
                "Issued",
                f"{when(self.ctx, v.issued_at)} "
                + (
                    f"at the pound (impoundment #{v.impoundment_id})"
                    if v.impoundment_id
                    else "at the counter"
                ),
            ),
        ]
        self.facts.setText(
            "<table>"
            + "".join(
                f"<tr><td><b>{escape_html(a)}</b>&nbsp;&nbsp;</td><td>{escape_html(b)}</td></tr>"
                for a, b in rows
            )
            + "</table>"
        )
        current = v.status == "current"
        for b in (self.replace_button, self.transfer_button):
            gate(self.ctx, b, Permission.LICENCES, current)
        gate(
            self.ctx,
            self.renew_button,
            Permission.LICENCES,
            current and v.licence_year < self.ctx.today().year + 1,
        )
        gate(self.ctx, self.void_button, Permission.CORRECTIONS, current)
        self.ctx.tasks.run(
            licence_history, self.ctx, v.id, owner=self, on_done=self.history_model.set_rows
        )

    def _change(self, kind: str) -> None:
        from ui.licences.change_dialogs import LicenceChangeDialog

        self.change_dialog = LicenceChangeDialog(self.ctx, self.view, kind, self)
        self.change_dialog.saved.connect(self.show_view)
        self.change_dialog.open()

    def _on_renew_button_clicked(self) -> None:
        from ui.licences.issue_dialog import IssueLicenceDialog

        self.renew_dialog = IssueLicenceDialog(self.ctx, self, renews=self.view)
        self.renew_dialog.saved.connect(self.show_view)
        self.renew_dialog.open()

    def _on_certificate_button_clicked(self) -> None:
        name = f"dog-licence-{self.view.licence_year}-{self.view.tag_number}.pdf"
        path = self.ask_save_path(name)
        if not path:
            return
        ctx, folder = self.ctx, self.ctx.db.folder

        def write() -> str:
            pdf = certificate_pdf(ctx.db, self.view.id, ctx.profile, ctx.actor.full_name)
            return str(docs.write_document(path, pdf, folder))

        ctx.tasks.run(
            write,
            owner=self,
            on_done=lambda p: self.banner.show_note(f"Saved {p}."),
            on_error=self._on_document_failed,
        )

    def _on_document_failed(self, exc: BaseException) -> bool:
        self.banner.show_error(f"The certificate was not saved: {exc}")
        return True

    def _on_bus_changed(self, entity: str, entity_id: int) -> None:
        if entity == "dog_licence" and entity_id == self.view.id and self.isVisible():
            self.ctx.tasks.run(
                get_licence, self.ctx.db, self.view.id, owner=self, on_done=self.show_view
            )
