"""The quick call form's people and animals involved (issue 16): a registry animal as the
call's main animal, a second person from the registry, a row refused naming itself while
the form keeps what was typed; the call view lists them, and they come back to correct."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.calls.records import get_call
from fieldops.services.people import PersonInput, create_person
from ui.calls.call_dialog import CallDialog
from ui.calls.call_form import CallForm
from ui.calls.page import CallsWidget


def _shown(qtbot, name: str):
    found: list = []

    def shown() -> bool:
        found[:] = [
            w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()
        ]
        return bool(found)

    qtbot.waitUntil(shown, timeout=10_000)
    return found[-1]


def test_a_call_with_a_registry_animal_and_a_second_person_saved_and_reopened(
    qtbot, ctx, ana, wait_idle, sqlite_db, supervisor, today, activate
):
    wes = create_person(sqlite_db, supervisor, PersonInput(full_name="Wes Witness"))
    tig = create_animal(
        sqlite_db, supervisor, AnimalInput(species="cat", name="Tigger"), today=today
    )
    page = CallsWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    page.new_record()
    form = _shown(qtbot, "CallForm")
    activate(form)
    qtbot.keyClicks(form.address, "12 Elm St")
    form.kind.setCurrentIndex(form.kind.findData("bite"))
    qtbot.keyClicks(form.caller_name, "Nora Neighbour")
    form.owner.set_person(ana.id, ana.full_name)

    # The main animal from the registry, by searching the animal picker from the keyboard.
    qtbot.keyClick(form, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)  # Ani&mal: Choose…
    picker = _shown(qtbot, "AnimalPickerDialog")
    wait_idle()
    qtbot.keyClicks(picker.search, "tigger")
    qtbot.waitUntil(lambda: picker.model.search_text() == "tigger")
    wait_idle()
    assert picker.status.text() == "1 found"
    qtbot.keyClick(picker.search, Qt.Key.Key_Down)
    qtbot.keyClick(picker.view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: form.animal.animal_id() == tig.id)
    activate(form)

    # A witness from the registry, and a victim row left empty: refused naming its row.
    qtbot.keyClick(form, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)  # Add p&erson
    qtbot.waitUntil(lambda: form.parties.count() == 1)  # a mnemonic clicks after a moment
    witness = form.parties.row(0)
    qtbot.waitUntil(witness.role.hasFocus)
    assert form.animal_description.nextInFocusChain() is witness.role  # Tab reaches the rows
    witness.role.setCurrentIndex(witness.role.findData("witness"))
    witness.set_record(wes.id, wes.full_name)
    qtbot.keyClicks(witness.notes, "Saw it from the porch")
    form.parties.add_person_button.click()
    victim = form.parties.row(1)
    victim.role.setCurrentIndex(victim.role.findData("victim"))
    form.save_button.click()
    qtbot.waitUntil(lambda: bool(form.fields.error_text("parties.1.description")))
    assert form.isVisible() and form.fields.error_text("parties.0.role") == ""
    assert witness.notes.text() == "Saw it from the porch"  # kept as typed
    assert form.animal.animal_id() == tig.id and form.address.text() == "12 Elm St"
    qtbot.keyClicks(victim.description, "Girl, about 8")

    form.save_button.click()
    view: CallDialog = _shown(qtbot, "CallDialog")
    wait_idle()
    v = view.view
    assert v.animal_id == tig.id
    assert [(p.role, p.person_id, p.description) for p in v.parties] == [
        ("witness", wes.id, ""),
        ("victim", None, "Girl, about 8"),
    ]
    text = view.details.text()
    assert "Tigger" in text and "Wes Witness" in text and "Girl, about 8" in text
    view.close()

    # Reopened: the view again from the database, and the form to correct it.
    again = CallDialog(ctx, get_call(sqlite_db, v.id))
    qtbot.addWidget(again)
    assert "Wes Witness" in again.details.text()
    wait_idle()
    correcting = CallForm(ctx, None, get_call(sqlite_db, v.id))  # closes itself when saved
    assert correcting.animal.animal_id() == tig.id
    assert correcting.parties.count() == 2
    assert correcting.parties.row(0).record_id() == wes.id
    correcting.parties.remove_row(1)
    correcting.show()
    with qtbot.waitSignal(correcting.saved, timeout=10_000):
        correcting.save_button.click()
    wait_idle()
    assert [p.person_id for p in get_call(sqlite_db, v.id).parties] == [wes.id]


def test_open_intake_takes_the_calls_registry_animal(
    qtbot, ctx, ana, wait_idle, sqlite_db, supervisor, today
):
    """The animal the call named from the registry is the one the intake impounds, not a
    new description the clerk would have to type again."""
    from calls_support import call_input

    from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
    from fieldops.services.calls.records import create_call

    rex = create_animal(
        sqlite_db, supervisor, AnimalInput(species="dog", name="Rexo", owner_id=ana.id), today=today
    )
    c = create_call(sqlite_db, supervisor, call_input(owner_id=ana.id, animal_id=rex.id))
    c = dispatch(sqlite_db, supervisor, c.id, c.version, supervisor.username)
    d = c.dispatches[-1]
    c = update_dispatch(
        sqlite_db,
        supervisor,
        d.id,
        d.version,
        DispatchUpdate(d.sent_at, d.sent_at, "impounded", None),
    )
    view = CallDialog(ctx, c)
    qtbot.addWidget(view)
    view.show()
    wait_idle()
    intake = view.open_intake()
    assert intake is not None
    qtbot.addWidget(intake)
    qtbot.waitUntil(lambda: intake.chosen_animal() is not None, timeout=10_000)
    assert intake.chosen_animal().id == rex.id and intake.name.text() == "Rexo"
    assert intake.owner.person_id() == ana.id
