"""The bite quarantine's documents on screen: Save PDF, Print and Open, as on the pound's record.

Each document is rendered in a task; Save writes it where the user chose (never into the
database's folder), Print hands the PDF itself to the chosen printer, Open shows a private
temporary copy in the system's viewer (``ui.common.documents``). Failures are said beside
the buttons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fieldops.errors import PermissionDeniedError
from fieldops.reports.quarantine import certification_form, quarantine_order
from fieldops.services.quarantine import QuarantineView
from fieldops.services.quarantine.record_copy import bite_record_pdf, export_bite_record
from ui.common import documents as docs
from ui.common.file_dialogs import DocumentInDatabaseFolderError
from ui.context import AppContext


@dataclass(frozen=True)
class Doc:
    """One printable document: its title, file name, and how it is rendered (in a task)."""

    key: str
    title: str
    file_name: str
    render: Callable[[], bytes]
    # An audited document: made and handed over (written, printed) in the unit of work
    # that audits its export, so a failed write or print leaves no event.
    deliver: Callable[[Callable[[bytes], str]], str] | None = None

    def hand_over(self, use: Callable[[bytes], str]) -> str:
        return self.deliver(use) if self.deliver is not None else use(self.render())


def render(ctx: AppContext, view: QuarantineView, which: str) -> bytes:
    fn = quarantine_order if which == "order" else certification_form
    return fn(view, jurisdiction=ctx.jurisdiction, tz=ctx.timezone, printed_at=ctx.now())


# The rows of the quarantine record's Documents tab, in order (``quarantine_documents``).
QUARANTINE_TITLES = (
    "Order of rabies quarantine (for the owner)",
    "Certification of quarantine",
    "Case record",
    "Public-records copy",
)


def case_record(ctx: AppContext, bite_report_id: int, *, redacted: bool) -> bytes:
    """The bite case's record, in full or as the public-records copy (issue 11): audited."""
    return bite_record_pdf(ctx.db, ctx.actor, bite_report_id, ctx.profile, redacted=redacted)


def _case_record_to(
    ctx: AppContext, bite_report_id: int, redacted: bool
) -> Callable[[Callable[[bytes], str]], str]:
    def deliver(use: Callable[[bytes], str]) -> str:
        return export_bite_record(
            ctx.db, ctx.actor, bite_report_id, ctx.profile, use, redacted=redacted
        )

    return deliver


def quarantine_documents(ctx: AppContext, view: QuarantineView) -> tuple[Doc, ...]:
    return (
        Doc(
            "order",
            "Order of rabies quarantine",
            f"quarantine-order-{view.id}.pdf",
            lambda: render(ctx, view, "order"),
        ),
        Doc(
            "certificate",
            "Certification of quarantine",
            f"certification-of-quarantine-{view.id}.pdf",
            lambda: render(ctx, view, "certificate"),
        ),
        Doc(
            "record",
            "Bite case record",
            f"bite-case-record-{view.bite.id}.pdf",
            lambda: case_record(ctx, view.bite.id, redacted=False),
            _case_record_to(ctx, view.bite.id, False),
        ),
        Doc(
            "public",
            "Bite case record, public-records copy",
            f"bite-case-record-{view.bite.id}-public-copy.pdf",
            lambda: case_record(ctx, view.bite.id, redacted=True),
            _case_record_to(ctx, view.bite.id, True),
        ),
    )


def _save(d: Doc, path: str, folder: Path | None) -> str:
    return d.hand_over(lambda pdf: str(docs.write_document(path, pdf, folder)))


def _print(d: Doc, job: docs.PrintJob) -> str:
    return d.hand_over(lambda pdf: docs.send_to_printer(pdf, job))


def _copy(d: Doc, name: str, folder: Path | None) -> str:
    return d.hand_over(lambda pdf: str(docs.viewing_copy(pdf, name, folder)))


# Alt letters per row (unique within the quarantine record and the week's schedule).
MNEMONICS = (("&Save PDF…", "Pr&int…", "&Open"), ("Sa&ve PDF…", "Prin&t…", "Ope&n"))


class DocumentButtons(docs.DocumentQuestions, QWidget):
    """A row of Save PDF / Print / Open for each document, and a status line."""

    def __init__(
        self, ctx: AppContext, titles: tuple[str, ...], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._docs: dict[str, Doc] = {}
        self.buttons: dict[str, tuple[QPushButton, QPushButton, QPushButton]] = {}
        grid = QGridLayout()
        grid.setColumnStretch(4, 1)
        self._keys: list[str] = []
        for row, title in enumerate(titles):
            grid.addWidget(QLabel(title), row, 0)
            texts = MNEMONICS[row] if row < len(MNEMONICS) else ("Save PDF…", "Print…", "Open")
            trio = (QPushButton(texts[0]), QPushButton(texts[1]), QPushButton(texts[2]))
            for column, (button, action) in enumerate(
                zip(
                    trio, (self.save_document, self.print_document, self.open_document), strict=True
                ),
                1,
            ):
                button.setAutoDefault(False)
                button.setAccessibleName(f"{button.text().replace('&', '')} {title}")
                button.clicked.connect(lambda _=False, a=action, r=row: a(self._keys[r]))
                grid.addWidget(button, row, column)
            self.buttons[title] = trio
        self.status = QLabel()
        self.status.setObjectName("FieldHint")
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(self.status)
        self._titles = titles

    def set_documents(self, documents: tuple[Doc, ...]) -> None:
        self._docs = {d.key: d for d in documents}
        self._keys = [d.key for d in documents]

    # -- what tests replace -------------------------------------------------

    # -- the three actions --------------------------------------------------

    def save_document(self, key: str) -> None:
        d = self._docs[key]
        path = self.ask_save_path(d.file_name)
        if not path:
            return
        self.status.setText("Writing the PDF…")
        self.ctx.tasks.run(
            _save,
            d,
            path,
            self.ctx.db.folder,
            owner=self,
            on_done=lambda p: self.status.setText(f"Saved {p}"),
            on_error=self._on_failed,
        )

    def print_document(self, key: str) -> None:
        d = self._docs[key]
        job = self.ask_printer(d.title)
        if job is None:
            return
        self.status.setText("Sending the document to the printer…")
        self.ctx.tasks.run(
            _print,
            d,
            job,
            owner=self,
            on_done=lambda said: self._on_printed(job, said),
            on_error=self._on_failed,
        )

    def open_document(self, key: str) -> None:
        d = self._docs[key]
        self.status.setText("Preparing the PDF…")
        self.ctx.tasks.run(
            _copy,
            d,
            d.file_name,
            self.ctx.db.folder,
            owner=self,
            on_done=self._on_copy_ready,
            on_error=self._on_failed,
        )

    def _on_printed(self, job: docs.PrintJob, said: str) -> None:
        where = job.printer or "the default printer"
        copies = f"{job.copies} copies" if job.copies > 1 else "1 copy"
        self.status.setText(f"Sent to {where} ({copies})." + (f" {said}" if said else ""))

    def _on_copy_ready(self, path: str) -> None:
        self.status.setText(f"Opened {Path(path).name} in the PDF viewer.")
        self.open_in_viewer(path)

    def _on_failed(self, exc: BaseException) -> bool:
        if isinstance(
            exc, DocumentInDatabaseFolderError | docs.PrintingError | PermissionDeniedError
        ):
            self.status.setText(str(exc))
            return True
        if isinstance(exc, OSError):
            self.status.setText(
                f"Nothing was written: {exc.strerror or exc}. Choose another "
                "folder or free some disk space, then try again."
            )
            return True
        self.status.setText("The document was not made because of an error in FieldOps.")
        return False
