"""The licence forms at the counter, where a scanner types a microchip or a tag and ends it
with Enter. Enter moves on and never issues (in the Dog search box it runs Find); issuing
and replacing a tag ask first, naming the dog, the owner, the tag and what was paid. After
another dog is chosen, the owner the form filled in follows it; one chosen by hand stays,
marked when it is not the dog's recorded owner. A long name shows its start."""

from __future__ import annotations

from datetime import date

import pytest
from counter_keys import scan
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from fieldops.db.models import DogLicence
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.people import PersonInput, create_person
from ui.licences import opening

REX_CHIP, BO_CHIP = "985000000000001", "985000000000002"


@pytest.fixture
def dogs(sqlite_db, operator, ctx):
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    ben = create_person(
        sqlite_db, operator, PersonInput(full_name="Ben Okafor", address="9 Oak St")
    )
    rex = create_animal(
        sqlite_db,
        operator,
        AnimalInput(species="dog", name="Rex", owner_id=ana.id, altered=True, microchip=REX_CHIP),
        today=date(2026, 1, 1),
    )
    bo = create_animal(
        sqlite_db,
        operator,
        AnimalInput(species="dog", name="Bo", owner_id=ben.id, altered=False, microchip=BO_CHIP),
        today=date(2026, 1, 1),
    )
    return ana, ben, rex, bo


def licences(db) -> list[tuple[str, int, int]]:
    with db.read() as s:
        return [(x.tag_number, x.animal_id, x.owner_id) for x in s.scalars(select(DogLicence))]


def count(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(DogLicence)) or 0


@pytest.fixture
def form_for(qtbot, ctx, window, wait_dialog, wait_idle):
    """The licence form opened at the counter (for a dog, or none), its first reads done."""

    def open_(animal_id=None):
        opening.new_licence(ctx, window, **({"animal_id": animal_id} if animal_id else {}))
        form = wait_dialog("IssueLicenceDialog")
        wait_idle()
        return form

    return open_


@pytest.fixture
def quoted(qtbot, wait_idle):
    """Wait for the live quote of the form as it now stands."""

    def wait(form) -> None:
        qtbot.waitUntil(lambda: "Total" in form.quote.text(), timeout=10_000)
        wait_idle()

    return wait


def find(qtbot, form, text: str, wait_idle) -> None:
    form.dog.search.clear()
    qtbot.keyClicks(form.dog.search, text)
    qtbot.mouseClick(form.dog.find_button, Qt.MouseButton.LeftButton)
    wait_idle()  # the matches
    wait_idle()  # the chosen dog's record


def test_enter_in_the_tag_field_moves_on_and_issues_nothing(
    qtbot, ctx, dogs, form_for, quoted, sqlite_db
):
    *_, rex, _bo = dogs
    form = form_for(rex.id)
    form.vaccinated.set_value(date(2026, 5, 1))
    scan(qtbot, form.tag, "26-0100")
    quoted(form)
    qtbot.wait(300)
    assert count(sqlite_db) == 0 and ctx.errors.questions == []
    assert form.isVisible() and QApplication.focusWidget() is not form.tag


def test_a_chip_scanned_into_the_dog_search_finds_that_dog_and_issues_nothing(
    qtbot, ctx, dogs, form_for, quoted, wait_idle, sqlite_db
):
    # Opened for Rex, the clerk scans the customer's dog, Bo: Enter issued Rex's licence.
    _ana, ben, rex, bo = dogs
    form = form_for(rex.id)
    qtbot.keyClicks(form.tag, "26-0100")
    form.vaccinated.set_value(date(2026, 5, 1))
    quoted(form)
    scan(qtbot, form.dog.search, BO_CHIP)
    wait_idle()
    wait_idle()
    qtbot.waitUntil(lambda: form.dog.animal_id() == bo.id, timeout=10_000)
    wait_idle()
    assert count(sqlite_db) == 0 and ctx.errors.questions == []
    assert QApplication.focusWidget() is form.dog.search  # Find only: no move towards Issue
    qtbot.waitUntil(lambda: form.owner.person_id() == ben.id, timeout=10_000)  # Bo's owner


def test_issuing_asks_first_naming_dog_owner_tag_and_payment(
    qtbot, ctx, dogs, form_for, quoted, wait_idle, sqlite_db
):
    ana, _ben, rex, _bo = dogs
    form = form_for(rex.id)
    qtbot.keyClicks(form.tag, "26-0100")
    form.vaccinated.set_value(date(2026, 5, 1))
    form.method.setCurrentIndex(form.method.findData("check"))
    quoted(form)
    ctx.errors.answer = False  # "Go back"
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    (question,) = ctx.errors.questions
    total = form.quote_total()
    assert "26-0100" in question and f"Rex #{rex.id}" in question and ana.full_name in question
    assert f"${total:,.2f}" in question and "check" in question
    assert count(sqlite_db) == 0 and form.isVisible()
    ctx.errors.answer = True
    issued = []
    form.saved.connect(issued.append)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(issued), timeout=10_000)
    wait_idle()
    assert licences(sqlite_db) == [("26-0100", rex.id, ana.id)]
    assert issued[0].paid_amount == total and issued[0].payment_method == "check"


def test_issue_pressed_before_the_quote_caught_up_asks_with_the_new_total(
    qtbot, ctx, dogs, form_for, quoted, wait_idle, sqlite_db
):
    *_, rex, _bo = dogs
    form = form_for(rex.id)
    qtbot.keyClicks(form.tag, "26-0100")
    form.vaccinated.set_value(date(2026, 5, 1))
    quoted(form)
    qtbot.keyClicks(form.paid, "40")  # typed, then Issue at once
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(ctx.errors.questions), timeout=10_000)
    assert "paid $40" in ctx.errors.questions[0]
    qtbot.waitUntil(lambda: count(sqlite_db) == 1, timeout=10_000)
    wait_idle()


def test_after_switching_dogs_the_owner_follows_the_dog(
    qtbot, ctx, dogs, form_for, quoted, wait_idle, sqlite_db
):
    # The first dog's owner stayed: Bo's licence was issued in Ana's name.
    ana, ben, rex, bo = dogs
    form = form_for()
    find(qtbot, form, "Rex", wait_idle)
    assert form.dog.animal_id() == rex.id and form.owner.person_id() == ana.id
    find(qtbot, form, "Bo", wait_idle)
    assert form.dog.animal_id() == bo.id and form.owner.person_id() == ben.id
    assert form.owner_note.isHidden()
    qtbot.keyClicks(form.tag, "26-0200")
    form.vaccinated.set_value(date(2026, 5, 1))
    quoted(form)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: count(sqlite_db) == 1, timeout=10_000)
    wait_idle()
    assert licences(sqlite_db) == [("26-0200", bo.id, ben.id)]
    assert ben.full_name in ctx.errors.questions[-1]


def test_an_owner_chosen_by_hand_stays_and_is_marked_when_not_the_dogs(
    qtbot, ctx, dogs, form_for, quoted, wait_idle, sqlite_db
):
    ana, ben, rex, _bo = dogs
    form = form_for()
    find(qtbot, form, "Rex", wait_idle)
    form.owner.set_person(ben.id, ben.full_name)  # as the person picker does
    assert not form.owner_note.isHidden() and ana.full_name in form.owner_note.text()
    find(qtbot, form, "Bo", wait_idle)  # Ben is Bo's owner: nothing to mark
    assert form.owner.person_id() == ben.id and form.owner_note.isHidden()
    find(qtbot, form, "Rex", wait_idle)  # chosen by hand: it stays, marked again
    assert form.owner.person_id() == ben.id and not form.owner_note.isHidden()
    qtbot.keyClicks(form.tag, "26-0300")
    form.vaccinated.set_value(date(2026, 5, 1))
    quoted(form)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: count(sqlite_db) == 1, timeout=10_000)
    wait_idle()
    question = ctx.errors.questions[-1]
    assert ben.full_name in question and "not the dog's recorded owner" in question
    assert licences(sqlite_db) == [("26-0300", rex.id, ben.id)]


def test_a_long_owner_name_shows_its_start(qtbot, ctx, sqlite_db, operator, form_for):
    name = "Zoë Ñúñez-O'Connor de la Fuente y Villanueva"
    zoe = create_person(sqlite_db, operator, PersonInput(full_name=name, address="12 Elm St"))
    pup = create_animal(
        sqlite_db,
        operator,
        AnimalInput(species="dog", name="Pup", owner_id=zoe.id, altered=False),
        today=date(2026, 6, 1),
    )
    form = form_for(pup.id)
    shown = form.owner.name
    qtbot.waitUntil(lambda: shown.text().startswith(name), timeout=10_000)
    assert shown.cursorPosition() == 0  # the line shows from its start
    assert shown.toolTip() == shown.text()


def test_a_scanned_new_tag_and_enter_replace_nothing_and_replacing_asks_first(
    qtbot, ctx, window, dogs, wait_dialog, wait_idle, sqlite_db
):
    ana, _ben, rex, _bo = dogs
    old = issue_licence(
        sqlite_db,
        ctx.actor,
        LicenceInput(
            animal_id=rex.id,
            licence_year=2026,
            tag_number="26-7",
            rabies_vaccinated_on=date(2026, 1, 2),
        ),
        ctx.profile,
    )
    opening.open_licence(ctx, old.id, window)
    record = wait_dialog("LicenceDialog")
    wait_idle()
    qtbot.mouseClick(record.replace_button, Qt.MouseButton.LeftButton)
    change = wait_dialog("LicenceChangeDialog")
    scan(qtbot, change.tag, "26-8")
    qtbot.wait(300)
    wait_idle()
    assert licences(sqlite_db) == [("26-7", rex.id, ana.id)] and ctx.errors.questions == []
    assert change.isVisible()
    done = []
    change.saved.connect(done.append)
    qtbot.mouseClick(change.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    wait_idle()
    (question,) = ctx.errors.questions
    assert "26-7" in question and "26-8" in question
    assert f"Rex #{rex.id}" in question and ana.full_name in question
    assert record.view.tag_number == "26-8"
    record.close()
