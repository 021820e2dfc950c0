"""Intake at the counter with a scanner (issue 7, items 3 and 5): Enter in the chip or
licence field looks the animal up and never saves; a known chip points to its animal;
the match list shows identifiers whole; the age, altered, condition, injuries and the
officer read the same on the form and on the saved record."""

from __future__ import annotations

from datetime import date

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import text
from support import local

from fieldops.services.impounds import get_impoundment, impoundment_ids_for_animal
from fieldops.services.staff import set_staff
from ui.impounds import opening
from ui.impounds.intake_dialog import IntakeDialog

CHIP = "985112345678901"


@pytest.fixture
def dialog(qtbot, ctx, host, wait_idle):
    d = IntakeDialog(ctx, host)
    d.show()
    qtbot.waitExposed(d)
    d.activateWindow()
    wait_idle()  # the officer list has arrived
    return d


def impoundments(db) -> int:
    with db.read() as s:
        return s.execute(text("select count(*) from impoundment")).scalar_one()


def closed(d) -> bool:
    return not shiboken6.isValid(d) or not d.isVisible()


def fill_the_rest(qtbot, d) -> None:
    """Everything a save needs, so only Enter decides whether something is saved."""
    d.impounded_at.set_value(local(2026, 11, 27, 9, 30))
    qtbot.keyClicks(d.officer, "Off. Marco Vang")
    qtbot.keyClicks(d.found_place, "700 block of Elm St")
    qtbot.keyClicks(d.breed, "Beagle")


def test_enter_after_a_new_chip_looks_it_up_and_saves_nothing(qtbot, dialog, wait_idle, sqlite_db):
    d = dialog
    fill_the_rest(qtbot, d)
    d.microchip.setFocus()
    qtbot.keyClicks(d.microchip, CHIP)
    qtbot.keyClick(d.microchip, Qt.Key.Key_Return)
    wait_idle()
    assert impoundments(sqlite_db) == 0
    assert not closed(d)
    assert d.matches_heading.text() == "Possible matches in the registry — none"
    assert d.microchip.text() == CHIP  # what was scanned stays


def test_enter_after_a_known_chip_offers_its_animal_and_enter_again_uses_it(
    qtbot, dialog, wait_idle, pound, sqlite_db
):
    rex = pound.animal("Rex", owner=pound.ana, breed="Beagle", microchip=CHIP)
    d = dialog
    d.microchip.setFocus()
    qtbot.keyClicks(d.microchip, CHIP)
    qtbot.keyClick(d.microchip, Qt.Key.Key_Return)
    wait_idle()
    assert impoundments(sqlite_db) == 0 and not closed(d)
    assert d.matches_view.current_row() == 0
    assert d.use_match_button.isEnabled() and d.use_match_button.hasFocus()
    assert d.offer_label.isVisible() and f"(#{rex.id})" in d.offer_label.text()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    wait_idle()
    assert d.chosen_animal().id == rex.id
    assert impoundments(sqlite_db) == 0 and not closed(d)


def test_enter_in_the_licence_field_or_the_match_list_never_saves(
    qtbot, dialog, wait_idle, pound, sqlite_db
):
    rex = pound.animal("Rex", breed="Beagle", licence_number="L-2026-17", licence_year=2026)
    d = dialog
    fill_the_rest(qtbot, d)
    d.licence_number.setFocus()
    qtbot.keyClicks(d.licence_number, "l-2026-17")
    qtbot.keyClick(d.licence_number, Qt.Key.Key_Return)
    wait_idle()
    assert impoundments(sqlite_db) == 0
    assert d.matches_view.current_row() == 0 and d.use_match_button.hasFocus()
    d.matches_view.setFocus()
    qtbot.keyClick(d.matches_view, Qt.Key.Key_Return)  # chooses the match, nothing more
    wait_idle()
    assert d.chosen_animal().id == rex.id
    assert impoundments(sqlite_db) == 0 and not closed(d)


def test_a_known_chip_refused_is_marked_and_points_to_use_this_animal(
    qtbot, dialog, wait_idle, pound, sqlite_db
):
    rex = pound.animal("Rex", owner=pound.ana, breed="Beagle", microchip=CHIP)
    d = dialog
    fill_the_rest(qtbot, d)
    qtbot.keyClicks(d.microchip, CHIP)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert impoundments(sqlite_db) == 0 and not closed(d)
    assert d.fields.is_marked("animal.microchip")
    assert f"#{rex.id}" in d.fields.error_text("animal.microchip")
    assert "Use this animal" in d.fields.error_text("animal.microchip")
    assert d.banner.text().startswith("Nothing was saved: correct the marked field.")
    assert d.matches_view.current_row() == 0 and d.use_match_button.isEnabled()
    assert d.breed.text() == "Beagle"  # the form keeps what was typed
    qtbot.mouseClick(d.use_match_button, Qt.MouseButton.LeftButton)
    wait_idle()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d) and len(impoundment_ids_for_animal(sqlite_db, rex.id)) == 1


def test_where_found_and_a_description_are_asked_for_beside_their_fields(
    qtbot, dialog, wait_idle, sqlite_db
):
    d = dialog
    qtbot.keyClicks(d.officer, "Off. Marco Vang")
    qtbot.keyClicks(d.microchip, CHIP)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert impoundments(sqlite_db) == 0 and not closed(d)
    assert d.fields.is_marked("found_place") and d.fields.error_text("found_place")
    assert "registry animal" in d.fields.error_text("animal.breed")
    assert d.banner.text().startswith("Nothing was saved: correct the 2 marked fields.")
    assert (d.officer.text(), d.microchip.text()) == ("Off. Marco Vang", CHIP)


def test_the_match_list_shows_chip_and_licence_whole(qtbot, dialog, wait_idle, pound):
    pound.animal(
        "Rex",
        breed="Beagle",
        colour="tan",
        microchip=CHIP,
        licence_number="DL-2026-004512",
        licence_year=2026,
    )
    d = dialog
    qtbot.keyClicks(d.breed, "Beagle")
    d.find_matches_now()
    wait_idle()
    assert d.matches_model.rowCount() == 1
    titles = [
        d.matches_model.headerData(c, Qt.Orientation.Horizontal)
        for c in range(d.matches_model.columnCount())
    ]
    for title in ("Microchip", "Licence"):
        column = titles.index(title)
        assert d.matches_view.columnWidth(column) >= d.matches_view.sizeHintForColumn(column)


def test_a_registry_animal_shows_the_age_the_record_will_keep(
    qtbot, dialog, wait_idle, wait_dialog, ctx, pound
):
    rex = pound.animal("Rex", breed="Beagle", birth_date=date(2021, 6, 1), altered=True)
    d = dialog
    fill_the_rest(qtbot, d)
    d._set_registry_animal(
        __import__("fieldops.services.animals", fromlist=["get_animal"]).get_animal(
            pound.db, rex.id
        )
    )
    wait_idle()
    assert d.age.text() == "about 5 years"
    assert d.altered.currentText() == "Yes"
    d.saved.connect(lambda view: opening.open_impoundment(ctx, view.id, d.parent()))
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    assert record.summary.animal.value("Approximate age") == "about 5 years"
    record.close()


def test_a_guessed_age_reads_the_same_before_and_after_saving(
    qtbot, dialog, wait_idle, sqlite_db, pound
):
    d = dialog
    fill_the_rest(qtbot, d)
    d.impounded_at.set_value(local(2026, 10, 31, 9, 30))  # the month before "today"
    d.age.setValue(0)
    assert d.age.text() == "about 6 months"
    d.age.setValue(3)
    shown = d.age.text()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d)
    with sqlite_db.read() as s:
        imp_id = s.execute(text("select max(id) from impoundment")).scalar_one()
    assert shown == "about 3 years"
    assert get_impoundment(sqlite_db, imp_id, pound.profile).animal.approximate_age == shown


def test_altered_condition_and_injuries_reach_the_record(
    qtbot, dialog, wait_idle, wait_dialog, ctx
):
    d = dialog
    fill_the_rest(qtbot, d)
    d.altered.setCurrentIndex(d.altered.findText("No"))
    qtbot.keyClicks(d.condition, "thin, matted")
    qtbot.keyClicks(d.injuries, "Cut on the left fore paw")
    d.saved.connect(lambda view: opening.open_impoundment(ctx, view.id, d.parent()))
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    v = record.view()
    assert (v.animal.altered, v.condition, v.injuries) == (
        False,
        "thin, matted",
        "Cut on the left fore paw",
    )
    assert record.summary.impoundment.value("Condition") == "thin, matted"
    assert record.summary.impoundment.value("Injuries") == "Cut on the left fore paw"
    assert record.summary.animal.value("Altered") == "No"
    record.close()


def test_the_officer_is_chosen_from_staff_and_the_last_one_is_remembered(
    qtbot, ctx, host, wait_idle, sqlite_db, admin
):
    # Issue 12: an administrator goes on no calls; a supervisor does, after the officers.
    set_staff(sqlite_db, admin, "ada", "admin", full_name="Ada Admin")
    set_staff(sqlite_db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    set_staff(sqlite_db, admin, "marco", "officer", full_name="Off. Marco Vang")
    set_staff(sqlite_db, admin, "dana", "officer", full_name="Off. Dana Lee")
    d = IntakeDialog(ctx, host)
    d.show()
    wait_idle()
    names = [d.officer.itemText(i) for i in range(d.officer.count())]
    assert names == ["Off. Dana Lee", "Off. Marco Vang", "Sam Supervisor"]
    assert d.officer.text() == ""
    d.officer.setCurrentIndex(names.index("Off. Marco Vang"))

    def fill():
        d.impounded_at.set_value(local(2026, 11, 27, 9, 30))
        qtbot.keyClicks(d.found_place, "Elm")
        qtbot.keyClicks(d.breed, "Boxer")

    fill()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d)
    again = IntakeDialog(ctx, host)
    again.show()
    wait_idle()
    assert again.officer.text() == "Off. Marco Vang"  # remembered for this user
    again.officer.setEditText("")
    qtbot.keyClicks(again.officer, "Deputy Kim (county)")  # not on the staff list: kept as typed
    assert again.read_input().officer == "Deputy Kim (county)"
    again.close()
