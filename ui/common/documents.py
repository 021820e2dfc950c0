"""A rendered document (PDF bytes) saved, opened in the system's viewer, or printed.

Every write goes through ``write_document``: all or nothing
(``fieldops.files.write_whole_file``), and never into the database's folder.
A copy to open goes to a private temporary folder.

Printing sends the PDF itself to the printer chosen in Qt's print dialog,
through the system's print service (CUPS ``lp``, which takes PDF as it is),
so the paper matches the saved PDF exactly. Qt cannot draw a PDF onto a
printer without its QtPdf module, which the installed Qt set does not have,
and adding it (or a rasteriser) would be a new dependency for the installer.
The dialog's "print to file" is switched off: Save PDF does that, and its
file chooser is Qt's stock dialog, which reads the files it lists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtPrintSupport import QAbstractPrintDialog, QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QWidget

from fieldops.errors import UserError
from fieldops.files import write_whole_file
from ui.common.file_dialogs import ask_save_path, refuse_database_folder

if TYPE_CHECKING:  # pragma: no cover
    from ui.context import AppContext

LP_TIMEOUT_S = 120


class PrintingError(UserError):
    """The document could not be handed to the printer."""

    code = "printing"


def write_document(path: str | os.PathLike[str], content: bytes, db_folder: Path | None) -> Path:
    """Write a document all or nothing; refused in the database's folder (run in a task)."""
    refuse_database_folder(path, db_folder)
    return write_whole_file(path, content)


_viewing_folder: Path | None = None


def viewing_copy(content: bytes, name: str, db_folder: Path | None) -> Path:
    """A copy of the document for the system's viewer, in a folder of this session's own.

    The viewer reads the file after this returns, so it is left for the system
    to clear with the rest of the temporary folder.
    """
    global _viewing_folder
    if _viewing_folder is None or not _viewing_folder.is_dir():
        _viewing_folder = Path(tempfile.mkdtemp(prefix="fieldops-documents-"))
    return write_document(_viewing_folder / Path(name).name, content, db_folder)


@dataclass(frozen=True)
class PrintJob:
    """What the print dialog chose, as the print service takes it."""

    printer: str = ""  # "" = the system's default printer
    copies: int = 1
    sides: str = ""  # "one-sided", "two-sided-long-edge", ...; "" = the printer's default
    pages: str = ""  # e.g. "2-3"; "" = every page
    title: str = "FieldOps document"

    def command(self, lp: str = "lp") -> list[str]:
        cmd = [lp]
        if self.printer:
            cmd += ["-d", self.printer]
        cmd += ["-n", str(max(1, self.copies)), "-t", self.title]
        if self.sides:
            cmd += ["-o", f"sides={self.sides}"]
        if self.pages:
            cmd += ["-P", self.pages]
        return cmd  # no file named: lp reads the document from its input


def send_to_printer(content: bytes, job: PrintJob) -> str:
    """Hand the PDF to the print service (run in a task); returns what the service said."""
    lp = shutil.which("lp")
    if lp is None:
        raise PrintingError(
            "Nothing was printed: this computer has no print service (CUPS, command "
            '"lp"). Use Open to print from the PDF viewer, or save the PDF.'
        )
    try:
        done = subprocess.run(
            job.command(lp), input=content, capture_output=True, timeout=LP_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise PrintingError(
            f"Nothing was confirmed printed: the print service did not answer within "
            f"{LP_TIMEOUT_S} seconds. Check the printer's queue before printing again."
        ) from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip() or f"exit status {done.returncode}"
        where = job.printer or "the default printer"
        raise PrintingError(f"Nothing was printed on {where}: {said}")
    return done.stdout.decode(errors="replace").strip()


_SIDES = {
    QPrinter.DuplexMode.DuplexNone: "one-sided",
    QPrinter.DuplexMode.DuplexLongSide: "two-sided-long-edge",
    QPrinter.DuplexMode.DuplexShortSide: "two-sided-short-edge",
}


def print_job_from(printer: QPrinter, title: str) -> PrintJob:
    pages = ""
    if printer.printRange() == QPrinter.PrintRange.PageRange and printer.fromPage() > 0:
        first, last = printer.fromPage(), max(printer.fromPage(), printer.toPage())
        pages = f"{first}-{last}"
    return PrintJob(
        printer=printer.printerName(),
        copies=printer.copyCount(),
        sides=_SIDES.get(printer.duplex(), ""),
        pages=pages,
        title=title,
    )


def ask_printer(
    parent: QWidget | None, title: str, printer: QPrinter | None = None
) -> PrintJob | None:
    """Qt's print dialog (over ``printer``'s setup when given); the printer, copies, sides
    and pages chosen, or None if cancelled."""
    printer = printer or QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(title)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(f"Print {title}")
    dialog.setOption(QAbstractPrintDialog.PrintDialogOption.PrintToFile, False)
    dialog.setOption(QAbstractPrintDialog.PrintDialogOption.PrintSelection, False)
    dialog.setOption(QAbstractPrintDialog.PrintDialogOption.PrintPageRange, True)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return print_job_from(printer, title)


class DocumentQuestions:
    """The three questions a record's document buttons ask, for a QWidget with ``ctx``:
    where to save (never the database's folder), which printer, and showing a viewing
    copy. Tests replace these three methods; the buttons' logic stays the widget's own."""

    ctx: AppContext
    save_dialog_title = "Save PDF"

    def ask_save_path(self, suggested_name: str) -> str:
        """Where to save the PDF; "" when the user cancels."""
        parent = cast(QWidget, self)
        return ask_save_path(
            parent,
            self.save_dialog_title,
            suggested_name,
            self.ctx.db.folder,
            lambda message: self.ctx.errors.tell(message, parent),
        )

    def ask_printer(self, title: str) -> PrintJob | None:
        """The printer and copies chosen in Qt's print dialog; None when cancelled."""
        return ask_printer(cast(QWidget, self), title)

    def open_in_viewer(self, path: str) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(path))
