"""Animals: details, an unknown birth date, owners picked by search, vaccinations, history."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QDate, Qt

from fieldops.services.animals import AnimalInput, count_animals, create_animal, get_animal
from fieldops.services.people import PersonInput, create_person

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def new_animal(qtbot, window, wait_dialog):
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL | SHIFT)
    return wait_dialog("AnimalDialog")


@pytest.fixture
def rex(sqlite_db, operator, today):
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz"))
    return create_animal(
        sqlite_db,
        operator,
        AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=ana.id),
        today=today,
    )


@pytest.fixture
def rex_dialog(qtbot, window, wait_idle, wait_dialog, rex):
    page = window.current_page()
    page.refresh()
    wait_idle()
    page.animals.view.selectRow(0)
    qtbot.keyClick(page.animals.view, Qt.Key.Key_Return)
    return wait_dialog("AnimalDialog")


def type_into(qtbot, widget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def test_a_new_animal_with_an_unknown_birth_date_is_saved_without_one(
    qtbot, new_animal, wait_idle, sqlite_db
):
    d = new_animal
    assert d.birth_date.unknown.isChecked()
    assert not d.birth_date.date_edit.isEnabled()
    type_into(qtbot, d.name, "Rex")
    type_into(qtbot, d.microchip, "985 112 003 456 789")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    saved = get_animal(sqlite_db, d.animal().id)
    assert saved.birth_date is None  # never today's date by accident
    assert (saved.name, saved.species, saved.microchip) == ("Rex", "dog", "985112003456789")
    assert d.windowTitle() == f"Rex, dog — animal #{saved.id}"
    assert d.tabs.isTabEnabled(1) and d.tabs.isTabEnabled(2)


def test_a_known_birth_date_is_saved(qtbot, new_animal, wait_idle, sqlite_db):
    d = new_animal
    type_into(qtbot, d.name, "Rex")
    qtbot.keyClick(d, Qt.Key.Key_U, Qt.KeyboardModifier.AltModifier)  # &Unknown off
    qtbot.waitUntil(lambda: not d.birth_date.unknown.isChecked())
    assert d.birth_date.date_edit.isEnabled()
    d.birth_date.date_edit.setDate(QDate(2021, 4, 3))
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert get_animal(sqlite_db, d.animal().id).birth_date == date(2021, 4, 3)


def test_errors_show_beside_their_fields_and_nothing_is_saved(
    qtbot, new_animal, wait_idle, sqlite_db
):
    d = new_animal
    d.species.setCurrentIndex(d.species.findData("other"))
    assert d.species_detail.isEnabled()
    type_into(qtbot, d.microchip, "12AB")
    type_into(qtbot, d.licence_number, "L-7")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert count_animals(sqlite_db) == 0
    assert d.fields.error_text("species_detail") == "Say what kind of animal it is."
    assert d.fields.error_text("microchip").startswith("Microchip must be 9 to 15")
    assert d.fields.error_text("licence_year") == "Give the year the licence was issued for."
    assert d.fields.error_text("name") == ""
    assert d.fields.is_marked("microchip")
    assert (d.microchip.text(), d.licence_number.text()) == ("12AB", "L-7")
    assert d.species_detail.hasFocus()


def test_a_microchip_already_registered_is_refused_beside_the_field(
    qtbot, new_animal, wait_idle, sqlite_db, rex, operator, today
):
    create_animal(
        sqlite_db, operator, AnimalInput(species="cat", microchip="985112003456789"), today=today
    )
    d = new_animal
    type_into(qtbot, d.microchip, "985112003456789")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert "already registered" in d.fields.error_text("microchip")
    assert count_animals(sqlite_db) == 2


def test_the_licence_year_takes_only_digits(qtbot, new_animal):
    type_into(qtbot, new_animal.licence_year, "20x26")
    assert new_animal.licence_year.text() == "2026"


def test_the_owner_is_picked_by_searching(
    qtbot, new_animal, wait_idle, wait_dialog, activate, sqlite_db, operator
):
    bea = create_person(sqlite_db, operator, PersonInput(full_name="Bea Quinn"))
    create_person(sqlite_db, operator, PersonInput(full_name="Carl Ortiz"))
    d = new_animal
    type_into(qtbot, d.name, "Tibbles")
    qtbot.keyClick(d, Qt.Key.Key_O, Qt.KeyboardModifier.AltModifier)  # &Owner: presses Choose…
    picker = wait_dialog("PersonPickerDialog")
    wait_idle()
    assert picker.model.rowCount() == 2
    qtbot.keyClicks(picker.search, "quinn")
    qtbot.waitUntil(lambda: picker.model.search_text() == "quinn")
    wait_idle()
    assert picker.status.text() == "1 found"
    qtbot.keyClick(picker.search, Qt.Key.Key_Down)
    qtbot.keyClick(picker.view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: d.owner_name.text() == f"Bea Quinn (#{bea.id})")
    activate(d)
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert get_animal(sqlite_db, d.animal().id).owner_name == "Bea Quinn"


def test_the_owner_can_be_removed(qtbot, rex_dialog, wait_idle, sqlite_db, rex):
    d = rex_dialog
    qtbot.mouseClick(d.clear_owner_button, Qt.MouseButton.LeftButton)
    assert d.owner_name.text() == ""
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert get_animal(sqlite_db, rex.id).owner_id is None


def test_the_owner_opens_from_the_animal(qtbot, rex_dialog, wait_dialog, rex):
    qtbot.mouseClick(rex_dialog.open_owner_button, Qt.MouseButton.LeftButton)
    person = wait_dialog("PersonDialog")
    assert person.full_name.text() == "Ana Ruiz"
    assert person.animals_model.rowCount() == 1


def test_a_vaccination_is_added_and_listed_as_current(
    qtbot, rex_dialog, wait_idle, wait_dialog, sqlite_db, rex, rows_of
):
    d = rex_dialog
    qtbot.keyClick(d, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)  # Rabies &vaccinations
    assert d.tabs.currentIndex() == 1
    qtbot.mouseClick(d.add_vaccination_button, Qt.MouseButton.LeftButton)
    v = wait_dialog("VaccinationDialog")
    v.vaccinated_on.setDate(QDate(2026, 3, 2))
    qtbot.mouseClick(v.three_years_button, Qt.MouseButton.LeftButton)
    assert v.expires_on.date() == QDate(2029, 3, 2)
    type_into(qtbot, v.certificate_number, "RV-0042")
    type_into(qtbot, v.veterinarian, "Dr. Lee")
    qtbot.keyClick(v, Qt.Key.Key_S, CTRL)
    wait_idle()
    qtbot.waitUntil(lambda: d.vaccinations_model.rowCount() == 1)
    (stored,) = get_animal(sqlite_db, rex.id).vaccinations
    assert (stored.vaccinated_on, stored.expires_on, stored.certificate_number) == (
        date(2026, 3, 2),
        date(2029, 3, 2),
        "RV-0042",
    )
    assert rows_of(d.vaccinations_view) == [
        ("Mon 2 Mar 2026", "Fri 2 Mar 2029", "Current", "RV-0042", "Dr. Lee")
    ]
    assert d.history_model.row_object(0).action == "add_vaccination"


def test_a_vaccination_expiring_before_it_was_given_is_refused(
    qtbot, rex_dialog, wait_idle, wait_dialog, sqlite_db, rex
):
    qtbot.mouseClick(rex_dialog.add_vaccination_button, Qt.MouseButton.LeftButton)
    v = wait_dialog("VaccinationDialog")
    v.vaccinated_on.setDate(QDate(2026, 3, 2))
    v.expires_on.setDate(QDate(2025, 3, 2))
    qtbot.keyClick(v, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert v.isVisible()
    assert v.fields.error_text("expires_on") == "Expiry cannot be before the vaccination date."
    assert get_animal(sqlite_db, rex.id).vaccinations == ()


def test_history_lists_every_change_newest_first(qtbot, rex_dialog, wait_idle, sqlite_db, rows_of):
    d = rex_dialog
    d.colour.setText("tan")
    qtbot.keyClick(d, Qt.Key.Key_S, CTRL)
    wait_idle()
    d.tabs.setCurrentIndex(2)
    assert [
        (r[1], r[2], r[3]) for r in rows_of(d.history_view)
    ] == [  # the account's name (issue 12: every actor has one)
        ("Opal Operator", "Changed", "Changed colour from (blank) to “tan”."),
        ("Opal Operator", "Created", rows_of(d.history_view)[1][3]),
    ]


def test_the_record_lists_pass_the_model_tester(
    qtbot, qtmodeltester, rex_dialog, wait_idle, wait_dialog, sqlite_db, operator, rex, today
):
    from fieldops.services.animals import VaccinationInput, add_vaccination

    add_vaccination(
        sqlite_db,
        operator,
        rex.id,
        VaccinationInput(date(2026, 1, 5), date(2027, 1, 5), "RV-1"),
        today=today,
    )
    d = rex_dialog
    d.vaccinations_model.set_rows(get_animal(sqlite_db, rex.id).vaccinations)
    wait_idle()
    qtmodeltester.check(d.vaccinations_model)
    qtmodeltester.check(d.history_model)
    qtbot.mouseClick(d.open_owner_button, Qt.MouseButton.LeftButton)
    person = wait_dialog("PersonDialog")
    wait_idle()
    qtmodeltester.check(person.animals_model)
    qtmodeltester.check(person.history_model)


def test_tab_moves_through_the_animal_form_in_reading_order(new_animal):
    d = new_animal
    expected = [
        d.name,
        d.species,
        d.breed,
        d.colour,
        d.sex,
        d.altered,  # Kind is disabled
        d.birth_date.unknown,
        d.markings,
        d.microchip,
        d.licence_number,
        d.licence_year,
        d.choose_owner_button,
        d.notes,
    ]
    seen, w = [], d.name
    while len(seen) < len(expected):
        seen.append(w)
        w = w.nextInFocusChain()
        while not (w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isEnabled() and w.isVisible()):
            w = w.nextInFocusChain()
    assert seen == expected


def test_a_new_owner_who_is_already_on_file_is_picked_not_made_twice(
    qtbot, new_animal, wait_idle, wait_dialog, sqlite_db, operator
):
    from fieldops.services.people import count_people

    bea = create_person(
        sqlite_db, operator, PersonInput(full_name="Bea Quinn", address="4 Oak Ave")
    )
    d = new_animal
    qtbot.mouseClick(d.choose_owner_button, Qt.MouseButton.LeftButton)
    picker = wait_dialog("PersonPickerDialog")
    qtbot.mouseClick(picker.new_button, Qt.MouseButton.LeftButton)
    person = wait_dialog("PersonDialog")
    type_into(qtbot, person.full_name, "Bea Quinn")
    type_into(qtbot, person.address, "4 Oak Ave")
    qtbot.keyClick(person, Qt.Key.Key_S, CTRL)
    wait_idle()
    assert person.match_panel.isVisible()
    qtbot.mouseClick(person.use_existing_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: d.owner_name.text() == f"Bea Quinn (#{bea.id})")
    assert count_people(sqlite_db) == 1
