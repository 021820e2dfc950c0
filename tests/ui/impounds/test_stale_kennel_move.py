"""A kennel move from a screen opened before another workstation's move is refused
(issue 13, "Stale checks everywhere"): the other's kennel stays and is shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from support import local

from fieldops.db.models import AuditEvent
from fieldops.services.impounds import get_impoundment
from fieldops.services.intake_corrections import move_kennel
from ui.impounds import opening


def _events(db) -> int:
    with db.read() as s:
        return s.query(AuditEvent).count()


def test_a_move_from_a_stale_screen_is_refused_and_the_screen_shows_the_other_move(
    qtbot, ctx, host, pound, sqlite_db, operator, wait_dialog, wait_idle
):
    imp = pound.impound(
        pound.animal("Max", breed="Boxer"), local(2026, 11, 25, 14, 30), kennel="K-1"
    )
    opening.open_impoundment(ctx, imp.id, host)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    # Another workstation moves it first, from what it read.
    move_kennel(sqlite_db, operator, imp.id, "K-9", expected_version=imp.version)
    events = _events(sqlite_db)
    record.summary.kennel.setText("K-3")
    qtbot.mouseClick(record.summary.move_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert get_impoundment(sqlite_db, imp.id, pound.profile).kennel == "K-9"
    assert _events(sqlite_db) == events
    assert "changed by someone else" in record.banner.text()
    assert record.summary.kennel.text() == "K-9"  # reloaded: what is really on record
    # Moved again from the screen as it is now, the move is saved.
    record.summary.kennel.setText("K-3")
    qtbot.mouseClick(record.summary.move_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert get_impoundment(sqlite_db, imp.id, pound.profile).kennel == "K-3"
