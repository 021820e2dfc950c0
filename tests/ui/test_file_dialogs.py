"""The app's file dialogs never cost a saved record, and keep documents out of the
database's folder.

The first test is the one that matters: it drives the real dialog over the
database's folder in the "app" process, then runs ``fieldops due`` and saves
more; every acknowledged save must be seen by another process and survive the
app's death. (Qt's stock non-native dialog fails it: it reads the database's
files to name their types, which drops SQLite's locks.)
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from lost_locks import names_in, run_scenario
from PySide6.QtCore import QFileInfo
from PySide6.QtWidgets import QFileDialog

from ui.common.file_dialogs import (
    DocumentInDatabaseFolderError,
    NameOnlyIconProvider,
    in_database_folder,
    make_file_dialog,
    refuse_database_folder,
    start_folder,
)

ROOT = Path(__file__).resolve().parents[2]


def test_browsing_the_database_folder_loses_no_saved_record(tmp_path, sqlite_template):
    db_file = tmp_path / "fieldops.db"
    shutil.copyfile(sqlite_template, db_file)
    result = run_scenario(db_file, "dialog")
    assert result["listed"] >= 3, "the dialog listed the database's files"
    assert result["refused"] == []
    assert result["acked"] == ["Ada First", "Ben Second", "Cy Third"]
    assert result["seen"] == result["acked"]
    assert names_in(db_file) == result["acked"]


def test_every_file_dialog_of_the_app_is_the_safe_one():
    # A stock QFileDialog anywhere else in the UI would read the database's files again.
    offenders = []
    for path in (ROOT / "ui").rglob("*.py"):
        if path.parent.name == "common" and path.name == "file_dialogs.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bQFileDialog\b|getSaveFileName|getOpenFileName", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_the_dialog_is_qt_own_and_names_files_without_reading_them(qapp, tmp_path):
    disguised = tmp_path / "fieldops.db-wal"
    disguised.write_bytes(b"%PDF-1.4 ")  # contents that would make a sniffer say "PDF"
    provider = NameOnlyIconProvider()
    assert provider.type(QFileInfo(str(disguised))) == "DB-WAL file"
    assert provider.type(QFileInfo(str(tmp_path / "README"))) == "File"
    assert provider.type(QFileInfo(str(tmp_path / "register.pdf"))) == "PDF file"
    assert provider.type(QFileInfo(str(tmp_path))) == "Folder"
    dialog = make_file_dialog(None, "Save", tmp_path, "PDF documents (*.pdf)", saving=True)
    assert dialog.testOption(QFileDialog.Option.DontUseNativeDialog)
    assert dialog.iconProvider() is not None
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    dialog.deleteLater()


def test_dialogs_never_start_in_the_database_folder(qapp, tmp_path):
    home = Path.home()
    assert start_folder(None).is_dir()
    assert not in_database_folder(start_folder(home) / "x.pdf", home)
    first = start_folder(None)
    assert start_folder(first) != first


def test_nothing_is_written_into_or_read_from_the_database_folder(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "link").symlink_to(data)
    for path in (data / "receipt.pdf", tmp_path / "link" / "receipt.pdf", data / "fieldops.db"):
        assert in_database_folder(path, data)
        with pytest.raises(DocumentInDatabaseFolderError):
            refuse_database_folder(path, data)
    assert not in_database_folder(tmp_path / "receipt.pdf", data)
    assert not in_database_folder(data / "sub" / "receipt.pdf", data)
    assert not in_database_folder(data / "receipt.pdf", None)  # a server database
    refuse_database_folder(tmp_path / "receipt.pdf", data)


def test_a_save_into_the_database_folder_is_refused_and_asked_again(qapp, qtbot, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.common.file_dialogs import ask_save_path

    data = tmp_path / "data"
    data.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    told: list[str] = []
    answers = [data / "receipt.pdf", elsewhere / "receipt.pdf"]
    seen: list[tuple[str, str]] = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, answer)
            return
        seen.append((dialog.directory().absolutePath(), dialog.selectedFiles()[0]))
        target = answers.pop(0)
        dialog.setDirectory(str(target.parent))
        dialog.selectFile(target.name)
        if answers:
            QTimer.singleShot(20, answer)  # the dialog comes back after the refusal
        dialog.accept()

    QTimer.singleShot(20, answer)
    chosen = ask_save_path(None, "Save PDF", "receipt.pdf", data, told.append)
    assert chosen == str(elsewhere / "receipt.pdf")
    assert len(told) == 1 and "holds the FieldOps database" in told[0]
    # Neither the first nor the second showing started in the database's folder.
    assert all(Path(folder) != data for folder, _ in seen)
    assert seen[0][1].endswith("receipt.pdf")  # the suggested name was filled in
