"""A supervisor corrects a final disposition; the original stays on the record."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt
from support import local

from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import get_impoundment
from ui.impounds import opening

REASON = "Entered as an escape by mistake; found dead in run 4"


@pytest.fixture
def escaped(pound, sqlite_db, operator):
    """Impounded Thu 12 Nov; an operator recorded an escape on Fri 13 Nov."""
    view = pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))
    return record_escape(
        sqlite_db,
        operator,
        view.id,
        pound.profile,
        at=local(2026, 11, 13, 7, 0),
        notes="Slipped the lead in the yard",
    )


@pytest.fixture
def idle(qtbot):
    """Wait until a context's background tasks have all delivered (``wait_idle`` watches
    the operator's context only)."""
    return lambda ctx: qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)


@pytest.fixture
def open_as(host, wait_dialog, idle):
    """Open an impoundment as the context's actor; closed after the test, pass or fail."""
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


def test_a_supervisor_corrects_an_escape_to_a_death(
    qtbot, supervisor_ctx, open_as, escaped, wait_dialog, idle, sqlite_db, pound
):
    record = open_as(supervisor_ctx, escaped.id)
    assert record.status_chip.text() == "Escaped"
    assert record.correct_button.isVisibleTo(record)
    assert not record.other_button.isEnabled()
    assert record.summary.corrections.isHidden()  # nothing corrected yet
    qtbot.mouseClick(record.correct_button, Qt.MouseButton.LeftButton)
    dialog = wait_dialog("CorrectionDialog")
    assert dialog.corrected_kind() == "escaped"  # starts from what is on record
    assert dialog.on_record.text().startswith(
        "On record: Escaped, Fri 13 Nov 2026 7:00 AM CST, recorded by opal."
    )
    assert not dialog.transfer_to.isVisibleTo(dialog)  # only for a transfer
    dialog.kind.setCurrentIndex(dialog.kind.findData("transferred"))
    assert dialog.transfer_to.isVisibleTo(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("died"))
    assert not dialog.transfer_to.isVisibleTo(dialog)
    dialog.at.set_value(local(2026, 11, 13, 6, 30))
    qtbot.keyClicks(dialog.notes, "Found dead in run 4 at the morning check")
    qtbot.keyClicks(dialog.reason, REASON)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    idle(supervisor_ctx)  # the save, then the record's reload
    assert not shiboken6.isValid(dialog)  # closed (and deleted) on saving
    # The record shows the corrected disposition ...
    assert record.status_chip.text() == "Died"
    assert record.countdown.text() == "Hold closed: died."
    shown = record.summary.disposition
    assert shown.value("Disposition") == "Died"
    assert shown.value("When") == "Fri 13 Nov 2026 6:30 AM CST"
    assert shown.value("Notes") == "Found dead in run 4 at the morning check"
    assert shown.value("Correction") == f"Corrected by a supervisor: {REASON}"
    assert shown.value("Recorded by") == "sam"
    # ... and the escape it superseded, with the reason it was corrected.
    assert not record.summary.corrections.isHidden()
    assert record.summary.corrections.value("Escaped") == (
        "Fri 13 Nov 2026 7:00 AM CST, recorded by opal\n"
        "Notes: Slipped the lead in the yard\n"
        f"Corrected by a supervisor: {REASON}"
    )
    assert record.history_model.index(0, 2).data() == "Disposition corrected"
    saved = get_impoundment(sqlite_db, escaped.id, pound.profile)
    assert saved.disposition.kind == "died"
    assert [c.kind for c in saved.corrections] == ["escaped"]


def test_a_correction_without_a_reason_is_refused_beside_the_reason(
    qtbot, supervisor_ctx, open_as, escaped, wait_dialog, idle, sqlite_db, pound
):
    record = open_as(supervisor_ctx, escaped.id)
    dialog = record.open_correction()
    dialog.kind.setCurrentIndex(dialog.kind.findData("died"))
    qtbot.keyClicks(dialog.reason, "   ")  # blank is no reason
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    assert dialog.isVisible()
    assert dialog.fields.error_text("reason") == "Say why the disposition is corrected."
    assert dialog.fields.is_marked("reason")
    assert dialog.banner.text() == "Nothing was saved: correct the marked field."
    assert dialog.save_button.text() == "&Record correction"  # named as before, Enter saves
    assert dialog.save_button.isEnabled() and dialog.save_button.isDefault()
    saved = get_impoundment(sqlite_db, escaped.id, pound.profile)
    assert saved.disposition.kind == "escaped" and saved.corrections == ()
    assert record.status_chip.text() == "Escaped"
    # A time before the impoundment is refused beside the time, with the reason given.
    dialog.at.set_value(local(2026, 11, 11, 9, 0))
    qtbot.keyClicks(dialog.reason, "Wrong kind")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    assert dialog.fields.error_text("at") == "This cannot be before the impoundment."
    assert dialog.fields.error_text("reason") == ""
    assert get_impoundment(sqlite_db, escaped.id, pound.profile).corrections == ()
    dialog.done(0)  # close without the discard question


def test_a_correction_cannot_make_an_escape_a_release(
    qtbot, supervisor_ctx, open_as, escaped, idle, sqlite_db, pound
):
    record = open_as(supervisor_ctx, escaped.id)
    dialog = record.open_correction()
    dialog.kind.setCurrentIndex(dialog.kind.findData("reclaimed"))
    qtbot.keyClicks(dialog.reason, "The owner came for her")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    assert dialog.fields.error_text("kind").startswith("A release is recorded with its evidence")
    assert dialog.fields.is_marked("kind")
    assert get_impoundment(sqlite_db, escaped.id, pound.profile).corrections == ()
    dialog.done(0)


def test_a_correction_to_a_destruction_asks_its_basis_beside_it(
    qtbot, supervisor_ctx, open_as, escaped, idle, sqlite_db, pound
):
    """Inside the hold a destruction needs a finding and who decided, as ``destroy`` does:
    the correction form asks for them only for a destruction, and refuses beside them."""
    record = open_as(supervisor_ctx, escaped.id)
    dialog = record.open_correction()
    assert not dialog.basis.isVisibleTo(dialog) and not dialog.decided_by.isVisibleTo(dialog)
    dialog.kind.setCurrentIndex(dialog.kind.findData("euthanized"))
    assert dialog.basis.isVisibleTo(dialog) and dialog.decided_by.isVisibleTo(dialog)
    qtbot.keyClicks(dialog.reason, "Put down, not lost")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    assert dialog.fields.is_marked("basis") and dialog.fields.is_marked("decided_by")
    dialog.basis.setCurrentIndex(dialog.basis.findData("hold_ended"))  # the hold is not over
    qtbot.keyClicks(dialog.decided_by, "Off. Lee, officer")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(supervisor_ctx)
    assert dialog.fields.is_marked("basis") and not dialog.fields.is_marked("decided_by")
    assert get_impoundment(sqlite_db, escaped.id, pound.profile).corrections == ()
    dialog.done(0)


def test_a_release_corrected_to_a_death_no_longer_shows_the_recipient(
    supervisor_ctx, open_as, pound, sqlite_db, supervisor
):
    p = pound
    biscuit = p.animal("Biscuit", breed="Corgi", owner=p.bo)
    view = p.impound(biscuit, local(2026, 11, 2, 11, 0))
    p.pay_all(view, local(2026, 11, 4, 12, 0), True, p.bo)
    p.vaccinate(biscuit)
    p.release(
        view, p.ReleaseRequest(True, p.bo.id, at=local(2026, 11, 4, 12, 0), licence_receipt="L-9")
    )
    correct_disposition(
        sqlite_db,
        supervisor,
        view.id,
        kind="died",
        at=local(2026, 11, 3, 18, 0),
        reason="Died the evening before",
        profile=p.profile,
    )
    record = open_as(supervisor_ctx, view.id)
    shown = record.summary.disposition
    assert shown.value("Disposition") == "Died"
    # The correction keeps the release's recipient and evidence; a death shows neither.
    assert shown.value("Released to") == "" and shown.value("Evidence") == ""
    assert record.summary.corrections.value("Reclaimed by owner").splitlines()[1] == (
        f"Released to Bo Adler, 9 Oak Ave, Madison, WI (#{p.bo.id})"
    )


def test_an_operator_has_no_correct_button(ctx, open_as, escaped):
    record = open_as(ctx, escaped.id)
    assert record.status_chip.text() == "Escaped"
    assert ctx.actor.role == "operator"
    assert not record.correct_button.isVisibleTo(record)


def test_no_correct_button_while_the_animal_is_in_custody(supervisor_ctx, open_as, pound):
    view = pound.impound(pound.animal("Rex"), local(2026, 11, 25, 10, 0))
    record = open_as(supervisor_ctx, view.id)
    assert not record.correct_button.isVisibleTo(record)
