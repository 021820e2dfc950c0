"""Creating and editing a person: what is typed, what is saved, what is refused."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import (
    PersonInput,
    count_people,
    create_person,
    get_person,
    update_person,
)
from ui.errors import USER

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def new_person_dialog(qtbot, window, wait_dialog):
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL)
    return wait_dialog("PersonDialog")


def type_into(qtbot, widget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def test_a_new_person_is_typed_and_saved_with_the_keyboard(
    qtbot, window, new_person_dialog, wait_idle, sqlite_db, rows_of
):
    d = new_person_dialog
    assert d.full_name.hasFocus()
    type_into(qtbot, d.full_name, "Ana  Ruiz")
    qtbot.keyClick(d, Qt.Key.Key_Tab)
    qtbot.keyClicks(d.focusWidget(), "12 Elm St")
    qtbot.keyClick(d, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)  # Add&ress, to check
    assert d.address.hasFocus()
    type_into(qtbot, d.city, "Madison")
    type_into(qtbot, d.postal_code, "53703")
    type_into(qtbot, d.phone, "608-555-0142")
    type_into(qtbot, d.email, "Ana@Example.org")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_people(sqlite_db) == 1
    saved = d.person()
    stored = get_person(sqlite_db, saved.id)
    assert (
        stored.full_name,
        stored.address,
        stored.city,
        stored.postal_code,
        stored.phone,
        stored.email,
    ) == ("Ana Ruiz", "12 Elm St", "Madison", "53703", "608-555-0142", "ana@example.org")
    # The form shows what was stored, and stays open for the person's animals.
    assert d.isVisible()
    assert d.email.text() == "ana@example.org"
    assert d.windowTitle() == f"Ana Ruiz — person #{saved.id}"
    assert d.banner.text() == "Saved."
    assert d.new_animal_button.isEnabled()
    assert [r[0] for r in rows_of(window.current_page().people.view, 1)] == ["Ana Ruiz"]
    assert [r[2] for r in rows_of(d.history_view)] == ["Created"]


def test_errors_show_beside_their_fields_and_nothing_is_saved(
    qtbot, new_person_dialog, wait_idle, sqlite_db
):
    d = new_person_dialog
    type_into(qtbot, d.address, "12 Elm St")
    type_into(qtbot, d.postal_code, "5370")
    type_into(qtbot, d.email, "ana-at-example")
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert count_people(sqlite_db) == 0
    assert d.fields.error_text("full_name") == "Name is required."
    assert d.fields.error_text("postal_code").startswith("ZIP code must be 5 digits")
    assert d.fields.error_text("email") == "E-mail must look like name@example.org."
    assert d.fields.error_text("phone") == ""
    assert d.fields.is_marked("email") and not d.fields.is_marked("phone")
    assert d.banner.text() == "Nothing was saved: correct the 3 marked fields."
    # What was typed is still there, and the first bad field has the cursor.
    assert (d.address.text(), d.postal_code.text(), d.email.text()) == (
        "12 Elm St",
        "5370",
        "ana-at-example",
    )
    assert d.full_name.hasFocus()
    # Fixing them saves, and the marks go.
    type_into(qtbot, d.full_name, "Ana Ruiz")
    d.postal_code.setText("53703")
    d.email.setText("ana@example.org")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_people(sqlite_db) == 1
    assert d.fields.error_text("email") == ""
    assert not d.fields.is_marked("email")


def test_editing_saves_only_the_change(qtbot, window, wait_idle, wait_dialog, sqlite_db, operator):
    ana = create_person(
        sqlite_db, operator, PersonInput(full_name="Ana Ruiz", phone="608-555-0142")
    )
    window.current_page().refresh()
    wait_idle()
    page = window.current_page()
    page.people.view.selectRow(0)
    qtbot.keyClick(page.people.view, Qt.Key.Key_Return)
    d = wait_dialog("PersonDialog")
    d.phone.selectAll()
    type_into(qtbot, d.phone, "608-555-0100")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert get_person(sqlite_db, ana.id).phone == "608-555-0100"
    latest = d.history_model.row_object(0)
    assert (latest.action, latest.sentence) == (
        "update",
        "Changed phone from “608-555-0142” to “608-555-0100”.",
    )


def test_a_record_changed_elsewhere_is_not_overwritten(
    qtbot, window, wait_idle, wait_dialog, sqlite_db, operator, errors
):
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz"))
    page = window.current_page()
    page.refresh()
    wait_idle()
    page.people.view.selectRow(0)
    qtbot.keyClick(page.people.view, Qt.Key.Key_Return)
    d = wait_dialog("PersonDialog")
    # Someone at another desk saves first.
    update_person(
        sqlite_db,
        operator,
        ana.id,
        PersonInput(full_name="Ana Ruiz", city="Verona"),
        expected_version=ana.version,
    )
    type_into(qtbot, d.phone, "608-555-0142")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert d.isVisible()
    assert "changed by someone else" in d.banner.text()
    assert errors.reports[-1].kind == USER
    assert "changed by someone else" in errors.reports[-1].message
    assert d.phone.text() == "608-555-0142"  # kept, to copy into the reopened record
    stored = get_person(sqlite_db, ana.id)
    assert (stored.city, stored.phone) == ("Verona", "")


def test_a_persons_animals_are_listed_and_a_new_one_gets_them_as_owner(
    qtbot, window, wait_idle, wait_dialog, sqlite_db, operator, today, rows_of
):
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz"))
    create_animal(
        sqlite_db,
        operator,
        AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=ana.id),
        today=today,
    )
    page = window.current_page()
    page.refresh()
    wait_idle()
    page.people.view.selectRow(0)
    qtbot.keyClick(page.people.view, Qt.Key.Key_Return)
    d = wait_dialog("PersonDialog")
    assert rows_of(d.animals_view) == [("Rex", "Dog", "Beagle")]
    qtbot.mouseClick(d.new_animal_button, Qt.MouseButton.LeftButton)
    a = wait_dialog("AnimalDialog")
    assert a.owner_name.text() == f"Ana Ruiz (#{ana.id})"
    type_into(qtbot, a.name, "Tibbles")
    a.species.setCurrentIndex(a.species.findData("cat"))
    qtbot.keyClick(a, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert [r[0] for r in rows_of(d.animals_view)] == ["Rex", "Tibbles"]
    assert [a.name for a in get_person(sqlite_db, ana.id).animals] == ["Rex", "Tibbles"]


def test_a_new_person_cannot_have_animals_until_saved(new_person_dialog):
    d = new_person_dialog
    assert not d.new_animal_button.isEnabled()
    assert "Save the person first" in d.animals_note.text()
    assert not d.tabs.isTabEnabled(1)


def test_escape_closes_without_saving(qtbot, new_person_dialog, sqlite_db, wait_idle, errors):
    d = new_person_dialog
    type_into(qtbot, d.full_name, "Ana Ruiz")
    qtbot.keyClick(d.full_name, Qt.Key.Key_Escape)  # the router answers "discard"
    qtbot.waitUntil(lambda: not d.isVisible())
    wait_idle()
    assert count_people(sqlite_db) == 0
    assert errors.questions == ["You have changes that are not saved. Close and discard them?"]


def test_escape_asks_before_throwing_away_what_was_typed(qtbot, new_person_dialog, errors):
    d = new_person_dialog
    type_into(qtbot, d.full_name, "Ana Ruiz")
    errors.answer = False  # "Keep editing"
    qtbot.keyClick(d.full_name, Qt.Key.Key_Escape)
    qtbot.wait(50)
    assert d.isVisible() and d.full_name.text() == "Ana Ruiz"
    assert len(errors.questions) == 1


def test_escape_on_an_untouched_form_closes_without_asking(qtbot, new_person_dialog, errors):
    d = new_person_dialog
    qtbot.keyClick(d.full_name, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not d.isVisible())
    assert errors.questions == []


def test_tab_order_follows_the_form(new_person_dialog):
    d = new_person_dialog
    d.full_name.setFocus()
    order = []
    w = d.full_name
    for _ in range(9):
        order.append(w)
        w = w.nextInFocusChain()
        while (
            not (w.focusPolicy() & Qt.FocusPolicy.TabFocus)
            or not w.isEnabled()
            or not w.isVisible()
        ):
            w = w.nextInFocusChain()
    assert order == [
        d.full_name,
        d.address,
        d.city,
        d.state,
        d.postal_code,
        d.in_city,
        d.phone,
        d.email,
        d.is_veterinarian,
    ]


def _type_ana(qtbot, d) -> None:
    type_into(qtbot, d.full_name, "ana ruiz")
    type_into(qtbot, d.address, "12 Elm St.")
    type_into(qtbot, d.city, "Madison")


def test_the_same_person_again_is_offered_the_existing_record(
    qtbot, window, new_person_dialog, wait_idle, sqlite_db, operator
):
    ana = create_person(
        sqlite_db,
        operator,
        PersonInput(
            full_name="Ana Ruiz",
            address="12 Elm St",
            city="Madison",
            postal_code="53703",
            phone="608-555-0142",
        ),
    )
    d = new_person_dialog
    _type_ana(qtbot, d)
    chosen = []
    d.saved.connect(chosen.append)
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    # Nothing saved; the match is shown with a way to use it.
    assert count_people(sqlite_db) == 1
    assert d.match_panel.isVisible()
    assert d.match_text.text() == (
        "An existing record matches: Ana Ruiz, 12 Elm St, Madison, "
        f"WI 53703, 608-555-0142 (person #{ana.id})."
    )
    assert d.full_name.text() == "ana ruiz"  # what was typed is kept
    qtbot.mouseClick(d.use_existing_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert d.person().id == ana.id
    assert d.windowTitle() == f"Ana Ruiz — person #{ana.id}"
    assert d.phone.text() == "608-555-0142"
    assert not d.match_panel.isVisible()
    assert [v.id for v in chosen] == [ana.id]  # a picker that opened the form gets Ana
    assert count_people(sqlite_db) == 1


def test_saving_a_different_person_with_the_same_name_is_deliberate(
    qtbot, window, new_person_dialog, wait_idle, sqlite_db, operator
):
    ana = create_person(
        sqlite_db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison")
    )
    d = new_person_dialog
    _type_ana(qtbot, d)
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert d.match_panel.isVisible() and count_people(sqlite_db) == 1
    qtbot.mouseClick(d.save_anyway_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert count_people(sqlite_db) == 2
    assert d.person() is not None and d.person().id != ana.id
    assert not d.match_panel.isVisible()
    assert d.banner.text() == "Saved."


def test_the_state_is_typed_with_the_address(qtbot, new_person_dialog, wait_idle, sqlite_db):
    d = new_person_dialog
    assert d.state.text() == "WI"  # the city's state unless the person lives elsewhere
    type_into(qtbot, d.full_name, "Cy Vance")
    type_into(qtbot, d.address, "3 Main St")
    d.state.selectAll()
    type_into(qtbot, d.state, "il")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert get_person(sqlite_db, d.person().id).mailing_address == "3 Main St, IL"
    d.state.selectAll()
    type_into(qtbot, d.state, "Q")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert d.fields.error_text("state").startswith("Give the state as its two-letter")
    assert d.state.text() == "Q"
