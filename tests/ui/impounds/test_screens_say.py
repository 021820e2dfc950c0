"""What the pound's screens say: the history in sentences, messages that name the field,
and hints that are not cut off."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from support import local

from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import get_impoundment
from ui.impounds import opening
from ui.impounds.correction_dialog import CorrectionDialog

RAW = re.compile(r"\w+=|\{'|\d{4}-\d\d-\d\dT|\+00:00")


def _open(ctx, host, wait_dialog, idle, impoundment_id):
    opening.open_impoundment(ctx, impoundment_id, host)
    record = wait_dialog("ImpoundmentDialog")
    idle()
    return record


def test_the_history_tab_tells_the_release_payment_and_correction_in_words(
    qtbot, supervisor_ctx, host, pound, sqlite_db, supervisor, wait_dialog
):
    p = pound
    rex = p.animal("Rex", owner=p.ana, breed="Beagle")
    p.vaccinate(rex)
    view = p.impound(rex, local(2026, 11, 20, 9, 0))
    p.pay_all(view, local(2026, 11, 23, 15, 45), True, p.ana)
    p.release(
        view,
        p.ReleaseRequest(True, p.ana.id, at=local(2026, 11, 23, 15, 45), licence_receipt="L-9"),
    )
    correct_disposition(
        sqlite_db,
        supervisor,
        view.id,
        kind="reclaimed",
        at=local(2026, 11, 23, 15, 15),
        reason="Clock read wrong",
        profile=p.profile,
    )

    def idle():
        qtbot.waitUntil(lambda: supervisor_ctx.tasks.pending_count() == 0, timeout=10_000)

    record = _open(supervisor_ctx, host, wait_dialog, idle, view.id)
    record.tabs.setCurrentWidget(record.history_view)
    model = record.history_model
    rows = [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]
    assert [r[2] for r in rows] == [
        "Disposition corrected",
        "Reclaimed by owner",
        "Payment recorded",
        "Impounded",
    ]
    for when, _who, _what, sentence, _reason in rows:
        assert not RAW.search(sentence), sentence
        assert when.endswith(" CST")
    assert rows[1][3] == "Released to Ana Ruiz, the owner, Mon 23 Nov 2026 3:45 PM CST."
    assert rows[2][3].startswith("Ana Ruiz paid $") and "in cash, receipt R-" in rows[2][3]
    assert rows[0][4] == "Clock read wrong"
    # A sentence is never cut: its row is as tall as its wrapped text.
    view_ = record.history_view
    col = 3
    for r in range(model.rowCount()):
        needed = view_.sizeHintForRow(r)
        assert view_.rowHeight(r) >= needed
    assert view_.columnWidth(col) >= 330
    record.close()


def test_a_transfer_without_a_destination_says_what_to_do(
    qtbot, ctx, host, pound, wait_dialog, wait_idle
):
    past = pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))
    record = _open(ctx, host, wait_dialog, wait_idle, past.id)
    dialog = record.open_disposition("transferred")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert dialog.fields.error_text("transfer_to") == "Say where the animal was transferred to."
    dialog.close()
    record.close()


def test_the_correction_forms_note_under_the_kind_is_not_cut_off(
    qtbot, supervisor_ctx, host, pound, sqlite_db, operator
):
    view = pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))
    escaped = record_escape(
        sqlite_db,
        operator,
        view.id,
        pound.profile,
        at=local(2026, 11, 13, 7, 0),
        notes="Slipped the lead",
    )
    dialog = CorrectionDialog(
        supervisor_ctx, get_impoundment(sqlite_db, escaped.id, pound.profile), host
    )
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.kind_note
    assert note.isVisible() and note.text() == "The same disposition: correct its time or notes."
    # Wrapped to the form's width, not the narrow choice's, and given the height it needs.
    assert note.width() > dialog.kind.width()
    assert note.height() >= note.heightForWidth(note.width())
    dialog.close()
