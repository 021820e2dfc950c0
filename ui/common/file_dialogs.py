"""The app's only file dialogs: they never open the database's files.

SQLite's locks are POSIX locks, owned by the process: when anything in the
app's process opens and closes ``fieldops.db`` (or its ``-wal``/``-shm``), every
lock SQLite holds on it is dropped, and the next ``fieldops`` command to finish
deletes the write-ahead log the app is still writing to (SQLite's "How To
Corrupt An SQLite Database File", 2.2). Qt's stock dialogs do exactly that:
the platform dialog runs inside this process and reads files for thumbnails,
and Qt's own dialog reads a file's first bytes to name its type and pick its
icon. So every file dialog is built here:

* Qt's own dialog, never the platform's;
* an icon provider that decides icons and types from names alone;
* symbolic links are not followed to decide what a file is;
* it starts in the user's Documents (or home), never in the database's
  folder, and a document is never saved into, nor a file picked from, that
  folder (the user is told why and asked again).

``tests/ui/test_file_dialogs.py`` drives this dialog over the database's
folder and then checks, from other processes, that no acknowledged save is
lost.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileInfo, QStandardPaths
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget

from fieldops.errors import UserError

PDF_FILTER = "PDF documents (*.pdf)"
Tell = Callable[[str], None]


class DocumentInDatabaseFolderError(UserError):
    """A document was to be written into (or a file read from) the database's folder."""

    code = "database_folder"

    def __init__(self, folder: Path | str) -> None:
        self.folder = str(folder)
        super().__init__(
            f"The folder {folder} holds the FieldOps database, so no document is saved "
            "there and no file is taken from it: another program opening files in that "
            "folder can cost records that were already saved. Choose another folder, "
            "such as Documents."
        )


class NameOnlyIconProvider(QAbstractFileIconProvider):
    """Icons and type names from a file's name and kind, never from its contents.

    Qt's default provider asks the MIME database, which opens a file whose name
    does not settle its type (``fieldops.db-wal``) and reads its first bytes.
    """

    def __init__(self) -> None:
        super().__init__()
        self._stock = QFileIconProvider()
        self._stock.setOptions(QAbstractFileIconProvider.Option.DontUseCustomDirectoryIcons)
        self.setOptions(QAbstractFileIconProvider.Option.DontUseCustomDirectoryIcons)

    def icon(self, what: QFileInfo | QAbstractFileIconProvider.IconType) -> QIcon:
        if isinstance(what, QFileInfo):
            kind = (
                QAbstractFileIconProvider.IconType.Folder
                if what.isDir()
                else QAbstractFileIconProvider.IconType.File
            )
            return self._stock.icon(kind)
        return self._stock.icon(what)

    def type(self, info: QFileInfo) -> str:
        if info.isDir():
            return "Folder"
        suffix = info.suffix()
        return f"{suffix.upper()} file" if suffix else "File"


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def in_database_folder(path: str | os.PathLike[str], db_folder: Path | None) -> bool:
    """True when ``path`` is in the folder that holds the database's files."""
    if db_folder is None:
        return False
    return _same_folder(Path(path).expanduser().absolute().parent, db_folder)


def refuse_database_folder(path: str | os.PathLike[str], db_folder: Path | None) -> None:
    """Raise ``DocumentInDatabaseFolderError`` when ``path`` is in the database's folder."""
    if in_database_folder(path, db_folder):
        assert db_folder is not None
        raise DocumentInDatabaseFolderError(db_folder)


def start_folder(db_folder: Path | None) -> Path:
    """Where a dialog opens: Documents, else home, else the temporary folder; never the
    database's folder."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    candidates = [Path(p) for p in (documents, str(Path.home()), tempfile.gettempdir()) if p]
    for folder in candidates:
        if folder.is_dir() and not (db_folder is not None and _same_folder(folder, db_folder)):
            return folder
    return Path(Path.home().anchor or "/")


class _FileDialog(QFileDialog):
    """A file dialog holding its icon provider: a dialog does not own its provider."""

    _icon_provider: NameOnlyIconProvider


def make_file_dialog(
    parent: QWidget | None, caption: str, folder: Path, name_filter: str, *, saving: bool
) -> QFileDialog:
    """A file dialog that reads names and folder listings only, never a file's contents."""
    dialog = _FileDialog(parent, caption, str(folder), name_filter)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setOption(QFileDialog.Option.DontResolveSymlinks, True)
    dialog.setOption(QFileDialog.Option.DontUseCustomDirectoryIcons, True)
    provider = NameOnlyIconProvider()
    dialog.setIconProvider(provider)
    dialog._icon_provider = provider  # keep it alive as long as the dialog
    if saving:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    return dialog


def _ask(dialog: QFileDialog, db_folder: Path | None, tell: Tell) -> str:
    while dialog.exec():
        chosen = dialog.selectedFiles()
        if not chosen:
            return ""
        path = chosen[0]
        if not in_database_folder(path, db_folder):
            return path
        tell(str(DocumentInDatabaseFolderError(db_folder or "")))
        dialog.setDirectory(str(start_folder(db_folder)))
    return ""


def ask_save_path(
    parent: QWidget | None,
    caption: str,
    suggested_name: str,
    db_folder: Path | None,
    tell: Tell,
    name_filter: str = PDF_FILTER,
) -> str:
    """Where to save a document; "" when the user cancels."""
    dialog = make_file_dialog(parent, caption, start_folder(db_folder), name_filter, saving=True)
    if name_filter == PDF_FILTER:
        dialog.setDefaultSuffix("pdf")
    dialog.selectFile(suggested_name)
    return _ask(dialog, db_folder, tell)


def ask_open_path(
    parent: QWidget | None,
    caption: str,
    name_filter: str,
    db_folder: Path | None,
    tell: Tell,
    start: Path | None = None,
) -> str:
    """A file to read; "" when the user cancels. ``start``: a folder other than the
    database's own to open in (a backups folder), else the usual one."""
    if start is None or not start.is_dir() or (db_folder and _same_folder(start, db_folder)):
        start = start_folder(db_folder)
    dialog = make_file_dialog(parent, caption, start, name_filter, saving=False)
    return _ask(dialog, db_folder, tell)


def ask_folder_path(
    parent: QWidget | None, caption: str, start: Path, db_folder: Path | None
) -> str:
    """A folder (to keep files in, not to read one); "" when the user cancels."""
    if not start.is_dir() or (db_folder and _same_folder(start, db_folder)):
        start = start_folder(db_folder)
    dialog = make_file_dialog(parent, caption, start, "Folders (*)", saving=False)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    chosen = dialog.selectedFiles() if dialog.exec() else []
    return chosen[0] if chosen else ""
