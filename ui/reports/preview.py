"""A report's PDF pages as images, for the in-app preview (run in a task).

What draws the pages, the first that this computer has:

1. Qt's own PDF renderer (``PySide6.QtPdf``), when the installed Qt for Python
   has it. PySide6-Essentials 6.11, what FieldOps depends on today, does not:
   it comes with the ``pyside6-pdf`` package of the same version.
2. Poppler's ``pdftoppm`` (Debian ``poppler-utils``), the same renderer the PDF
   viewers of most Linux desktops use, run with a time limit.
3. Neither: no images, and the page says how to see the report instead (Save
   PDF, or the table of its rows).

ReportLab cannot draw a finished PDF (its bitmap renderer draws its own charts,
and needs a package FieldOps does not install either), so the preview draws the
very bytes that are saved and printed: what the supervisor sees is what is filed.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtGui import QImage

PREVIEW_DPI = 90
PDFTOPPM_TIMEOUT_S = 60


def renderer() -> str:
    """ "qtpdf", "pdftoppm" or "" (nothing on this computer draws a PDF)."""
    try:
        importlib.import_module("PySide6.QtPdf")
    except ImportError:
        pass
    else:
        return "qtpdf"
    return "pdftoppm" if shutil.which("pdftoppm") else ""


def render_pages(pdf: bytes, dpi: int = PREVIEW_DPI) -> list[QImage]:
    """Every page of ``pdf`` as an image at ``dpi``; [] when nothing here can draw one."""
    how = renderer()
    if how == "qtpdf":
        return _with_qtpdf(pdf, dpi)
    if how == "pdftoppm":
        return _with_pdftoppm(pdf, dpi)
    return []


def _with_qtpdf(pdf: bytes, dpi: int) -> list[QImage]:  # pragma: no cover (no QtPdf here)
    qtpdf = importlib.import_module("PySide6.QtPdf")
    doc = qtpdf.QPdfDocument()
    data = QByteArray(pdf)
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    doc.load(buffer)
    images = []
    for n in range(doc.pageCount()):
        size = doc.pagePointSize(n)
        px = QSize(round(size.width() * dpi / 72), round(size.height() * dpi / 72))
        images.append(doc.render(n, px))
    doc.close()
    return images


def _with_pdftoppm(pdf: bytes, dpi: int) -> list[QImage]:
    with tempfile.TemporaryDirectory(prefix="fieldops-preview-") as folder:
        source = Path(folder) / "report.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-png", "-r", str(dpi), str(source), str(Path(folder) / "page")],
            check=True,
            capture_output=True,
            timeout=PDFTOPPM_TIMEOUT_S,
        )
        pages = sorted(Path(folder).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [QImage(str(p)) for p in pages]
