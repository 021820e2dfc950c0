"""Revising a call on screen: a received time after its dispatch is refused beside the
field, and the form keeps what was typed."""

from __future__ import annotations

from datetime import timedelta

from calls_support import closed_with_follow_up
from PySide6.QtCore import Qt

from fieldops.services.calls.records import get_call
from ui.calls.call_form import CallForm


def test_a_received_time_after_the_dispatch_is_refused_beside_the_field(
    qtbot, ctx, host, ana, wait_idle
):
    c = closed_with_follow_up(ctx.db, ctx.actor, None, owner_id=ana.id)  # sent 2 hours ago
    form = CallForm(ctx, host, get_call(ctx.db, c.id))
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    form.place.setText("Back yard")
    later = c.dispatches[0].sent_at + timedelta(minutes=30)
    form.received_at.set_value(later)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(form.fields.error_text("received_at")), timeout=10_000)
    assert "sent" in form.fields.error_text("received_at")
    assert form.isVisible() and form.place.text() == "Back yard"
    assert form.received_at.value() == later.replace(second=0, microsecond=0)
    assert get_call(ctx.db, c.id) == c  # nothing changed
    wait_idle()
