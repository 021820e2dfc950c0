"""The one place errors are shown (qutebrowser's split, STYLE.md).

* ``UserError`` (fieldops.errors): written for the person at the counter;
  shown as is.
* Environment failures (the database unreachable, locked or damaged, a full
  disk, a read-only folder...): not FieldOps' fault; shown with what happened
  and what to do, from the one map the command line uses too
  (fieldops/failures.py). The form that was saving stays open with its content.
* Anything else is a bug: a dialog that says so, with the details to copy
  into a report.

Tests build the router with ``interactive=False``: nothing pops up, and every
report is kept in ``reports`` for the test to assert on.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops import failures

USER = "user"
ENVIRONMENT = "environment"
BUG = "bug"


@dataclass(frozen=True)
class Report:
    kind: str
    message: str
    details: str = ""


def classify(exc: BaseException, database: str | None = None) -> str:
    kind = failures.describe(exc, database).kind
    if kind == failures.USER:
        return USER
    return BUG if kind == failures.BUG else ENVIRONMENT


def environment_message(exc: BaseException, database: str | None = None) -> str:
    """What happened and what to do, as two paragraphs."""
    said = failures.describe(exc, database)
    return f"{_sentence(said.message)}\n\n{said.what_to_do}"


def not_saved_text(exc: BaseException, database: str | None = None) -> str | None:
    """A form's banner line for an environment failure (None for anything else):
    what happened; the router's dialog adds what to do."""
    said = failures.describe(exc, database)
    if not said.environment:
        return None
    return f"Nothing was saved: {said.message} What you typed is still here."


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class BugDialog(QDialog):
    """Says plainly that this is a bug, with the details to send to support."""

    def __init__(self, message: str, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("FieldOps — something went wrong")
        self.setObjectName("BugDialog")
        self.resize(640, 420)
        layout = QVBoxLayout(self)
        self.heading = heading = QLabel(
            "<b>This is a bug in FieldOps.</b> It is not something you did wrong. "
            "What you were doing may not have been saved: check the record before "
            "carrying on, and send the details below to support."
        )
        heading.setWordWrap(True)
        layout.addWidget(heading)
        layout.addWidget(QLabel(message))
        self.details = QPlainTextEdit(details)
        self.details.setReadOnly(True)
        layout.addWidget(self.details, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("&Copy details")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _on_copy_button_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.details.toPlainText())


class ErrorRouter:
    """Shows an error the way its kind calls for."""

    def __init__(self, interactive: bool = True, database: str | None = None) -> None:
        self.interactive = interactive
        self.database = database  # the database's URL: says which file a failure is about
        self.reports: list[Report] = []
        self.questions: list[str] = []
        self.answer = True  # what a non-interactive router answers to confirm()

    def confirm(
        self,
        question: str,
        yes: str,
        no: str,
        parent: QWidget | None = None,
        title: str = "FieldOps",
    ) -> bool:
        """Ask before something that cannot be undone; ``no`` is the safe default."""
        self.questions.append(question)
        if not self.interactive:
            return self.answer
        box = QMessageBox(
            QMessageBox.Icon.Question, title, question, QMessageBox.StandardButton.NoButton, parent
        )
        yes_button = box.addButton(yes, QMessageBox.ButtonRole.DestructiveRole)
        no_button = box.addButton(no, QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(no_button)
        box.setEscapeButton(no_button)
        box.exec()
        return box.clickedButton() is yes_button

    def report(self, exc: BaseException, details: str = "", parent: QWidget | None = None) -> None:
        kind = classify(exc, self.database)
        if kind == USER:
            self.tell(str(exc), parent)
        elif kind == ENVIRONMENT:
            message = environment_message(exc, self.database)
            self._show(Report(ENVIRONMENT, message, details), parent)
        else:
            message = f"{type(exc).__name__}: {exc}"
            self._show(Report(BUG, message, details or message), parent)

    def tell(self, message: str, parent: QWidget | None = None, title: str = "FieldOps") -> None:
        """A message written for the user (a refused action, a stale record)."""
        self._show(Report(USER, message), parent, title)

    def _show(self, report: Report, parent: QWidget | None, title: str = "FieldOps") -> None:
        self.reports.append(report)
        if not self.interactive:
            return
        if report.kind == BUG:
            BugDialog(report.message, report.details, parent).exec()
        elif report.kind == ENVIRONMENT:
            box = QMessageBox(
                QMessageBox.Icon.Critical,
                title,
                report.message,
                QMessageBox.StandardButton.Ok,
                parent,
            )
            box.setDetailedText(report.details)
            box.exec()
        else:
            QMessageBox.warning(parent, title, report.message)
