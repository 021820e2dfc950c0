"""Backups in Administration, as an administrator uses them (and nobody else sees them)."""

from __future__ import annotations

import os
import re
import sqlite3
import stat

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.backups import list_backups, make_backup
from fieldops.db.engine import sqlite_file
from fieldops.services.backups import backup_status
from fieldops.services.people import PersonInput, create_person
from ui.app import build_main_window
from ui.errors import USER

LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def admin_window(qtbot, qapp, sqlite_db, admin, today, errors):
    w = build_main_window(sqlite_db, admin, today=lambda: today, errors=errors)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    page = w.show_area("admin")
    qtbot.waitUntil(lambda: w.ctx.tasks.pending_count() == 0, timeout=10_000)
    yield w, page.backups
    w.ctx.shutdown()
    QApplication.processEvents()


def _idle(qtbot, w):
    qtbot.waitUntil(lambda: w.ctx.tasks.pending_count() == 0, timeout=20_000)


def _names(path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[0] for r in con.execute("SELECT full_name FROM person ORDER BY id")]
    finally:
        con.close()


def test_only_the_administrator_sees_backups(window, qtbot, qapp, sqlite_db, supervisor, errors):
    assert window.show_area("admin").backups is None  # the operator's window
    w = build_main_window(sqlite_db, supervisor, errors=errors)
    qtbot.addWidget(w)
    assert w.show_area("admin").backups is None
    w.ctx.shutdown()


def test_back_up_now_shows_the_last_backup(qtbot, admin_window, tmp_path):
    w, panel = admin_window
    assert panel is not None and "No backup" in panel.last_label.text()
    assert str(tmp_path / "backups") in panel.folder_label.text()
    qtbot.mouseClick(panel.backup_button, LEFT)
    _idle(qtbot, w)
    [made] = list_backups(tmp_path / "backups", "fieldops")
    assert stat.S_IMODE(os.stat(made.path).st_mode) == 0o600
    assert str(made.path) in panel.last_label.text()
    # Its size, as large as the copy is (a fresh database is about a megabyte).
    assert re.search(r"\b\d+(\.\d)? (KB|MB)\b", panel.last_label.text())
    assert str(made.path) in panel.message.text()


def test_change_folder_keeps_backups_elsewhere_and_refuses_the_database_folder(
    qtbot, admin_window, sqlite_db, tmp_path
):
    w, panel = admin_window
    nas = tmp_path / "nas"
    nas.mkdir()
    panel.ask_folder = lambda start: str(tmp_path)  # the database's own folder
    qtbot.mouseClick(panel.folder_button, LEFT)
    assert "own folder" in panel.message.text()
    assert backup_status(sqlite_db).is_default_folder
    panel.ask_folder = lambda start: str(nas)
    qtbot.mouseClick(panel.folder_button, LEFT)
    assert backup_status(sqlite_db).folder == nas and str(nas) in panel.folder_label.text()
    qtbot.mouseClick(panel.backup_button, LEFT)
    _idle(qtbot, w)
    assert len(list_backups(nas, "fieldops")) == 1


def test_restore_asks_puts_the_backup_back_and_closes_the_window(
    qtbot, admin_window, sqlite_db, admin, operator, errors
):
    w, panel = admin_window
    path = sqlite_file(sqlite_db.url)
    create_person(sqlite_db, operator, PersonInput(full_name="In the backup"))
    made = make_backup(path)
    create_person(sqlite_db, operator, PersonInput(full_name="Saved after the backup"))
    panel.ask_backup_file = lambda start: str(made.path)
    errors.answer = False  # "Cancel": nothing happens
    qtbot.mouseClick(panel.restore_button, LEFT)
    _idle(qtbot, w)
    assert "Saved after the backup" in _names(path) and w.isVisible()
    errors.answer = True
    qtbot.mouseClick(panel.restore_button, LEFT)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=20_000)
    assert _names(path) == ["In the backup"]
    [aside] = path.parent.glob("fieldops-before-restore-*.db")
    told = [r.message for r in errors.reports if r.kind == USER]
    assert told and str(aside) in told[-1] and "start it again" in told[-1]
    assert "Saved after the backup" in _names(aside)


def test_a_damaged_backup_is_refused_in_the_panel_and_the_window_stays(
    qtbot, admin_window, sqlite_db, operator, tmp_path, errors
):
    w, panel = admin_window
    create_person(sqlite_db, operator, PersonInput(full_name="Still here"))
    bad = tmp_path / "elsewhere" / "bad.db"
    bad.parent.mkdir()
    bad.write_bytes(b"not a database" * 500)
    panel.ask_backup_file = lambda start: str(bad)
    qtbot.mouseClick(panel.restore_button, LEFT)
    _idle(qtbot, w)
    assert "not a database" in panel.message.text() and w.isVisible()
    assert panel.restore_button.isEnabled()
    path = sqlite_file(sqlite_db.url)
    assert _names(path) == ["Still here"] and not list(path.parent.glob("*before-restore*"))


def test_the_restore_dialog_opens_in_the_backups_folder_and_a_folder_is_chosen_there(
    qtbot, admin_window, sqlite_db, tmp_path
):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialog

    w, panel = admin_window
    backups = tmp_path / "backups"
    backups.mkdir()
    seen: list[str] = []

    def answer(choose: str | None) -> None:
        dialogs = [d for d in QApplication.topLevelWidgets() if d.isVisible() and d is not w]
        dialog = next(d for d in dialogs if isinstance(d, QDialog))
        seen.append(dialog.directory().absolutePath())
        if choose is None:
            dialog.reject()
        else:
            dialog.setDirectory(choose)  # as a user opening it
            dialog.accept()

    QTimer.singleShot(300, lambda: answer(None))
    assert panel.ask_backup_file(backups) == ""
    nas = tmp_path / "nas"
    nas.mkdir()
    QTimer.singleShot(300, lambda: answer(str(nas)))
    assert panel.ask_folder(backups) == str(nas)
    assert seen == [str(backups), str(backups)]
