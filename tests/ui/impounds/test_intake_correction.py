"""Correcting a saved intake from the impoundment's record (issue 7, item 3)."""

from __future__ import annotations

from datetime import date

import pytest
import shiboken6
from PySide6.QtCore import Qt
from support import local

from fieldops.services.audit import history
from fieldops.services.impounds import get_impoundment
from ui.impounds import opening

REASON = "The finder gave the wrong block"


@pytest.fixture
def penny(pound):
    """Impounded Mon 16 Nov 2026 (7 days: Mon 23 Nov), found at Elm & 3rd."""
    return pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 16, 9, 30))


@pytest.fixture
def idle(qtbot):
    return lambda ctx: qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)


@pytest.fixture
def open_as(host, wait_dialog, idle):
    opened = []

    def open_(ctx, impoundment_id: int):
        opening.open_impoundment(ctx, impoundment_id, host)
        record = wait_dialog("ImpoundmentDialog")
        idle(ctx)
        opened.append(record)
        return record

    yield open_
    for record in opened:
        if shiboken6.isValid(record):
            record.close()


def closed(d) -> bool:
    return not shiboken6.isValid(d) or not d.isVisible()


def test_an_operator_corrects_where_found_and_the_record_and_history_show_it(
    qtbot, ctx, open_as, penny, wait_dialog, idle, sqlite_db, pound
):
    record = open_as(ctx, penny.id)
    qtbot.mouseClick(record.correct_intake_button, Qt.MouseButton.LeftButton)
    dialog = wait_dialog("IntakeCorrectionDialog")
    idle(ctx)
    assert dialog.found_place.text() == "Elm & 3rd"  # starts from the record
    assert not dialog.impounded_at.isEnabled() and not dialog.bit_person.isEnabled()
    assert "supervisor" in dialog.hold_note.text()
    dialog.found_place.selectAll()
    qtbot.keyClicks(dialog.found_place, "Elm & 4th")
    qtbot.keyClicks(dialog.condition, "thin")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(ctx)
    assert not closed(dialog)  # no reason given: nothing saved
    assert dialog.fields.is_marked("correction_reason")
    assert get_impoundment(sqlite_db, penny.id, pound.profile).found_place == "Elm & 3rd"
    assert dialog.found_place.text() == "Elm & 4th"  # what was typed stays
    qtbot.keyClicks(dialog.correction_reason, REASON)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(ctx)
    qtbot.waitUntil(lambda: closed(dialog), timeout=5_000)
    idle(ctx)
    assert record.summary.impoundment.value("Found").startswith("Elm & 4th")
    assert record.summary.impoundment.value("Condition") == "thin"
    [event] = [
        h for h in history(sqlite_db, "impoundment", penny.id) if h.action == "correct_intake"
    ]
    assert event.reason == REASON and "Elm & 3rd → Elm & 4th" in event.summary


def test_a_supervisor_corrects_a_bite_and_the_record_shows_the_longer_hold(
    qtbot, supervisor_ctx, open_as, penny, wait_dialog, idle, sqlite_db, pound
):
    record = open_as(supervisor_ctx, penny.id)
    assert record.view().last_claim_day == date(2026, 11, 23)
    qtbot.mouseClick(record.correct_intake_button, Qt.MouseButton.LeftButton)
    dialog = wait_dialog("IntakeCorrectionDialog")
    idle(supervisor_ctx)
    assert dialog.bit_person.isEnabled()
    dialog.bit_person.setChecked(True)
    assert dialog.hold_note.text().startswith("The hold moves.")
    qtbot.keyClicks(dialog.correction_reason, "The bite report came in after intake")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    qtbot.waitUntil(lambda: closed(dialog), timeout=5_000)
    idle(supervisor_ctx)
    # 16 Nov + 10 days = Thanksgiving, so the owner has until Fri 27 Nov.
    assert record.view().last_claim_day == date(2026, 11, 27)
    assert record.summary.hold.pairs.value("Owner may claim until").startswith("Fri 27 Nov 2026")


def test_times_recorded_with_seconds_are_not_read_as_corrected(
    qtbot, ctx, open_as, wait_dialog, idle, pound, sqlite_db
):
    at = local(2026, 11, 16, 9, 30).replace(second=45)
    view = pound.impound(
        pound.animal("Rex", breed="Boxer"), at, found_at=at.replace(minute=10, second=12)
    )
    record = open_as(ctx, view.id)
    qtbot.mouseClick(record.correct_intake_button, Qt.MouseButton.LeftButton)
    dialog = wait_dialog("IntakeCorrectionDialog")
    idle(ctx)
    qtbot.keyClicks(dialog.condition, "thin")
    qtbot.keyClicks(dialog.correction_reason, "forgot the condition")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(ctx)
    qtbot.waitUntil(lambda: closed(dialog), timeout=5_000)  # an operator: no hold moved
    after = get_impoundment(sqlite_db, view.id, pound.profile)
    assert (after.impounded_at, after.found_at, after.condition) == (
        at,
        at.replace(minute=10, second=12),
        "thin",
    )
