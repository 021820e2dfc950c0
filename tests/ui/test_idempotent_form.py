"""Save again after a save whose reply was lost (issue 13, "Idempotent saves").

The save committed, then the answer never reached the form (a dropped
connection, a worker that died): the form says nothing was confirmed, and
the clerk presses Save again. The same form opening sends the same key, so
the second press returns the person the first one made: one record, no
"possible duplicate" question."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from sqlalchemy.exc import OperationalError

from fieldops.services.people import count_people
from ui.people import person_dialog

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def new_person_dialog(qtbot, window, wait_dialog):
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL)
    return wait_dialog("PersonDialog")


def test_save_again_after_a_lost_reply_makes_one_person(
    qtbot, new_person_dialog, wait_idle, sqlite_db, monkeypatch
):
    d = new_person_dialog
    d.full_name.setText("Ana Ruiz")
    d.address.setText("12 Elm St")
    real = person_dialog.create_person
    made = []

    def committed_then_lost(*args, **kwargs):
        made.append(real(*args, **kwargs))
        raise OperationalError("COMMIT", None, ConnectionResetError("the reply was lost"))

    monkeypatch.setattr(person_dialog, "create_person", committed_then_lost)
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_people(sqlite_db) == 1 and d.person() is None  # saved, never confirmed
    assert d.isVisible() and d.full_name.text() == "Ana Ruiz"  # the form kept what was typed
    monkeypatch.setattr(person_dialog, "create_person", real)
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_people(sqlite_db) == 1
    assert d.person() is not None and d.person().id == made[0].id


def test_a_confirmed_save_takes_a_new_key(qtbot, new_person_dialog, wait_idle, sqlite_db):
    """Once the save is confirmed, the next save from the form is not a retry of it."""
    d = new_person_dialog
    first = d.client_key
    d.full_name.setText("Ana Ruiz")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_people(sqlite_db) == 1 and d.person() is not None
    assert d.client_key != first
