"""Today's animals held past their hold (issue 14): more than ``TODAY_EACH_UP_TO`` are one
line with the count, which opens the Impounds list on "held past the hold", listing
those animals and no other filter."""

from __future__ import annotations

from support import local

from fieldops.services import pound
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.impounds import IntakeInput, intake


def test_the_animals_held_past_their_hold_are_one_line_that_opens_their_list(
    qtbot, window, sqlite_db, operator, ctx, today, wait_idle, monkeypatch
):
    monkeypatch.setattr(pound, "TODAY_EACH_UP_TO", 2)  # three animals are many here
    held = set()
    for n in range(3):  # held since October: past their hold on any later day
        dog = create_animal(
            sqlite_db, operator, AnimalInput(species="dog", name=f"Old {n}"), today=today
        )
        form = IntakeInput(
            impounded_at=local(2026, 10, 5 + n),
            animal_id=dog.id,
            officer="Off. Dana Lee",
            reason="at_large",
            found_place="Elm & 3rd",
        )
        held.add(intake(sqlite_db, operator, form, ctx.profile).id)
    window.show_area("impounds")  # a filter the line must not keep
    impounds = window.current_page()
    impounds.species.setCurrentIndex(impounds.species.findData("cat"))
    wait_idle()

    window.show_area("today")
    page = window.current_page()
    page.refresh()
    wait_idle()
    rows = [page.model.row_object(i) for i in range(page.model.rowCount())]
    lines = [i for i in rows if i.module == "impound"]
    assert [(i.category, i.count) for i in lines] == [("impound.past_hold", 3)]  # not 3 lines
    page.view.setCurrentIndex(page.model.index(rows.index(lines[0]), 0))
    page.open_button.click()
    wait_idle()
    assert window.current_area() == "impounds"
    listed = window.current_page()
    assert listed is impounds
    assert (listed.status.currentData(), listed.species.currentData()) == ("past_hold", "")
    assert {listed.model.row_object(i).id for i in range(listed.model.rowCount())} == held
    assert listed.count.text().startswith("3 ")
