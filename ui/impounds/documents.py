"""The documents tab: the intake photo, and the receipt and record sheet as PDF.

A PDF is rendered and written by a task (ReportLab takes a moment), then
opened in the system's viewer; under test (a non-interactive error router)
nothing is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.reports.impound import impound_record_sheet, release_receipt
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import Photo, get_photo
from ui.context import AppContext

RELEASES = ("reclaimed", "adopted")
Render = Callable[..., bytes]


def write_pdf(render: Render, view: ImpoundView, path: str, **kwargs: object) -> str:
    """Render and write a PDF (in a task); returns the path written."""
    Path(path).write_bytes(render(view, **kwargs))
    return path


class DocumentsWidget(QWidget):
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
        print_heading = QLabel("Print")
        print_heading.setObjectName("SectionHeading")
        self.receipt_button = QPushButton("Rele&ase receipt (PDF)…")
        self.sheet_button = QPushButton("Record &sheet, 58-528 (PDF)…")
        for b in (self.receipt_button, self.sheet_button):
            b.setAutoDefault(False)
        self.status = QLabel()
        self.status.setObjectName("FieldHint")
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.receipt_button)
        buttons.addWidget(self.sheet_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(print_heading)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addSpacing(12)
        layout.addWidget(photo_heading)
        layout.addWidget(self.photo, 1)
        self.receipt_button.clicked.connect(self._on_receipt_button_clicked)
        self.sheet_button.clicked.connect(self._on_sheet_button_clicked)

    def show_view(self, v: ImpoundView) -> None:
        self._view = v
        released = v.disposition is not None and v.disposition.kind in RELEASES
        self.receipt_button.setEnabled(released)
        self.receipt_button.setToolTip("" if released else
                                       "Only an animal released to a person has a receipt.")
        if v.has_photo and self._photo_for != v.id:
            self._photo_for = v.id
            self.photo.setText("Loading the photo…")
            self.ctx.tasks.run(get_photo, self.ctx.db, v.id, owner=self, on_done=self._set_photo)

    def _set_photo(self, photo: Photo | None) -> None:
        pixmap = QPixmap()
        if photo is None or not pixmap.loadFromData(QByteArray(photo.content)):
            self.photo.setText("The photo could not be shown.")
            return
        self.photo.setPixmap(pixmap.scaled(420, 320, Qt.AspectRatioMode.KeepAspectRatio,
                                           Qt.TransformationMode.SmoothTransformation))
        self.photo.setToolTip(photo.filename)

    # -- PDFs ------------------------------------------------------------

    def save_receipt(self) -> None:
        self._save(release_receipt, f"release-receipt-{self._view.id}.pdf")

    def save_record_sheet(self) -> None:
        self._save(impound_record_sheet, f"impound-record-{self._view.id}.pdf")

    def _save(self, render: Render, name: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save PDF", str(Path.home() / name),
                                              "PDF documents (*.pdf)")
        if not path or self._view is None:
            return
        self.status.setText("Writing the PDF…")
        self.ctx.tasks.run(write_pdf, render, self._view, path, jurisdiction=self.ctx.jurisdiction,
                           tz=self.ctx.timezone, printed_at=self.ctx.now(), owner=self,
                           on_done=self._on_pdf_written, on_error=self._on_pdf_failed)

    def _on_pdf_written(self, path: str) -> None:
        self.status.setText(f"Saved {path}")
        if self.ctx.errors.interactive:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def _on_pdf_failed(self, _exc: BaseException) -> bool:
        self.status.setText("The PDF was not written.")
        return False  # the router says why

    def _on_receipt_button_clicked(self) -> None:
        self.save_receipt()

    def _on_sheet_button_clicked(self) -> None:
        self.save_record_sheet()
