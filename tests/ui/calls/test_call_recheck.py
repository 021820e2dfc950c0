"""Recheck from the call view: two quick clicks open one recheck call, not two."""

from __future__ import annotations

from calls_support import complained_call
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from fieldops.db.models import FieldCall
from fieldops.services.calls.records import get_call
from ui.calls.call_dialog import CallDialog


def _rechecks(ctx, call_id: int) -> int:
    with ctx.db.read() as s:
        n: int = s.scalar(
            select(func.count()).select_from(FieldCall).where(FieldCall.recheck_of_id == call_id)
        )
    return n


def test_two_quick_clicks_on_recheck_open_one_recheck(qtbot, ctx, host, ana, wait_idle):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    view = CallDialog(ctx, get_call(ctx.db, c.id), host)
    qtbot.addWidget(view)
    view.show()
    wait_idle()
    qtbot.mouseClick(view.buttons["recheck"], Qt.MouseButton.LeftButton)
    assert not view.buttons["recheck"].isEnabled()  # while the recheck is saved
    qtbot.mouseClick(view.buttons["recheck"], Qt.MouseButton.LeftButton)
    wait_idle()
    qtbot.waitUntil(lambda: view.view.rechecks != (), timeout=10_000)
    wait_idle()
    assert _rechecks(ctx, c.id) == 1 and view.buttons["recheck"].isEnabled()
    for w in QApplication.topLevelWidgets():
        if w.objectName() == "CallDialog":
            w.close()
