"""One vicious-animal case: the record, notices and follow-up, the notice document, history.

Buttons do what the case's state allows (the view says which); each opens a small form,
and the case reloads from the service's answer. The countdown to the notice's deadline
is repainted every half minute.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import Qt, QTimer, QUrl
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
from fieldops.reports.vicious import vicious_notice
from fieldops.rules import vicious as rules
from fieldops.services.history import record_history
from fieldops.services.vicious.cases import load_case
from fieldops.services.vicious.listing import countdown_text
from fieldops.services.vicious.views import CaseView
from ui.account.gate import gate
from ui.common import documents as docs
from ui.common.cautions import CautionBanner
from ui.common.file_dialogs import DocumentInDatabaseFolderError
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.style import POUND_STYLE
from ui.common.table_models import ListTableModel
from ui.common.widgets import Banner, RecordTableView
from ui.context import AppContext
from ui.modules import open_record
from ui.vicious.action_dialogs import (
    CaseActionDialog,
    EndingDialog,
    NoticeDialog,
    OutcomeDialog,
    StepDialog,
    StepDoneDialog,
)
from ui.vicious.case_view import follow_up_html, parse_record_link, record_html

A = TypeVar("A", bound=CaseActionDialog)


def render_notice(view: CaseView, details: PageDetails) -> bytes:
    return vicious_notice(view, **details)


def write_notice(db: Database, view: CaseView, path: str, details: PageDetails) -> str:
    docs.write_document(path, render_notice(view, details), db.folder)
    return path


def open_notice(db: Database, view: CaseView, details: PageDetails) -> str:
    return str(
        docs.viewing_copy(render_notice(view, details), f"vicious-notice-{view.id}.pdf", db.folder)
    )


def print_notice(view: CaseView, job: docs.PrintJob, details: PageDetails) -> str:
    return docs.send_to_printer(render_notice(view, details), job)


class CaseDialog(docs.DocumentQuestions, QDialog):
    """The case's record; reloads whenever anything changes it."""

    save_dialog_title = "Save the notice"

    def __init__(self, ctx: AppContext, view: CaseView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("CaseDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setStyleSheet(POUND_STYLE)
        self.resize(1080, 760)
        self._view = view
        self.banner = Banner()
        self.cautions = CautionBanner(ctx)  # the owner's and at their address, if any
        self.title = QLabel()
        self.title.setObjectName("PageHeading")
        self.title.setWordWrap(True)  # a long description wraps; the window stays on screen
        self.status_chip = QLabel()
        self.status_chip.setObjectName("StatusChip")
        self.countdown = QLabel()
        self.countdown.setObjectName("Countdown")
        self.countdown.setWordWrap(True)
        self.record = QTextBrowser()
        self.record.setOpenLinks(False)  # a linked incident opens in its module's dialog
        self.follow_up = QTextBrowser()
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.documents = QWidget()
        self.save_pdf_button = QPushButton("Sa&ve notice PDF…")
        self.print_button = QPushButton("&Print notice…")
        self.open_pdf_button = QPushButton("Op&en notice")
        self.doc_status = QLabel()
        self.doc_status.setObjectName("FieldHint")
        self.doc_status.setWordWrap(True)
        dl = QVBoxLayout(self.documents)
        dl.addWidget(
            QLabel(
                "The written notice to destroy or remove the animal (58-524(c)(2)), "
                "with the ordinance text and a certificate of service to fill in."
            )
        )
        row = QHBoxLayout()
        for b in (self.save_pdf_button, self.print_button, self.open_pdf_button):
            b.setAutoDefault(False)
            row.addWidget(b)
        row.addStretch(1)
        dl.addLayout(row)
        dl.addWidget(self.doc_status)
        dl.addStretch(1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.record, "&Record")
        self.tabs.addTab(self.follow_up, "Notices and &follow-up")
        self.tabs.addTab(self.documents, "&Documents")
        self.tabs.addTab(self.history_view, "&History")
        self.notice_button = QPushButton("Serve &notice…")
        self.outcome_button = QPushButton("Record &outcome…")
        self.step_button = QPushButton("Add next &step…")
        self.step_done_button = QPushButton("Step &taken…")
        self.end_button = QPushButton("&Withdraw or overturn…")
        self.end_button.setToolTip(
            "A supervisor records a withdrawal or a court's or appeal's "
            "decision; the declaration stays on record"
        )
        self.close_button = QPushButton("&Close")
        buttons = QHBoxLayout()
        for b in (
            self.notice_button,
            self.outcome_button,
            self.step_button,
            self.step_done_button,
            self.end_button,
        ):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.status_chip, 0, Qt.AlignmentFlag.AlignVCenter)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.cautions)
        layout.addLayout(top)
        layout.addWidget(self.countdown)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        self.timer = QTimer(self)
        self.timer.setInterval(30_000)
        self.timer.timeout.connect(self._show_countdown)
        self.timer.start()
        self.notice_button.clicked.connect(lambda: self._act(NoticeDialog))
        self.outcome_button.clicked.connect(lambda: self._act(OutcomeDialog))
        self.step_button.clicked.connect(lambda: self._act(StepDialog))
        self.step_done_button.clicked.connect(lambda: self._act(StepDoneDialog))
        self.end_button.clicked.connect(lambda: self._act(EndingDialog))
        self.close_button.clicked.connect(self.close)
        self.record.anchorClicked.connect(self._on_record_anchor_clicked)
        self.save_pdf_button.clicked.connect(self.save_notice)
        self.print_button.clicked.connect(self.print_notice)
        self.open_pdf_button.clicked.connect(self.open_notice)
        self.ctx.bus.changed.connect(self._on_bus_changed)
        self.show_view(view)

    def case_id(self) -> int:
        return self._view.id

    def view(self) -> CaseView:
        return self._view

    def _on_record_anchor_clicked(self, url: QUrl) -> None:
        found = parse_record_link(url.toString())
        if found is not None and not open_record(self.ctx, *found, self):
            self.ctx.errors.tell(
                "That record's module is not installed: the incident is kept as described.",
                self,
            )

    # -- showing -------------------------------------------------------------

    def show_view(self, v: CaseView) -> None:
        self._view = v
        self.cautions.load((v.owner_id,), (v.owner_address,))
        self.setWindowTitle(f"Vicious-animal case #{v.id}: {v.animal}")
        self.title.setText(f"Case #{v.id}: {v.animal}")
        self.status_chip.setText(v.status_label)
        self.status_chip.setProperty("kind", "closed" if not v.declared else "hold")
        self.status_chip.style().unpolish(self.status_chip)
        self.status_chip.style().polish(self.status_chip)
        self.record.setHtml(record_html(self.ctx, v))
        self.follow_up.setHtml(follow_up_html(self.ctx, v))
        # What the case's state allows, and only what the role may (the services refuse too).
        gate(self.ctx, self.notice_button, Permission.NOTICES, v.can_serve)
        gate(self.ctx, self.outcome_button, Permission.VICIOUS_CASES, v.can_record_outcome)
        gate(self.ctx, self.step_button, Permission.VICIOUS_CASES, v.can_add_step)
        gate(
            self.ctx,
            self.step_done_button,
            Permission.VICIOUS_CASES,
            any(s.done_on is None for s in v.steps),
        )
        gate(self.ctx, self.end_button, Permission.OVERRIDES, v.can_end)
        for b in (self.save_pdf_button, self.print_button, self.open_pdf_button):
            b.setEnabled(v.declared)
        self.doc_status.setText(
            "" if v.declared else "No notice: the animal is not declared vicious in this case."
        )
        self._show_countdown()
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "vicious_case",
            v.id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history_model.set_rows,
        )

    def _show_countdown(self) -> None:
        v = self._view
        n = v.notice
        if v.status == "served" and n is not None:
            now = self.ctx.now()
            left = countdown_text(n.deadline, now)
            if rules.notice_expired(n.deadline, now):
                self.countdown.setText(
                    f"The notice expired {n.deadline_text} ({left}): record the outcome."
                )
                self.countdown.setStyleSheet("color: #a4161a;")
            else:
                self.countdown.setText(f"Destroy or remove by {n.deadline_text} ({left}).")
                self.countdown.setStyleSheet("")
            self.countdown.setToolTip(n.deadline_why)
        elif v.status == "declared":
            self.countdown.setText(
                f"Declared: serve the written notice; the {v.notice_hours} hours run from service."
            )
        else:
            self.countdown.setText(v.status_label)

    def reload(self) -> None:
        self.ctx.tasks.run(
            load_case,
            self.ctx.db,
            self._view.id,
            self.ctx.profile,
            owner=self,
            on_done=self.show_view,
        )

    def _on_bus_changed(self, entity: str, record_id: int) -> None:
        if entity == "vicious_case" and record_id == self._view.id:
            self.reload()

    def _act(self, dialog_class: Callable[[AppContext, CaseView, QWidget], A]) -> A:
        dialog = dialog_class(self.ctx, self._view, self)
        dialog.saved.connect(self.show_view)
        dialog.show()
        return dialog

    # -- the notice document (tests replace the asking) ---------------------------

    def _page_details(self) -> PageDetails:
        return {
            "jurisdiction": self.ctx.jurisdiction,
            "tz": self.ctx.timezone,
            "printed_at": self.ctx.now(),
        }

    def save_notice(self) -> None:
        path = self.ask_save_path(f"vicious-notice-{self._view.id}.pdf")
        if path:
            self.doc_status.setText("Writing the PDF…")
            self.ctx.tasks.run(
                write_notice,
                self.ctx.db,
                self._view,
                path,
                self._page_details(),
                owner=self,
                on_done=lambda p: self.doc_status.setText(f"Saved {p}"),
                on_error=self._on_doc_failed,
            )

    def print_notice(self) -> None:
        job = self.ask_printer(f"Vicious-animal notice, case no. {self._view.id}")
        if job is None:
            return
        self.doc_status.setText("Sending the notice to the printer…")
        self.ctx.tasks.run(
            print_notice,
            self._view,
            job,
            self._page_details(),
            owner=self,
            on_done=lambda said: self.doc_status.setText(f"Sent to the printer. {said}".strip()),
            on_error=self._on_doc_failed,
        )

    def open_notice(self) -> None:
        self.doc_status.setText("Preparing the PDF…")
        self.ctx.tasks.run(
            open_notice,
            self.ctx.db,
            self._view,
            self._page_details(),
            owner=self,
            on_done=self._on_copy_ready,
            on_error=self._on_doc_failed,
        )

    def _on_copy_ready(self, path: str) -> None:
        self.doc_status.setText(f"Opened {Path(path).name} in the PDF viewer.")
        self.open_in_viewer(path)

    def _on_doc_failed(self, exc: BaseException) -> bool:
        if isinstance(exc, DocumentInDatabaseFolderError | docs.PrintingError):
            self.doc_status.setText(str(exc))
            return True
        if isinstance(exc, OSError):
            self.doc_status.setText(f"Nothing was written: {exc.strerror or exc}.")
            return True
        self.doc_status.setText("The notice was not made because of an error in FieldOps.")
        return False
