"""A call with two complaints (58-534(a)): the owner's notice, a petition and their
documents act on the complaint chosen in the call view; by default the first complaint
whose owner is not yet notified, else the latest."""

from __future__ import annotations

import io

from calls_support import call_input
from pypdf import PdfReader
from PySide6.QtCore import Qt

from fieldops.services.calls.complaints import log_complaint, record_notification
from fieldops.services.calls.records import create_call, get_call
from ui.calls.call_dialog import CallDialog


def _click(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _pick(view: CallDialog, complaint_id: int) -> None:
    """The user chooses a complaint in the call view's list."""
    i = view.complaint.findData(complaint_id)
    view.complaint.setCurrentIndex(i)
    view.complaint.activated.emit(i)


def _two_complaints(ctx, ana):
    c = create_call(ctx.db, ctx.actor, call_input(owner_id=ana.id))
    c = log_complaint(ctx.db, ctx.actor, c.id, complainant="Nora", alleged="Barking")
    c = log_complaint(ctx.db, ctx.actor, c.id, complainant="Ned", alleged="Barking too")
    later = c.complaints[1]
    return record_notification(ctx.db, ctx.actor, later.id, later.version, how="mail")


def test_the_earlier_complaint_is_notified_and_each_printed_from_the_choice(
    qtbot, ctx, host, ana, wait_idle, wait_dialog
):
    c = _two_complaints(ctx, ana)
    nora, ned = c.complaints
    view = CallDialog(ctx, get_call(ctx.db, c.id), host)
    qtbot.addWidget(view)
    view.show()
    wait_idle()
    assert view.complaint_row.isVisibleTo(view) and view.complaint.count() == 2
    assert view.chosen_complaint() == nora  # the one still waiting for its notice
    assert view.buttons["notice"].isEnabled() and not view.buttons["petition"].isEnabled()
    _click(qtbot, view.buttons["notice"])
    notice = wait_dialog("NoticeDialog")
    assert notice.complaint.id == nora.id and "Nora" in notice.fields.input("complaint_id").text()
    _click(qtbot, notice.save_button)
    qtbot.waitUntil(lambda: view.view.complaints[0].notified_at is not None, timeout=10_000)
    wait_idle()
    assert get_call(ctx.db, c.id).complaints[0].notified_how is not None

    _pick(view, ned.id)
    assert view.buttons["petition"].isEnabled() and not view.buttons["notice"].isEnabled()
    _click(qtbot, view.buttons["petition"])
    petition = wait_dialog("PetitionDialog")
    assert petition.complaint.id == ned.id
    petition.close()

    opened: list[str] = []
    view.open_in_viewer = opened.append  # type: ignore[method-assign]
    for n, chosen in enumerate((nora, ned)):
        _pick(view, chosen.id)
        _click(qtbot, view.buttons["notice_pdf"])
        qtbot.waitUntil(lambda n=n: len(opened) > n, timeout=10_000)
        with open(opened[-1], "rb") as f:
            text = PdfReader(io.BytesIO(f.read())).pages[0].extract_text()
        assert f"complaint no. {chosen.id}" in text
    view.reload()  # the user's choice is kept across a reload
    wait_idle()
    assert view.chosen_complaint().id == ned.id
    view.close()


def test_one_complaint_needs_no_choice(qtbot, ctx, host, ana, wait_idle):
    c = create_call(ctx.db, ctx.actor, call_input(owner_id=ana.id))
    c = log_complaint(ctx.db, ctx.actor, c.id, complainant="Nora", alleged="Barking")
    view = CallDialog(ctx, c, host)
    qtbot.addWidget(view)
    view.show()
    wait_idle()
    assert not view.complaint_row.isVisibleTo(view)
    assert view.chosen_complaint() == c.complaints[0] and view.buttons["notice"].isEnabled()
    view.close()
