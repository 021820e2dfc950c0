"""Issue 13: the window says what an environment failure is and what to do, the form
that was saving stays open with what was typed, and a damaged or misplaced database is
refused before the main window opens."""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy.exc
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

import ui.app as app_module
from fieldops.backups import backup_name
from fieldops.failures import DAMAGED, EXIT_CODES, MISSING
from fieldops.services.people import count_people
from ui.app import run
from ui.errors import ENVIRONMENT, ErrorRouter

CTRL = Qt.KeyboardModifier.ControlModifier


def sqlite_failure(folder: Path, kind: str) -> sqlalchemy.exc.OperationalError:
    """A real SQLite error of ``kind``, wrapped as SQLAlchemy hands it to a service."""
    path = folder / f"scratch-{kind}.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TABLE t (x)")
    caught: sqlite3.OperationalError | None = None
    try:
        if kind == "disk full":
            con.execute("PRAGMA max_page_count = 2")
            con.execute("INSERT INTO t VALUES (randomblob(100000))")
        else:
            con.execute("BEGIN IMMEDIATE")
            other = sqlite3.connect(path, timeout=0, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        caught = exc
    assert caught is not None
    return sqlalchemy.exc.OperationalError("INSERT INTO person ...", {}, caught)


@pytest.mark.parametrize(
    ("kind", "said", "to_do"),
    [("disk full", "disk is full", "Free some space"), ("locked", "busy", "try again")],
)
def test_a_save_that_meets_an_environment_failure_keeps_the_form_and_says_what_to_do(
    qtbot, window, wait_dialog, wait_idle, errors, sqlite_db, monkeypatch, tmp_path, kind, said,
    to_do,
):  # fmt: skip
    failure = sqlite_failure(tmp_path, kind)

    def failing_save(*args, **kwargs):
        raise failure

    monkeypatch.setattr("ui.people.person_dialog.create_person", failing_save)
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL)
    d = wait_dialog("PersonDialog")
    d.full_name.setFocus()
    qtbot.keyClicks(d.full_name, "Ana Ruiz")
    qtbot.keyClicks(d.address, "12 Elm St")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    (report,) = errors.reports
    assert report.kind == ENVIRONMENT
    assert said in report.message and to_do in report.message
    assert d.isVisible() and d.full_name.text() == "Ana Ruiz" and d.address.text() == "12 Elm St"
    assert said in d.banner.text() and "error in FieldOps" not in d.banner.text()
    assert not d.is_saving()
    assert count_people(sqlite_db) == 0


def test_the_environment_dialog_shows_what_happened_and_what_to_do(qapp, tmp_path):
    router = ErrorRouter(interactive=True, database=str(tmp_path / "fieldops.db"))
    seen: list[str] = []

    def read_and_close():
        boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)]
        if not boxes or not boxes[0].isVisible():
            QTimer.singleShot(20, read_and_close)
            return
        seen.append(boxes[0].text())
        boxes[0].accept()

    QTimer.singleShot(20, read_and_close)
    router.report(OSError(28, "No space left on device"))
    (text,) = seen
    assert "disk is full" in text and "Free some space" in text


# -- start-up ----------------------------------------------------------------------------


@pytest.fixture
def shown(monkeypatch):
    messages: list[tuple[str, str]] = []
    monkeypatch.setattr(
        app_module,
        "show_startup_error",
        lambda title, message, details="": messages.append((title, message)),
    )

    def no_sign_in(db):
        pytest.fail("the window went on to sign-in on a database it should refuse")

    monkeypatch.setattr(app_module, "sign_in_at_start", no_sign_in)
    return messages


def tree(folder: Path) -> list[tuple[str, bytes | None]]:
    return sorted(
        (str(p.relative_to(folder)), p.read_bytes() if p.is_file() else None)
        for p in folder.rglob("*")
    )


def test_the_window_refuses_a_damaged_database_and_says_what_to_do(
    qapp, tmp_path, sqlite_template, shown
):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    backup = folder / "backups" / backup_name("fieldops", datetime(2026, 11, 30, 18, tzinfo=UTC))
    backup.parent.mkdir()
    shutil.copyfile(sqlite_template, backup)
    with path.open("r+b") as f:  # 4 KB of noise over the schema's pages
        f.seek(4096)
        f.write(os.urandom(4096))
    before = tree(folder)
    assert run(str(path)) == EXIT_CODES[DAMAGED]
    ((title, message),) = shown
    assert "damaged" in title
    assert str(backup) in message and "restore" in message
    assert tree(folder) == before


@pytest.mark.parametrize("how", ["missing folder", "dangling link"])
def test_the_window_refuses_a_database_that_is_not_there_and_creates_nothing(
    qapp, tmp_path, shown, how
):
    if how == "missing folder":
        target = tmp_path / "no-such-folder" / "fieldops.db"
    else:
        target = tmp_path / "fieldops.db"
        target.symlink_to(tmp_path / "moved-away.db")
    before = tree(tmp_path)
    assert run(str(target)) == EXIT_CODES[MISSING]
    ((title, message),) = shown
    assert "could not open" in title and "nothing was created" in message
    assert tree(tmp_path) == before
