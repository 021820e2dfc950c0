"""Searching people and animals as a user does: type, wait, read the rows."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt

from fieldops.services import people as people_service
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person


@pytest.fixture
def registry(sqlite_db, operator, today):
    """A few people and animals, written through the services."""
    db = sqlite_db
    ana = create_person(
        db,
        operator,
        PersonInput(
            full_name="Ana Ruiz",
            address="12 Elm St",
            city="Madison",
            postal_code="53703",
            phone="608-555-0142",
            email="ana@example.org",
        ),
    )
    bea = create_person(
        db,
        operator,
        PersonInput(
            full_name="Bea Quinn", address="4 Oak Ave", city="Madison", phone="608-555-0199"
        ),
    )
    create_person(db, operator, PersonInput(full_name="Carl Ortiz", address="77 Elm St"))
    create_animal(
        db,
        operator,
        AnimalInput(
            species="dog",
            name="Rex",
            breed="Beagle",
            colour="tan",
            microchip="985112003456789",
            owner_id=ana.id,
        ),
        today=today,
    )
    create_animal(
        db,
        operator,
        AnimalInput(
            species="cat",
            name="Tibbles",
            colour="black",
            licence_number="C-2026-0042",
            licence_year=2026,
            owner_id=bea.id,
        ),
        today=today,
    )
    return {"ana": ana, "bea": bea}


@pytest.fixture
def page(window, wait_idle, registry, qtbot):
    page = window.current_page()
    qtbot.keyClick(window, Qt.Key.Key_F5)  # the registry was filled after the window opened
    wait_idle()
    return page


def search(qtbot, page, wait_idle, text: str) -> None:
    page.search.clear()
    qtbot.keyClicks(page.search, text)
    qtbot.waitUntil(lambda: page.people_model.search_text() == text, timeout=5000)
    wait_idle()


def test_the_lists_open_with_everyone_in_family_name_order(page, rows_of):
    assert rows_of(page.people.view, 1) == [("Carl Ortiz",), ("Bea Quinn",), ("Ana Ruiz",)]
    assert rows_of(page.animals.view, 1) == [("Rex",), ("Tibbles",)]
    assert page.people.heading.text() == "&People — 3"
    assert page.animals.heading.text() == "&Animals — 2"


@pytest.mark.parametrize(
    ("text", "people", "animals"),
    [
        # An owner's name, address or phone finds their animals too.
        ("ruiz", ["Ana Ruiz"], ["Rex"]),
        ("elm st", ["Carl Ortiz", "Ana Ruiz"], ["Rex"]),
        ("555-0199", ["Bea Quinn"], ["Tibbles"]),  # a phone number as people write it
        ("985112003456789", [], ["Rex"]),  # a microchip
        ("c-2026-0042", [], ["Tibbles"]),  # a licence, in any case
        ("tibb", [], ["Tibbles"]),  # the start of a name
    ],
)
def test_one_search_box_finds_people_and_animals(
    qtbot, page, wait_idle, rows_of, text, people, animals
):
    search(qtbot, page, wait_idle, text)
    assert [r[0] for r in rows_of(page.people.view, 1)] == people
    assert [r[0] for r in rows_of(page.animals.view, 1)] == animals


def test_the_heading_says_when_nothing_matches(qtbot, page, wait_idle):
    search(qtbot, page, wait_idle, "zebra")
    assert page.people.heading.text() == "&People — none match “zebra”"
    assert page.people_model.rowCount() == 0


def test_typing_is_debounced_into_one_search(qtbot, page, wait_idle, monkeypatch):
    asked = []
    real = page.people_model._page_fn
    monkeypatch.setattr(page.people_model, "_page_fn", lambda t, *a: asked.append(t) or real(t, *a))
    qtbot.keyClicks(page.search, "quinn")
    qtbot.waitUntil(lambda: asked == ["quinn"], timeout=5000)
    wait_idle()
    assert asked == ["quinn"]


def test_searching_is_shown_while_the_database_works(qtbot, page, wait_idle, monkeypatch):
    gate = threading.Event()
    real = page.people_model._count_fn
    monkeypatch.setattr(page.people_model, "_count_fn", lambda t: gate.wait(5) and real(t))
    qtbot.keyClicks(page.search, "bea")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: page.status.text() == "Searching…")
    # The window still answers while the count runs.
    qtbot.keyClicks(page.search, " q")
    assert page.search.text() == "bea q"
    gate.set()
    wait_idle()
    assert page.status.text() == ""


def test_escape_in_the_search_box_clears_it_and_shows_everyone(qtbot, page, wait_idle):
    search(qtbot, page, wait_idle, "ruiz")
    qtbot.keyClick(page.search, Qt.Key.Key_Escape)
    wait_idle()
    assert page.search.text() == ""
    assert page.people_model.rowCount() == 3


def test_ctrl_f_focuses_the_search_box(qtbot, window, page):
    page.people.view.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert page.search.hasFocus()


def test_down_then_enter_opens_the_first_person(qtbot, page, wait_idle, wait_dialog):
    search(qtbot, page, wait_idle, "quinn")
    qtbot.keyClick(page.search, Qt.Key.Key_Down)
    assert page.people.view.hasFocus()
    qtbot.keyClick(page.people.view, Qt.Key.Key_Return)
    dialog = wait_dialog("PersonDialog")
    assert dialog.full_name.text() == "Bea Quinn"
    assert dialog.windowTitle().startswith("Bea Quinn")


def test_enter_on_an_animal_opens_it(qtbot, page, wait_idle, wait_dialog, registry):
    search(qtbot, page, wait_idle, "rex")
    page.animals.view.setFocus()
    page.animals.view.selectRow(0)
    qtbot.keyClick(page.animals.view, Qt.Key.Key_Return)
    dialog = wait_dialog("AnimalDialog")
    assert dialog.name.text() == "Rex"
    assert dialog.owner_name.text() == f"Ana Ruiz (#{registry['ana'].id})"


def test_ctrl_n_and_ctrl_shift_n_open_new_records(qtbot, window, page, wait_dialog, activate):
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    person = wait_dialog("PersonDialog")
    assert person.windowTitle() == "New person"
    qtbot.keyClick(person, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not person.isVisible())
    activate(window)
    qtbot.keyClick(
        window,
        Qt.Key.Key_N,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    animal = wait_dialog("AnimalDialog")
    assert animal.windowTitle() == "New animal"


def test_the_open_button_opens_the_highlighted_row(qtbot, page, wait_idle, wait_dialog):
    page.animals.view.selectRow(1)
    qtbot.mouseClick(page.open_button, Qt.MouseButton.LeftButton)
    assert wait_dialog("AnimalDialog").name.text() == "Tibbles"


def test_a_saved_change_elsewhere_refreshes_the_lists(
    qtbot, window, page, wait_idle, sqlite_db, operator, rows_of
):
    create_person(sqlite_db, operator, PersonInput(full_name="Dee Adams"))
    window.ctx.bus.changed.emit("person", 0)
    wait_idle()
    assert rows_of(page.people.view, 1)[0] == ("Dee Adams",)


def test_people_service_search_is_what_the_list_shows(qtbot, page, wait_idle, sqlite_db):
    search(qtbot, page, wait_idle, "madison")
    expected = [r.full_name for r in people_service.people_page(sqlite_db, "madison", 0, 50).rows]
    assert [
        page.people_model.index(r, 0).data() for r in range(page.people_model.rowCount())
    ] == expected


def test_a_single_character_is_not_searched(qtbot, page, wait_idle, monkeypatch):
    asked = []
    real = page.people_model._page_fn
    monkeypatch.setattr(page.people_model, "_page_fn", lambda t, *a: asked.append(t) or real(t, *a))
    qtbot.keyClicks(page.search, "r")
    qtbot.waitUntil(lambda: page.status.text() == "Type at least 2 characters")
    wait_idle()
    assert asked == []
    assert page.people_model.rowCount() == 3  # the list a user had stays
    qtbot.keyClicks(page.search, "u")
    qtbot.waitUntil(lambda: asked == ["ru"])
    wait_idle()
    assert page.people_model.rowCount() == 1


def test_a_refresh_keeps_the_users_place_and_a_new_search_starts_at_the_top(
    qtbot, window, page, wait_idle, sqlite_db, operator
):
    for i in range(60):
        create_person(sqlite_db, operator, PersonInput(full_name=f"Zed Person{i:02d}"))
    page.refresh()
    wait_idle()
    view = page.people.view
    view.selectRow(40)
    view.scrollTo(page.people_model.index(40, 0))
    scrolled = view.verticalScrollBar().value()
    assert scrolled > 0
    window.ctx.bus.changed.emit("person", 0)  # someone saved a person
    wait_idle()
    assert view.current_row() == 40
    assert view.verticalScrollBar().value() == scrolled
    search(qtbot, page, wait_idle, "zed")
    assert view.verticalScrollBar().value() == 0


def test_the_page_models_pass_the_model_tester(qtmodeltester, page, wait_idle):
    qtmodeltester.check(page.people_model)
    qtmodeltester.check(page.animals_model)
    wait_idle()
