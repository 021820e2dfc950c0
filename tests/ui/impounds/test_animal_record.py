"""An animal's record after the pound: a dead animal is not shown as someone's pet with a
current vaccination, and the form lists its impoundments."""

from __future__ import annotations

from PySide6.QtCore import Qt
from support import local

from fieldops.services.animals import get_animal
from fieldops.services.dispositions import destroy
from ui.people.animal_dialog import AnimalDialog
from ui.people.page import PeopleAndAnimalsWidget


def _put_down(pound, operator):
    p = pound
    rex = p.animal("Rex", owner=p.ana, breed="Beagle")
    p.vaccinate(rex)  # in force until 1 Jun 2027
    first = p.impound(rex, local(2026, 9, 1, 9, 0), kennel="K-2")
    p.pay_all(first, local(2026, 9, 2, 12, 0), True, p.ana)
    p.release(
        first, p.ReleaseRequest(True, p.ana.id, at=local(2026, 9, 2, 12, 0), licence_receipt="L-1")
    )
    second = p.impound(rex, local(2026, 11, 2, 10, 0), kennel="K-5")
    destroy(
        p.db,
        operator,
        second.id,
        p.profile,
        at=local(2026, 11, 20, 10, 0),
        basis="hold_ended",
        decided_by="Off. Lee, officer",
    )
    return rex, first, second


def test_a_euthanized_animal_reads_as_deceased_with_its_former_owner(
    qtbot, ctx, host, pound, operator, wait_for, wait_idle
):
    rex, first, second = _put_down(pound, operator)
    d = AnimalDialog(ctx, get_animal(pound.db, rex.id), host)
    d.show()
    wait_idle()
    wait_for(lambda: d.fate() is not None)
    assert d.fate_label.isVisible()
    assert d.fate_label.text() == "Deceased (euthanized Fri 20 Nov 2026)"
    assert d.owner_name.text() == f"Ana Ruiz (#{pound.ana.id}) (former owner)"
    # The registry still says whose animal it was: nothing was erased.
    assert get_animal(pound.db, rex.id).owner_id == pound.ana.id
    status = [
        d.vaccinations_model.index(r, 2).data() for r in range(d.vaccinations_model.rowCount())
    ]
    assert status == ["Ended (animal deceased)"]
    rows = [
        tuple(d.impoundments_model.index(r, c).data() for c in (0, 2, 4, 5))
        for r in range(d.impoundments_model.rowCount())
    ]
    assert rows == [
        (str(second.id), "Euthanized", "", "18"),
        (str(first.id), "Reclaimed by owner", "Ana Ruiz", "1"),
    ]
    assert d.tabs.isTabEnabled(d.impoundments_tab)
    d.close()


def test_an_animal_at_home_has_no_fate_line_and_its_owner_is_current(
    qtbot, ctx, host, pound, wait_idle
):
    rex = pound.animal("Rex", owner=pound.ana)
    pound.vaccinate(rex)
    d = AnimalDialog(ctx, get_animal(pound.db, rex.id), host)
    d.show()
    wait_idle()
    assert d.fate_label.isHidden()
    assert d.owner_name.text() == f"Ana Ruiz (#{pound.ana.id})"
    assert d.vaccinations_model.index(0, 2).data() == "Current"
    assert d.impoundments_model.rowCount() == 0
    d.close()


def test_people_and_animals_has_a_heading_and_says_the_animal_is_deceased(
    qtbot, ctx, pound, operator, wait_idle
):
    _rex, _first, _second = _put_down(pound, operator)
    pound.animal("Tom", species="cat", owner=pound.bo)
    page = PeopleAndAnimalsWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle()
    assert page.heading.text() == "People and animals"
    assert page.heading.objectName() == "PageHeading"
    model = page.animals_model
    titles = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    status, owner = titles.index("Status"), titles.index("Owner")
    shown = {
        model.index(r, 0).data(): (model.index(r, status).data(), model.index(r, owner).data())
        for r in range(model.rowCount())
    }
    assert shown["Rex"] == ("Deceased (euthanized Fri 20 Nov 2026)", "Ana Ruiz (former owner)")
    assert shown["Tom"] == ("", "Bo Adler")
