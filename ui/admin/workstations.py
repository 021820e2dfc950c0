"""Administration → "Several workstations": which database this workstation uses, and
how to point every workstation at one PostgreSQL database.

A SQLite file serves one computer; over a network share its locking is unreliable
and FieldOps refuses it (fieldops/db/placement.py). So the panel says where this
workstation's records are and gives the steps: an empty PostgreSQL database,
``fieldops migrate-to`` (fieldops/migrate_to.py: copies and verifies), then
FIELDOPS_DATABASE_URL (or ``--db``) on each workstation. Shown to administrators
only (the page places it when the role has ``Permission.BACKUPS``, migrate-to's).
Passwords are never shown: a URL is given without one.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.db.engine import ENV_URL, sqlite_file
from fieldops.migrate_to import url_without_password
from ui.context import AppContext

SERVER_URL = "postgresql+psycopg://USER@SERVER/DATABASE"


def migrate_command(database: str) -> str:
    """The command that copies this workstation's SQLite file to a server."""
    quoted = f'"{database}"' if " " in database else database
    return f"fieldops --db {quoted} migrate-to {SERVER_URL}"


class WorkstationsWidget(QGroupBox):
    """The database this workstation uses, and the steps to share one among several."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Several workstations", parent)
        self.setObjectName("WorkstationsWidget")
        self.ctx = ctx
        path = sqlite_file(ctx.db.url)
        self.on_server = path is None
        where = url_without_password(ctx.db.url) if self.on_server else str(path)
        self.database = QLabel()
        self.database.setObjectName("WorkstationDatabase")
        self.database.setTextFormat(Qt.TextFormat.RichText)
        self.database.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.database.setWordWrap(True)
        self.steps = QLabel()
        self.steps.setObjectName("WorkstationSteps")
        self.steps.setTextFormat(Qt.TextFormat.RichText)
        self.steps.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.steps.setWordWrap(True)
        self.command = migrate_command(where) if not self.on_server else ""
        self.copy_button = QPushButton("Copy the com&mand")
        self.copy_button.setObjectName("CopyMigrateCommand")
        self.copy_button.setToolTip("Put the migrate-to command on the clipboard")
        self.copy_button.setVisible(not self.on_server)
        self.copied = QLabel()
        self.copied.setObjectName("FieldHint")
        if self.on_server:
            self.database.setText(
                f"This workstation uses the shared PostgreSQL database <b>{escape(where)}</b>."
            )
            self.steps.setText(
                "To add a workstation, set the environment variable "
                f"<code>{ENV_URL}={escape(where)}</code> on it (or start FieldOps with "
                f"<code>--db {escape(where)}</code>). Keep the password out of the URL: "
                "put it in the user's <code>~/.pgpass</code> (or <code>PGPASSWORD</code>)."
            )
        else:
            self.database.setText(
                f"This workstation keeps its records in the SQLite file <b>{escape(where)}</b>, "
                "for this computer only. A SQLite file on a network share is refused: its "
                "locking is unreliable there and records could be lost."
            )
            self.steps.setText(
                "To share one database among several workstations:<ol>"
                "<li>Create an empty PostgreSQL database on the server (for example "
                "<code>createdb -O fieldops fieldops</code>).</li>"
                "<li>Close FieldOps on every workstation, then on this one run<br>"
                f"<code>{escape(self.command)}</code><br>It copies every record, checks the "
                "counts and the audit trail, and leaves the server database empty if "
                "anything fails.</li>"
                f"<li>On each workstation set <code>{ENV_URL}={SERVER_URL}</code> (or start "
                f"FieldOps with <code>--db {SERVER_URL}</code>); the password goes in the "
                "user's <code>~/.pgpass</code>, not in the URL.</li>"
                "<li>Stop using the SQLite file; keep it as an archive.</li></ol>"
            )
        layout = QVBoxLayout(self)
        layout.addWidget(self.database)
        layout.addWidget(self.steps)
        row = QHBoxLayout()
        row.addWidget(self.copy_button)
        row.addWidget(self.copied, 1)
        layout.addLayout(row)
        self.copy_button.clicked.connect(self._on_copy_clicked)

    def _on_copy_clicked(self) -> None:
        QApplication.clipboard().setText(self.command)
        self.copied.setText("Copied; replace USER, SERVER and DATABASE with the server's.")
