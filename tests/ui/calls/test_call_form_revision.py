"""The call form on screen: a received time after the call's dispatch is refused beside
the field, keeping what was typed; the owner's and caller's names read whole."""

from __future__ import annotations

from datetime import timedelta

from calls_support import closed_with_follow_up
from PySide6.QtCore import Qt

from fieldops.services.calls.records import get_call
from fieldops.services.people import PersonInput, create_person
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


def test_a_long_owners_and_callers_name_reads_whole(qtbot, ctx, host, wait_idle):
    long = "Maximiliana Bartholomew-Featherstonehaugh III"
    person = create_person(ctx.db, ctx.actor, PersonInput(full_name=long, address="1 Elm St"))
    form = CallForm(ctx, host)
    qtbot.addWidget(form)
    form.owner.set_person(person.id, long)
    form.caller.set_person(person.id, long)
    form.show()
    qtbot.waitExposed(form)
    for field in (form.owner, form.caller):
        box = field.name
        assert box.width() > box.fontMetrics().horizontalAdvance(box.text()), box.text()
    wait_idle()
