"""Help > About: the app's version (pyproject.toml's, the one every document's footer
and ``fieldops --version`` show), the Qt and PySide6 it runs on, and the database in
use, in text a clerk can select and paste into a support request."""

from __future__ import annotations

import platform

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from fieldops import __version__
from ui.context import AppContext


def about_lines(ctx: AppContext) -> tuple[str, ...]:
    """What the dialog says, line by line."""
    return (
        f"FieldOps {__version__}",
        f"Animal control records for {ctx.jurisdiction}.",
        f"Qt {qVersion()}, PySide6 {PySide6.__version__}, Python {platform.python_version()}",
        f"Database: {ctx.db.description}",
    )


class AboutDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About FieldOps")
        layout = QVBoxLayout(self)
        title, *rest = about_lines(ctx)
        heading = QLabel(title)
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        heading.setFont(font)
        layout.addWidget(heading)
        self.details = QLabel("\n".join(rest))
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
