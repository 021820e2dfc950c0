"""One permit: its record, the documents, its history; buttons do what the permit's state
allows and the role may (the services refuse too), each through a small form."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from fieldops.db.engine import Database
from fieldops.permissions import Permission
from fieldops.reports.base import PageDetails
from fieldops.reports.permit import non_renewal_notice, permit_pdf
from fieldops.services.history import record_history
from fieldops.services.permits.records import load_permit
from fieldops.services.permits.views import PermitView
from ui.account.gate import gate
from ui.common import documents as docs
from ui.common.cautions import CautionBanner
from ui.common.file_dialogs import DocumentInDatabaseFolderError
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.style import POUND_STYLE
from ui.common.table_models import ListTableModel
from ui.common.widgets import Banner, RecordTableView
from ui.context import AppContext
from ui.permits.action_dialogs import (
    AppealDialog,
    ChangeDialog,
    DecisionDialog,
    FancierRenewDialog,
    IncidentDialog,
    IssueDialog,
    ListUpdateDialog,
    NoticeDialog,
    ReviewDialog,
    RevokeDialog,
)
from ui.permits.record_view import record_html

Maker = Callable[[AppContext, PermitView, QWidget], QDialog]
Render = Callable[..., bytes]


def write_pdf(db: Database, render: Render, view: PermitView, path: str, d: PageDetails) -> str:
    docs.write_document(path, render(view, **d), db.folder)
    return path


class PermitDialog(docs.DocumentQuestions, QDialog):
    """The permit's record; reloads whenever anything changes it."""

    def __init__(self, ctx: AppContext, view: PermitView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("PermitDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setStyleSheet(POUND_STYLE)
        self.resize(1000, 720)
        self._view = view
        self.banner = Banner()
        self.cautions = CautionBanner(ctx)  # the holder's and at the permit's address, if any
        self.title = QLabel()
        self.title.setObjectName("PageHeading")
        self.title.setWordWrap(True)  # a long description wraps; the window stays on screen
        self.status_chip = QLabel()
        self.status_chip.setObjectName("StatusChip")
        self.record = QTextBrowser()
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.record, "Record")
        self.tabs.addTab(self.history_view, "History")
        self.issue_button = QPushButton("&Issue…")
        self.renew_button = QPushButton("&Renew…")
        self.revoke_button = QPushButton("Re&voke…")
        self.change_button = QPushButton("Note c&hange…")
        self.list_button = QPushButton("Update &list…")
        self.incident_button = QPushButton("Incid&ent…")
        self.review_button = QPushButton("Revie&w…")
        self.notice_button = QPushButton("&Mail notice…")
        self.appeal_button = QPushButton("&Appeal…")
        self.decide_button = QPushButton("&Decide appeal…")
        self.close_button = QPushButton("&Close")
        self.permit_pdf_button = QPushButton("Save &permit PDF…")
        self.notice_pdf_button = QPushButton("Save &notice PDF…")
        self.doc_status = QLabel()
        self.doc_status.setObjectName("FieldHint")
        self.doc_status.setWordWrap(True)
        self.action_buttons: list[tuple[QPushButton, Maker]] = [
            (self.issue_button, IssueDialog),
            (self.renew_button, self._renewal_dialog),
            (self.revoke_button, RevokeDialog),
            (self.change_button, ChangeDialog),
            (self.list_button, ListUpdateDialog),
            (self.incident_button, IncidentDialog),
            (self.review_button, ReviewDialog),
            (self.notice_button, NoticeDialog),
            (self.appeal_button, AppealDialog),
            (self.decide_button, DecisionDialog),
        ]
        buttons = QHBoxLayout()
        for b, maker in self.action_buttons:
            b.setAutoDefault(False)
            buttons.addWidget(b)
            b.clicked.connect(lambda _c=False, m=maker: self.act(m))
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.status_chip, 0, Qt.AlignmentFlag.AlignVCenter)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.cautions)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)
        documents = QHBoxLayout()
        for b in (self.permit_pdf_button, self.notice_pdf_button):
            b.setAutoDefault(False)
            documents.addWidget(b)
        documents.addWidget(self.doc_status, 1)
        layout.addLayout(documents)
        layout.addLayout(buttons)
        self.close_button.clicked.connect(self.close)
        self.permit_pdf_button.clicked.connect(self.save_permit)
        self.notice_pdf_button.clicked.connect(self.save_notice)
        self.ctx.bus.changed.connect(self._on_bus_changed)
        self.show_view(view)

    def permit_id(self) -> int:
        return self._view.id

    def view(self) -> PermitView:
        return self._view

    def show_view(self, v: PermitView) -> None:
        self._view = v
        self.cautions.load((v.holder_id,), (v.address,))
        self.setWindowTitle(f"{v.kind_label} #{v.id}: {v.holder}")
        self.title.setText(f"{v.kind_label} #{v.id}: {v.holder}, {v.address}")
        expired = v.status == "issued" and not v.in_force(self.ctx.today())
        self.status_chip.setText("Expired" if expired else v.status_label)
        self.record.setHtml(record_html(v))
        fancier = v.kind == "fancier"
        issued = v.status == "issued"
        states = {
            self.issue_button: (Permission.RECORDS, v.can_issue),
            self.renew_button: (Permission.RECORDS, v.can_renew),
            self.revoke_button: (Permission.NOTICES, v.can_revoke),
            self.change_button: (Permission.RECORDS, fancier and issued),
            self.list_button: (Permission.RECORDS, fancier and issued),
            self.incident_button: (Permission.RECORDS, v.status in ("issued", "appeal_pending")),
            self.review_button: (Permission.NOTICES, v.can_review),
            self.notice_button: (Permission.NOTICES, v.can_mail_notice),
            self.appeal_button: (Permission.NOTICES, v.can_appeal),
            self.decide_button: (Permission.NOTICES, v.can_decide_appeal),
        }
        self.permit_pdf_button.setEnabled(bool(v.issues))
        self.notice_pdf_button.setVisible(fancier)
        self.notice_pdf_button.setEnabled(v.adverse_review is not None)
        for button, (permission, state) in states.items():
            button.setVisible(fancier or button not in self._fancier_only())
            gate(self.ctx, button, permission, state)
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "permit",
            v.id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history_model.set_rows,
        )

    def _fancier_only(self) -> tuple[QPushButton, ...]:
        return (
            self.change_button,
            self.list_button,
            self.notice_button,
            self.appeal_button,
            self.decide_button,
        )

    def _renewal_dialog(self, ctx: AppContext, v: PermitView, parent: QWidget) -> QDialog:
        if v.kind == "chicken":
            from ui.permits.chicken_dialog import ChickenPermitDialog

            return ChickenPermitDialog(ctx, v, parent)
        return FancierRenewDialog(ctx, v, parent)

    def act(self, maker: Maker) -> QDialog:
        dialog = maker(self.ctx, self._view, self)
        saved = getattr(dialog, "saved", None)
        if saved is not None:
            saved.connect(self.show_view)
        dialog.show()
        return dialog

    def reload(self) -> None:
        self.ctx.tasks.run(
            load_permit,
            self.ctx.db,
            self._view.id,
            self.ctx.profile,
            owner=self,
            on_done=self.show_view,
        )

    def _on_bus_changed(self, entity: str, record_id: int) -> None:
        if entity == "permit" and record_id == self._view.id:
            self.reload()

    # -- documents (tests replace the asking) --------------------------------------

    def _page_details(self) -> PageDetails:
        return {
            "jurisdiction": self.ctx.jurisdiction,
            "tz": self.ctx.timezone,
            "printed_at": self.ctx.now(),
        }

    def save_permit(self) -> None:
        self._save(permit_pdf, f"permit-{self._view.id}.pdf")

    def save_notice(self) -> None:
        self._save(non_renewal_notice, f"permit-{self._view.id}-notice.pdf")

    def _save(self, render: Render, name: str) -> None:
        path = self.ask_save_path(name)
        if not path:
            return
        self.doc_status.setText("Writing the PDF…")
        self.ctx.tasks.run(
            write_pdf,
            self.ctx.db,
            render,
            self._view,
            path,
            self._page_details(),
            owner=self,
            on_done=lambda p: self.doc_status.setText(f"Saved {p}"),
            on_error=self._on_doc_failed,
        )

    def _on_doc_failed(self, exc: BaseException) -> bool:
        if isinstance(exc, DocumentInDatabaseFolderError):
            self.doc_status.setText(str(exc))
            return True
        if isinstance(exc, OSError):
            self.doc_status.setText(f"Nothing was written: {exc.strerror or exc}.")
            return True
        self.doc_status.setText("The PDF was not made because of an error in FieldOps.")
        return False
