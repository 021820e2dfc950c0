"""Intake at the counter: validation beside the fields, registry matches, the repeat warning."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from support import local

from fieldops.services.impounds import get_impoundment, impoundment_ids_for_animal
from ui.impounds import opening
from ui.impounds.intake_dialog import IntakeDialog


@pytest.fixture
def dialog(qtbot, ctx, host):
    d = IntakeDialog(ctx, host)  # closes itself (deleted on close); the host is cleaned up
    d.show()
    return d


def closed(dialog) -> bool:
    return not shiboken6.isValid(dialog) or not dialog.isVisible()


def fill_impoundment(qtbot, d, at=None, officer="Off. Marco Vang") -> None:
    d.impounded_at.set_value(at or local(2026, 11, 27, 9, 30))
    qtbot.keyClicks(d.officer, officer)
    qtbot.keyClicks(d.found_place, "700 block of Elm St")
    qtbot.keyClicks(d.kennel, "K-4")


def impound_by_chip(qtbot, d, wait_idle, chip: str) -> None:
    """The impoundment filled in, and the registry animal with ``chip`` chosen."""
    fill_impoundment(qtbot, d)
    qtbot.keyClicks(d.microchip, chip)
    d.find_matches_now()
    wait_idle()
    d.choose_match(0)
    wait_idle()


def test_errors_show_beside_their_fields_and_nothing_is_saved(qtbot, dialog, wait_idle, sqlite_db):
    d = dialog
    d.species.setCurrentIndex(d.species.findData("other"))
    qtbot.keyClicks(d.microchip, "12")
    d.impounded_at.set_value(local(2026, 12, 30, 9, 0))  # in the future
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not closed(d)
    assert d.fields.error_text("officer") == "Impounding officer is required."
    assert d.fields.error_text("impounded_at") == "Impoundment cannot be in the future."
    assert d.fields.error_text("animal.species_detail") == "Say what kind of animal it is."
    assert "9 to 15" in d.fields.error_text("animal.microchip")
    assert d.fields.is_marked("animal.microchip")
    # Where it was found, and a description (or a registry animal): issue 7, item 3.
    assert d.fields.is_marked("found_place") and d.fields.is_marked("animal.breed")
    assert d.banner.text().startswith("Nothing was saved: correct the 6 marked fields.")
    with sqlite_db.read() as s:
        from sqlalchemy import text

        assert s.execute(text("select count(*) from impoundment")).scalar_one() == 0


def test_a_new_animal_is_registered_and_its_impoundment_opens(
    qtbot, dialog, wait_idle, wait_dialog, ctx, pound
):
    d = dialog
    qtbot.keyClicks(d.name, "Biscuit")
    qtbot.keyClicks(d.breed, "Corgi")
    qtbot.keyClicks(d.colour, "red")
    d.age.setValue(3)
    fill_impoundment(qtbot, d)
    d.bit_person.setChecked(True)
    assert "Owner may claim until Mon 7 Dec 2026: 10 days" in d.hold_preview.text()
    d.saved.connect(lambda view: opening.open_impoundment(ctx, view.id, d.parent()))
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    view = record.view()
    assert closed(d)
    assert (view.animal.name, view.animal.breed, view.officer, view.kennel) == (
        "Biscuit",
        "Corgi",
        "Off. Marco Vang",
        "K-4",
    )
    assert view.animal.approximate_age == "about 3 years"
    assert record.status_chip.text() == "On hold"
    assert record.countdown.text() == "10 days left in the hold."
    assert record.summary.hold.pairs.value("Owner may claim until") == (
        "Mon 7 Dec 2026 (end of the day)"
    )
    record.close()


def test_a_microchip_finds_the_registry_animal_and_its_owner(qtbot, dialog, wait_idle, pound):
    rex = pound.animal("Rex", owner=pound.ana, breed="Beagle", microchip="985112003456789")
    pound.animal("Rexy", breed="Beagle")
    d = dialog
    qtbot.keyClicks(d.microchip, "985112003456789")
    qtbot.keyClick(d.microchip, Qt.Key.Key_Return)
    wait_idle()
    assert [(m.matched_by, m.animal.name) for m in d.matches_model._rows] == [("Microchip", "Rex")]
    d.matches_view.selectRow(0)
    qtbot.mouseClick(d.use_match_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert d.chosen_animal().id == rex.id
    assert d.chosen.text() == f"<b>Rex, dog, Beagle</b>, registry animal #{rex.id}"
    assert d.owner.person_id() == pound.ana.id
    assert not d.name.isEnabled()
    assert d.repeat_text() == ""


def test_a_description_suggests_possible_matches(qtbot, dialog, wait_idle, pound, qtmodeltester):
    pound.animal("Rex", owner=pound.ana, breed="Beagle", colour="tan")
    pound.animal("Tibbles", species="cat", breed="Beagle")  # another species: not offered
    pound.animal("Max", breed="Boxer", colour="tan")
    d = dialog
    qtbot.keyClicks(d.breed, "beagle")
    qtbot.keyClicks(d.colour, "tan")
    d.find_matches_now()
    wait_idle()
    assert [(m.matched_by, m.animal.name) for m in d.matches_model._rows] == [
        ("Description", "Rex")
    ]
    assert d.matches_heading.text() == "Possible matches in the registry — 1"
    qtmodeltester.check(d.matches_model)


def test_a_repeat_impoundment_is_announced_before_saving(
    qtbot, dialog, wait_idle, pound, sqlite_db
):
    rex = pound.animal("Rex", owner=pound.ana, microchip="985112003456789")
    first = pound.impound(rex, local(2026, 10, 20, 10, 0))
    pound.pay_all(first, local(2026, 10, 21, 10, 0), True, pound.ana)
    pound.vaccinate(rex)
    pound.release(
        first,
        pound.ReleaseRequest(
            True, pound.ana.id, at=local(2026, 10, 21, 10, 0), licence_receipt="L-1"
        ),
    )
    d = dialog
    impound_by_chip(qtbot, d, wait_idle, "985112003456789")
    warning = (
        f"Impounded before on Tue 20 Oct 2026 (#{first.id}): the owner's impound fee "
        "will be doubled."
    )
    assert d.repeat_text() == warning
    assert d.repeat_label.isVisible()
    # Moving the time past the 60-day window takes the warning away.
    d.impounded_at.set_value(local(2026, 10, 19, 9, 0))
    d.check_repeat()
    wait_idle()
    assert d.repeat_text() == ""
    d.impounded_at.set_value(local(2026, 11, 27, 9, 30))
    # Save before the check has answered: the warning shows and nothing is saved yet.
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not closed(d) and d.repeat_text() == warning
    assert "Save again" in d.banner.text()
    assert len(impoundment_ids_for_animal(sqlite_db, rex.id)) == 1
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d)
    latest = impoundment_ids_for_animal(sqlite_db, rex.id)[0]
    assert get_impoundment(sqlite_db, latest, pound.profile).repeat_of == first.id


def test_an_animal_in_the_pound_now_is_refused_beside_the_animal_and_the_form_kept(
    qtbot, dialog, wait_idle, pound, sqlite_db
):
    rex = pound.animal("Rex", owner=pound.ana, microchip="985112003456789")
    first = pound.impound(rex, local(2026, 11, 20, 10, 0))
    d = dialog
    impound_by_chip(qtbot, d, wait_idle, "985112003456789")
    # Said as soon as the animal is chosen, with no fee warning for an intake refused.
    assert f"#{first.id}" in d.fields.error_text("animal") and d.fields.is_marked("animal")
    assert d.repeat_text() == "" and not d.repeat_label.isVisible()
    assert d.focusWidget() is not d.new_animal_button  # the mark moves no cursor
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not closed(d)
    assert f"#{first.id}" in d.fields.error_text("animal")
    assert d.found_place.text() == "700 block of Elm St"  # what was typed stays
    assert impoundment_ids_for_animal(sqlite_db, rex.id) == (first.id,)
    d.describe_new_animal()  # another animal chosen: the mark goes
    assert d.fields.error_text("animal") == "" and not d.fields.is_marked("animal")


def test_the_photo_is_kept_and_shown_on_the_record(
    qtbot, dialog, wait_idle, wait_dialog, ctx, tmp_path, pound
):
    image = QImage(64, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("orange"))
    path = tmp_path / "intake photo.png"
    image.save(str(path))
    d = dialog
    qtbot.keyClicks(d.name, "Pixel")
    qtbot.keyClicks(d.colour, "black")
    fill_impoundment(qtbot, d)
    d.photo_field.add_photo(str(path))
    wait_idle()
    assert d.photo_field.photo_name.text().startswith("intake photo.png (")
    d.saved.connect(lambda view: opening.open_impoundment(ctx, view.id, d.parent()))
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    assert record.view().has_photo
    assert record.documents.photo.pixmap().width() > 0
    assert record.documents.photo.toolTip() == "intake photo.png"
    record.close()


def test_a_surrender_of_a_registry_animal_by_a_stranger_is_refused_beside_the_owner(
    qtbot, dialog, wait_idle, pound
):
    d = dialog
    pound.animal("Patch", owner=pound.ana, breed="Terrier", microchip="985112000000777")
    impound_by_chip(qtbot, d, wait_idle, "985112000000777")
    d.reason.setCurrentIndex(d.reason.findData("owner_surrender"))
    d.owner.set_person(pound.bo.id, pound.bo.full_name)  # not the owner of record
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not closed(d)
    assert d.fields.is_marked("owner_id") and d.fields.error_text("owner_id")
    d.owner.set_person(pound.ana.id, pound.ana.full_name)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d)


def test_an_owner_surrender_needs_the_owner(qtbot, dialog, wait_idle, pound):
    d = dialog
    qtbot.keyClicks(d.name, "Patch")
    qtbot.keyClicks(d.breed, "Terrier")
    fill_impoundment(qtbot, d)
    d.reason.setCurrentIndex(d.reason.findData("owner_surrender"))
    assert "No claim period" in d.hold_preview.text()
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert d.fields.error_text("owner_id").startswith("An owner surrender needs the owner")
    d.owner.set_person(pound.ana.id, pound.ana.full_name)
    qtbot.mouseClick(d.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert closed(d)
