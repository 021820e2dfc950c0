"""The call view's further actions on screen (issue 16): a bite call opens the bite report
form filled with what the call knows and, saved, links it back; a vicious-animal call opens
the vicious case form; a follow-up done; a citation corrected and voided."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from calls_support import call_input, complained_call
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.modules import due_items
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.records import create_call, get_call
from ui import modules as ui_modules
from ui.calls.call_dialog import CallDialog


def _shown(qtbot, name: str):
    found: list = []

    def shown() -> bool:
        found[:] = [
            w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()
        ]
        return bool(found)

    qtbot.waitUntil(shown, timeout=10_000)
    return found[-1]


def _click(qtbot, button) -> None:
    assert button.isEnabled() and button.isVisible(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _view(qtbot, ctx, host, call):
    view = CallDialog(ctx, get_call(ctx.db, call.id), host)  # closed by _close_all
    view.show()
    return view


def _close_all() -> None:
    for w in QApplication.topLevelWidgets():
        if w.isWindow() and w.objectName().endswith("Dialog"):
            w.close()


def test_a_bite_call_opens_the_bite_report_prefilled_and_saved_it_is_linked(
    qtbot, ctx, host, ana, wait_idle
):
    call = create_call(
        ctx.db,
        ctx.actor,
        call_input(
            owner_id=ana.id,
            kind="bite",
            place="Back yard",
            description="A dog bit the caller's son through the fence.",
        ),
    )
    view = _view(qtbot, ctx, host, call)
    wait_idle()
    assert view.buttons["module_form"].isVisible()
    assert "bite report" in view.buttons["module_form"].text().replace("&", "")
    _click(qtbot, view.buttons["module_form"])
    form = _shown(qtbot, "BiteDialog")
    assert form.place.text() == "12 Elm St, Back yard"
    assert form.owner.person_id() == ana.id and form.reported_by.text() == "Nora Neighbour"
    assert f"From call #{call.id}" in form.notes.toPlainText()
    assert abs(form.bitten_at.value() - call.received_at) < timedelta(minutes=1)
    wait_idle()
    # A stray the owner does not keep, say: described, so the bite is referred.
    form.animal.setCurrentIndex(form.animal.findData(None))
    form.species.setCurrentIndex(form.species.findData("other"))
    form.description.setText("Grey ferret")
    form.victim_name.setText("Sam Neighbour")
    _click(qtbot, form.save_button)
    qtbot.waitUntil(lambda: bool(view.more.link_texts()), timeout=10_000)
    wait_idle()
    assert "bite #" in view.more.link_texts()[0] and "bite #" in view.more.line.text()
    opened: list[int] = []
    with ui_modules.extra({("quarantine", "bite"): lambda _c, rid, _p: opened.append(rid)}):
        href = view.more.line.text().split('href="')[1].split('"')[0]
        view.more.line.linkActivated.emit(href)
    assert opened and opened[0] == int(href.rsplit("/", 1)[1])
    _close_all()


def test_a_vicious_call_opens_the_vicious_case_form_prefilled(qtbot, ctx, host, ana, wait_idle):
    call = create_call(
        ctx.db,
        ctx.actor,
        call_input(owner_id=ana.id, kind="vicious", description="Lunges at people walking by."),
    )
    view = _view(qtbot, ctx, host, call)
    wait_idle()
    assert "vicious case" in view.buttons["module_form"].text().replace("&", "")
    form = view.more.open_module_form()
    assert form is not None and form.objectName() == "DeclarationDialog"
    assert form.owner.person_id() == ana.id
    incident = form.incident_rows[0]
    assert incident.place.text() == "12 Elm St"
    assert incident.what.toPlainText() == "Lunges at people walking by."
    wait_idle()
    _close_all()


def test_no_module_form_on_a_barking_call(qtbot, ctx, host, ana, wait_idle):
    view = _view(qtbot, ctx, host, create_call(ctx.db, ctx.actor, call_input(owner_id=ana.id)))
    wait_idle()
    assert not view.buttons["module_form"].isVisible()
    assert view.more.open_module_form() is None
    _close_all()


def test_follow_up_done_from_the_call_view_leaves_today(qtbot, ctx, host, ana, wait_idle):
    c = create_call(ctx.db, ctx.actor, call_input(owner_id=ana.id))
    sent = datetime.now(UTC) - timedelta(minutes=50)
    d = dispatch(ctx.db, ctx.actor, c.id, c.version, ctx.actor.username, sent).dispatches[0]
    today = ctx.today()
    update_dispatch(
        ctx.db,
        ctx.actor,
        d.id,
        d.version,
        DispatchUpdate(sent, sent + timedelta(minutes=20), "warned", today),
    )
    view = _view(qtbot, ctx, host, c)
    wait_idle()
    _click(qtbot, view.buttons["follow_up"])
    form = _shown(qtbot, "FollowUpDoneDialog")
    wait_idle()
    _click(qtbot, form.save_button)  # no note: refused beside the field
    qtbot.waitUntil(lambda: bool(form.fields.error_text("note")), timeout=10_000)
    form.note.setPlainText("Dog kept inside; no barking heard.")
    form.outcome.setCurrentIndex(form.outcome.findData("no_violation"))
    _click(qtbot, form.save_button)
    qtbot.waitUntil(lambda: "Follow-up of" in view.more.line.text(), timeout=10_000)
    wait_idle()
    assert "no barking heard" in view.more.line.text()
    assert not view.buttons["follow_up"].isEnabled()
    items = [(i.category, i.record_id) for i in due_items(ctx.db, today, ctx.profile)]
    assert ("call.follow_up_due", c.id) not in items
    _close_all()


def test_a_citation_corrected_then_voided_from_the_call_view(qtbot, ctx, host, ana, wait_idle):
    c = complained_call(ctx.db, ctx.actor, ana.id)
    day = ctx.today() - timedelta(days=3)
    cite(
        ctx.db,
        ctx.actor,
        CitationInput(ana.id, "58-529", (day,), "Off. Lee", call_id=c.id),
        ctx.profile,
    )
    view = _view(qtbot, ctx, host, c)
    wait_idle()
    _click(qtbot, view.buttons["fix_citation"])
    form = _shown(qtbot, "CitationFixDialog")
    form.section.setCurrentIndex(form.section.findData("58-531"))
    _click(qtbot, form.save_button)  # no reason: refused beside the field
    qtbot.waitUntil(lambda: bool(form.fields.error_text("reason")), timeout=10_000)
    form.reason.setPlainText("Barking, not waste")
    _click(qtbot, form.save_button)
    qtbot.waitUntil(lambda: view.view.citations[0].section == "58-531", timeout=10_000)
    wait_idle()
    _click(qtbot, view.buttons["fix_citation"])
    form = _shown(qtbot, "CitationFixDialog")
    assert form.void_button.isVisible()  # a supervisor's context
    form.reason.setPlainText("Dismissed")
    _click(qtbot, form.void_button)
    qtbot.waitUntil(lambda: view.view.citations[0].voided, timeout=10_000)
    wait_idle()
    assert "VOID" in view.details.text() and not view.buttons["fix_citation"].isEnabled()
    assert not view.buttons["court"].isEnabled()  # nothing more is recorded on a void one
    _close_all()
