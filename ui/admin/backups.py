"""Backups in Administration: the last one, "Back up now", "Restore...", "Change folder...".

Only for the roles the permission table gives Permission.BACKUPS (the administrator).
Making and restoring run on a worker (ui/tasks.py); the file dialogs are the app's own
(ui/common/file_dialogs.py: they never open the database's files).

After a restore the window closes and says to start FieldOps again: every page,
every open form and the signed-in account belonged to the database that was
replaced, and this process's connections to it are gone (a fresh start is the
only clean state, as for a replaced write-ahead log, fieldops/db/engine.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.backups import BackupFile
from fieldops.errors import UserError
from fieldops.restore import RestoreResult
from fieldops.services.backups import (
    BackupStatus,
    back_up_now,
    backup_status,
    restore_database,
    set_backup_folder,
)
from ui.common.file_dialogs import ask_folder_path, ask_open_path, start_folder
from ui.common.text import when
from ui.context import AppContext

BACKUP_FILTER = "FieldOps backups (*.db)"


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{max(1, round(size / 1024))} KB"


class BackupsWidget(QGroupBox):
    """The last backup and the three actions on backups.

    ``ask_backup_file`` and ``ask_folder`` are the dialogs (tests replace them):
    each returns a path, or "" when the user cancels.
    """

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Backups", parent)
        self.setObjectName("BackupsWidget")
        self.ctx = ctx
        self.ask_backup_file: Callable[[Path], str] = self._ask_backup_file
        self.ask_folder: Callable[[Path], str] = self._ask_folder
        self.status: BackupStatus | None = None
        self.last_label = QLabel()
        self.last_label.setObjectName("LastBackup")
        self.last_label.setWordWrap(True)
        self.folder_label = QLabel()
        self.folder_label.setObjectName("FieldHint")
        self.folder_label.setWordWrap(True)
        self.backup_button = QPushButton("Back up &now")
        self.restore_button = QPushButton("Res&tore...")
        self.folder_button = QPushButton("Change f&older...")
        self.message = QLabel()
        self.message.setWordWrap(True)
        buttons = QHBoxLayout()
        for b in (self.backup_button, self.restore_button, self.folder_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.last_label)
        layout.addWidget(self.folder_label)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        self.backup_button.clicked.connect(self._on_backup_button_clicked)
        self.restore_button.clicked.connect(self._on_restore_button_clicked)
        self.folder_button.clicked.connect(self._on_folder_button_clicked)
        self.refresh()

    # --- what it shows --------------------------------------------------------------

    def refresh(self) -> None:
        try:
            self.status = backup_status(self.ctx.db)
        except UserError as exc:  # a database server: its own tools back it up
            self.status = None
            self.last_label.setText(str(exc))
            self.folder_label.setText("")
            for b in (self.backup_button, self.restore_button, self.folder_button):
                b.setEnabled(False)
            return
        last = self.status.last
        if last is None:
            self.last_label.setText("No backup has been made yet.")
        else:
            kind = " (taken before an upgrade)" if last.before_upgrade else ""
            self.last_label.setText(
                f"Last backup: {when(self.ctx, last.taken_at)}{kind}, "
                f"{size_text(last.size)}, at {last.path}"
            )
        where = " (the default, beside the database)" if self.status.is_default_folder else ""
        self.folder_label.setText(
            f"Backups are kept in {self.status.folder}{where}: one a day at the first "
            "start, kept 7 days, 4 weeks and 12 months, and one before every upgrade."
        )

    # --- the actions ----------------------------------------------------------------

    def _on_backup_button_clicked(self) -> None:
        self._busy("Backing up...")
        self.ctx.tasks.run(
            back_up_now,
            self.ctx.db,
            self.ctx.actor,
            on_done=self._backed_up,
            on_error=self._failed,
            owner=self,
        )

    def _backed_up(self, made: BackupFile) -> None:
        self._idle(f"Backed up to {made.path} ({size_text(made.size)}).")
        self.refresh()

    def _on_restore_button_clicked(self) -> None:
        folder = self.status.folder if self.status is not None else start_folder(None)
        chosen = self.ask_backup_file(folder)
        if not chosen:
            return
        question = (
            f"Replace the database with the backup {chosen}?\n\nEverything saved since "
            "that backup was made will no longer be in the database (the current one "
            "is kept aside, and named when it is done). FieldOps closes afterwards; "
            "start it again to sign in to the restored database."
        )
        if not self.ctx.errors.confirm(question, "Restore", "Cancel", parent=self):
            return
        self._busy("Checking the backup and restoring it...")
        self.ctx.tasks.run(
            restore_database,
            self.ctx.db,
            self.ctx.actor,
            Path(chosen),
            on_done=self._restored,
            on_error=self._failed,
            owner=self,
        )

    def _restored(self, result: RestoreResult) -> None:
        self._idle("")
        self.ctx.errors.tell(
            f"The backup was put back: {result.sentence()} FieldOps will now close; "
            "start it again to sign in to the restored database.",
            parent=self,
            title="Restored",
        )
        self.window().close()

    def _on_folder_button_clicked(self) -> None:
        start = self.status.folder if self.status is not None else start_folder(None)
        chosen = self.ask_folder(start)
        if not chosen:
            return
        try:
            folder = set_backup_folder(self.ctx.db, self.ctx.actor, chosen)
        except UserError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText(f"Backups will be kept in {folder}.")
        self.refresh()

    def _failed(self, exc: BaseException) -> bool:
        if isinstance(exc, UserError):
            self._idle(str(exc))
            return True
        self._idle("")
        return False  # the error router shows what it is

    def _busy(self, text: str) -> None:
        self.message.setText(text)
        for b in (self.backup_button, self.restore_button, self.folder_button):
            b.setEnabled(False)

    def _idle(self, text: str) -> None:
        self.message.setText(text)
        for b in (self.backup_button, self.restore_button, self.folder_button):
            b.setEnabled(True)

    # --- the dialogs ----------------------------------------------------------------

    def _ask_backup_file(self, folder: Path) -> str:
        return ask_open_path(
            self,
            "Restore a backup",
            BACKUP_FILTER,
            self.ctx.db.folder,
            self.message.setText,
            start=folder,
        )

    def _ask_folder(self, folder: Path) -> str:
        # A folder is not read from; the service refuses the database's own.
        return ask_folder_path(self, "Keep backups in", folder, self.ctx.db.folder)
