"""The print dialog for reports, its page setup remembered.

One printer setup for the session (the dialog opens as it was left: printer,
copies, two-sided, orientation), and the printer and two-sided choice kept in
QSettings for the next session. The PDF itself goes to the print service
(``ui.common.documents.send_to_printer``), as every FieldOps document does.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtGui import QPageLayout
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QWidget

from ui.common.documents import PrintJob, ask_printer

SETTINGS_GROUP = "reports/print"
_printer: QPrinter | None = None


def settings() -> QSettings:
    """Where the setup is kept between sessions (tests point it at a file of their own)."""
    return QSettings()


def session_printer() -> QPrinter:
    """The reports' printer setup, made once a session from the settings kept last time."""
    global _printer
    if _printer is None:
        _printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        kept = settings()
        name = kept.value(f"{SETTINGS_GROUP}/printer", "")
        if isinstance(name, str) and name:
            _printer.setPrinterName(name)
        duplex = kept.value(f"{SETTINGS_GROUP}/duplex", -1)
        try:
            duplex_value = int(str(duplex))
        except ValueError:
            duplex_value = -1
        if duplex_value >= 0:
            _printer.setDuplex(QPrinter.DuplexMode(duplex_value))
        if kept.value(f"{SETTINGS_GROUP}/orientation", "") == "landscape":
            _printer.setPageOrientation(QPageLayout.Orientation.Landscape)
    return _printer


def remember(printer: QPrinter) -> None:
    kept = settings()
    kept.setValue(f"{SETTINGS_GROUP}/printer", printer.printerName())
    kept.setValue(f"{SETTINGS_GROUP}/duplex", printer.duplex().value)
    landscape = printer.pageLayout().orientation() == QPageLayout.Orientation.Landscape
    kept.setValue(f"{SETTINGS_GROUP}/orientation", "landscape" if landscape else "portrait")
    kept.sync()


def ask_report_printer(parent: QWidget | None, title: str) -> PrintJob | None:
    """Qt's print dialog over the session's setup; the job, or None when cancelled."""
    printer = session_printer()
    job = ask_printer(parent, title, printer)
    if job is not None:
        remember(printer)  # the next report starts from the setup just chosen
    return job
