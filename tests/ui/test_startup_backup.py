"""The day's first backup is made once the window shows, not before it (issue 14).

It used to hold the window back for as long as a copy of the whole database
took; it still happens at every day's first start, and a backup that cannot be
made is still said in the status bar.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

import ui.app as app_module
import ui.today.page as today_module
from fieldops.backups import list_backups
from fieldops.services.signin import create_first_admin
from ui.main_window import MainWindow
from ui.today.page import TodayWidget


@pytest.fixture
def started(qapp, tmp_path, sqlite_template, monkeypatch):
    """``run(path)`` on an existing database, signed in without the dialog; what it saw."""
    path = tmp_path / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    monkeypatch.setattr(
        app_module,
        "sign_in_at_start",
        lambda db: create_first_admin(db, "ada", "Ada Admin", "x" * 12),
    )
    seen: dict[str, object] = {"path": path, "backup_began_with_window": None}
    real = app_module.take_daily_backup

    def take(file: Path) -> str:
        seen["backup_began_with_window"] = _window() is not None
        window = _window()
        today = window.page("today") if window is not None else None
        answered = isinstance(today, TodayWidget) and today.summary.text() != "Loading…"
        seen["today_answered_first"] = answered
        return str(seen.get("problem") or real(file))

    monkeypatch.setattr(app_module, "take_daily_backup", take)

    def start(done) -> int:
        def poll() -> None:
            window = _window()
            if window is not None and window.ctx.tasks.pending_count() == 0 and done(window):
                seen["status"] = window.backup_label.text()
                window.close()
            else:
                QTimer.singleShot(20, poll)

        QTimer.singleShot(20, poll)
        QTimer.singleShot(15_000, qapp.quit)  # never hang the suite
        return app_module.run(str(path))

    seen["start"] = start
    return seen


def _window() -> MainWindow | None:
    # The window's frame shows before the database is open (issue 14): the window is
    # the one with its context and pages.
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    return shown[0] if shown and shown[0].isVisible() and shown[0].attached else None


def test_the_days_backup_is_made_after_the_window_shows(started):
    path = started["path"]
    assert started["start"](lambda w: bool(list_backups(path.parent / "backups", "fieldops"))) == 0
    assert started["backup_began_with_window"] is True
    # ... and after Today had its answer: the copy must not slow the clerk's first list.
    assert started["today_answered_first"] is True
    (backup,) = list_backups(path.parent / "backups", "fieldops")
    assert backup.before_upgrade is None  # the daily one, not an upgrade's


def test_a_backup_that_cannot_be_made_is_said_in_the_status_bar(started):
    started["problem"] = "the backup folder /media/usb is not there"
    assert started["start"](lambda w: not w.backup_label.isHidden()) == 0
    assert started["backup_began_with_window"] is True
    assert "/media/usb" in str(started["status"]) and "backup" in str(started["status"])


def test_the_days_backup_is_made_even_if_today_never_answers(started, monkeypatch):
    monkeypatch.setattr(TodayWidget, "refresh", lambda self: None)  # no answer, no signal
    monkeypatch.setattr(app_module, "BACKUP_AT_LATEST_MS", 50)
    path = started["path"]
    assert started["start"](lambda w: bool(list_backups(path.parent / "backups", "fieldops"))) == 0
    assert started["backup_began_with_window"] is True


def test_a_clerk_who_leaves_today_at_once_gets_the_backup_after_today_answers(started, monkeypatch):
    # Today's first load is stopped when the clerk goes straight to People; the day's
    # backup still waits for Today's answer, which comes when Today is shown again.
    gate = threading.Event()
    real = today_module.today_items

    def held(db, day, profile):
        gate.wait(10)
        return real(db, day, profile)

    monkeypatch.setattr(today_module, "today_items", held)
    monkeypatch.setattr(app_module, "BACKUP_AT_LATEST_MS", 60_000)  # only Today's answer
    path = started["path"]

    def leave_and_come_back() -> None:
        window = _window()
        if window is None:
            QTimer.singleShot(10, leave_and_come_back)
            return
        window.show_area("people")
        gate.set()
        QTimer.singleShot(300, lambda: window.show_area("today"))

    QTimer.singleShot(0, leave_and_come_back)
    assert started["start"](lambda w: bool(list_backups(path.parent / "backups", "fieldops"))) == 0
    assert started["today_answered_first"] is True
