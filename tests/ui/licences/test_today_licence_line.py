"""Today's dog licence line (issue 14): one line for the dogs still to renew, with the
count, once they are more than ``TODAY_EACH_UP_TO``, that opens the licence list on
its filter."""

from __future__ import annotations

from datetime import date

from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences import module as licence_module
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.people import PersonInput, create_person


def test_the_late_dogs_are_one_line_that_opens_the_late_list(
    qtbot, window, sqlite_db, operator, ctx, wait_idle, monkeypatch
):
    monkeypatch.setattr(licence_module, "TODAY_EACH_UP_TO", 2)  # three dogs are many here
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm"))
    for n, name in enumerate(("Rex", "Bo", "Zu")):
        dog = create_animal(
            sqlite_db,
            operator,
            AnimalInput(species="dog", name=name, owner_id=ana.id, altered=True),
            today=date(2025, 1, 1),
        )
        issue_licence(
            sqlite_db,
            operator,
            LicenceInput(
                animal_id=dog.id,
                licence_year=2025,
                tag_number=f"25-{n}",
                applied_on=date(2025, 2, 1),
                rabies_vaccinated_on=date(2025, 1, 2),
            ),
            ctx.profile,
        )
    window.show_area("today")
    today = window.current_page()
    today.refresh()
    wait_idle()
    lines = [
        today.model.row_object(i)
        for i in range(today.model.rowCount())
        if today.model.row_object(i).module == "licence"
    ]
    assert [(i.category, i.count) for i in lines] == [("licence.late", 3)]  # not 3 lines
    assert "Dog licence not renewed: late fee due: 3" in today.summary.text()
    row = [today.model.row_object(i) for i in range(today.model.rowCount())].index(lines[0])
    today.view.setCurrentIndex(today.model.index(row, 0))
    today.open_button.click()
    wait_idle()
    assert window.current_area() == "licences"
    tab = window.current_page().licences
    assert tab.show_filter.currentData() == "late"
    tags = [tab.model.row_object(i).tag for i in range(tab.model.rowCount())]
    assert sorted(tags) == ["25-0", "25-1", "25-2"]
