"""The documents tab: the intake photo, and the receipt and record sheet as PDF.

Each document can be saved (where the user chooses, never in the database's
folder), printed (Qt's print dialog, then the print service), or opened in
the system's PDF viewer (from a private temporary copy). Rendering, writing
and printing run in tasks; the dialogs are methods tests replace, so a test
never opens a real one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TypedDict

from PySide6.QtCore import QByteArray, QObject, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.db.engine import Database
from fieldops.reports.impound import impound_record_sheet, release_receipt
from fieldops.rules.release import RELEASE_KINDS
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import Photo, get_photo
from fieldops.services.staff import list_staff
from ui.common import documents as docs
from ui.common.file_dialogs import DocumentInDatabaseFolderError
from ui.context import AppContext
from ui.tasks import ErrorCallback

RELEASES = RELEASE_KINDS
Render = Callable[..., bytes]


@dataclass(frozen=True)
class Kind:
    """One printable document of the record."""

    key: str
    title: str
    render: Render
    file_stem: str

    def file_name(self, view: ImpoundView) -> str:
        return f"{self.file_stem}-{view.id}.pdf"


RECEIPT = Kind("receipt", "Release receipt", release_receipt, "release-receipt")
SHEET = Kind("sheet", "Record sheet, 58-528", impound_record_sheet, "impound-record")


def staff_names(db: Database) -> Mapping[str, str]:
    """Login name -> the staff member's full name, for the names printed on documents."""
    return {s.username: s.full_name for s in list_staff(db) if s.full_name.strip()}


def render_pdf(db: Database, render: Render, view: ImpoundView, **kwargs: object) -> bytes:
    """Render a document of the record with the staff's names (in a task)."""
    return render(view, staff_names=staff_names(db), **kwargs)


def write_pdf(db: Database, render: Render, view: ImpoundView, path: str, **kwargs: object) -> str:
    """Render and write a PDF where the user chose (in a task); returns the path written."""
    docs.write_document(path, render_pdf(db, render, view, **kwargs), db.folder)
    return path


def open_copy(db: Database, render: Render, view: ImpoundView, name: str, **kwargs: object) -> str:
    """Render a PDF into a temporary copy for the viewer (in a task); returns its path."""
    return str(docs.viewing_copy(render_pdf(db, render, view, **kwargs), name, db.folder))


def print_pdf(
    db: Database, render: Render, view: ImpoundView, job: docs.PrintJob, **kwargs: object
) -> str:
    """Render a PDF and hand it to the printer (in a task); returns what the service said."""
    return docs.send_to_printer(render_pdf(db, render, view, **kwargs), job)


class _DocumentArgs(TypedDict):
    """What every document task is given: the page's details, and the task's owner."""

    jurisdiction: str
    tz: tzinfo
    printed_at: datetime
    owner: QObject
    on_error: ErrorCallback


class DocumentsWidget(docs.DocumentQuestions, QWidget):
    """The photo taken at intake and the printable documents of the record."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._view: ImpoundView | None = None
        self._photo_for: int | None = None
        photo_heading = QLabel("Photo")
        photo_heading.setObjectName("SectionHeading")
        self.photo = QLabel("No photo was taken at intake.")
        self.photo.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.photo.setMinimumHeight(200)
        print_heading = QLabel("Documents")
        print_heading.setObjectName("SectionHeading")
        grid = QGridLayout()
        grid.setColumnStretch(4, 1)
        self.receipt_button, self.receipt_print_button, self.receipt_open_button = (
            self._document_row(grid, 0, RECEIPT, "&Save PDF…", "&Print…", "Op&en")
        )
        self.sheet_button, self.sheet_print_button, self.sheet_open_button = self._document_row(
            grid, 1, SHEET, "Sa&ve PDF…", "Print…", "Ope&n"
        )
        self.status = QLabel()
        self.status.setObjectName("FieldHint")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(print_heading)
        layout.addLayout(grid)
        layout.addWidget(self.status)
        layout.addSpacing(12)
        layout.addWidget(photo_heading)
        layout.addWidget(self.photo, 1)

    def _document_row(
        self, grid: QGridLayout, row: int, kind: Kind, save: str, print_: str, open_: str
    ) -> tuple[QPushButton, QPushButton, QPushButton]:
        grid.addWidget(QLabel(kind.title), row, 0)
        buttons = (QPushButton(save), QPushButton(print_), QPushButton(open_))
        actions = (self.save_document, self.print_document, self.open_document)
        for column, (button, action) in enumerate(zip(buttons, actions, strict=True), 1):
            button.setAutoDefault(False)
            button.setAccessibleName(f"{button.text().replace('&', '')} {kind.title}")
            button.clicked.connect(lambda _=False, a=action, k=kind: a(k))
            grid.addWidget(button, row, column)
        return buttons

    def show_view(self, v: ImpoundView) -> None:
        self._view = v
        released = v.disposition is not None and v.disposition.kind in RELEASES
        for b in (self.receipt_button, self.receipt_print_button, self.receipt_open_button):
            b.setEnabled(released)
            b.setToolTip("" if released else "Only an animal released to a person has a receipt.")
        if v.has_photo and self._photo_for != v.id:
            self._photo_for = v.id
            self.photo.setText("Loading the photo…")
            self.ctx.tasks.run(get_photo, self.ctx.db, v.id, owner=self, on_done=self._set_photo)

    def _set_photo(self, photo: Photo | None) -> None:
        pixmap = QPixmap()
        if photo is None or not pixmap.loadFromData(QByteArray(photo.content)):
            self.photo.setText("The photo could not be shown.")
            return
        self.photo.setPixmap(
            pixmap.scaled(
                420,
                320,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        )
        self.photo.setToolTip(photo.filename)

    # -- what tests replace -------------------------------------------------

    # -- the three actions --------------------------------------------------

    def _document_args(self) -> _DocumentArgs:
        return {
            "jurisdiction": self.ctx.jurisdiction,
            "tz": self.ctx.timezone,
            "printed_at": self.ctx.now(),
            "owner": self,
            "on_error": self._on_failed,
        }

    def save_receipt(self) -> None:
        self.save_document(RECEIPT)

    def save_record_sheet(self) -> None:
        self.save_document(SHEET)

    def save_document(self, kind: Kind) -> None:
        if self._view is None:
            return
        path = self.ask_save_path(kind.file_name(self._view))
        if not path:
            return
        self.status.setText("Writing the PDF…")
        self.ctx.tasks.run(
            write_pdf,
            self.ctx.db,
            kind.render,
            self._view,
            path,
            on_done=self._on_pdf_written,
            **self._document_args(),
        )

    def print_document(self, kind: Kind) -> None:
        if self._view is None:
            return
        title = f"{kind.title}, impoundment no. {self._view.id}"
        job = self.ask_printer(title)
        if job is None:
            return
        self.status.setText("Sending the document to the printer…")
        self.ctx.tasks.run(
            print_pdf,
            self.ctx.db,
            kind.render,
            self._view,
            job,
            on_done=lambda said: self._on_printed(job, said),
            **self._document_args(),
        )

    def open_document(self, kind: Kind) -> None:
        if self._view is None:
            return
        self.status.setText("Preparing the PDF…")
        self.ctx.tasks.run(
            open_copy,
            self.ctx.db,
            kind.render,
            self._view,
            kind.file_name(self._view),
            on_done=self._on_copy_ready,
            **self._document_args(),
        )

    def _on_pdf_written(self, path: str) -> None:
        self.status.setText(f"Saved {path}")

    def _on_printed(self, job: docs.PrintJob, said: str) -> None:
        where = job.printer or "the default printer"
        copies = f"{job.copies} copies" if job.copies > 1 else "1 copy"
        self.status.setText(f"Sent to {where} ({copies})." + (f" {said}" if said else ""))

    def _on_copy_ready(self, path: str) -> None:
        self.status.setText(f"Opened {Path(path).name} in the PDF viewer.")
        self.open_in_viewer(path)

    def _on_failed(self, exc: BaseException) -> bool:
        if isinstance(exc, DocumentInDatabaseFolderError | docs.PrintingError):
            self.status.setText(str(exc))  # said as written, beside the buttons
            return True
        if isinstance(exc, OSError):
            self.status.setText(
                f"Nothing was written: {exc.strerror or exc}. Choose another "
                "folder or free some disk space, then try again."
            )
            return True
        self.status.setText("The document was not made because of an error in FieldOps.")
        return False  # the router reports the bug
