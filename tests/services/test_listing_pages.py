"""A deep page of the people and animals lists is the same whichever end it is read from.

Past ``DEEP_OFFSET`` a page is walked from the nearer end of the list (the last
page of a million people stepped every index entry before it); patching the
threshold to 0 makes every page read that way on a handful of rows.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from fieldops.services.animal_record import animal_list_page
from fieldops.services.animals import AnimalInput, animals_page, create_animal
from fieldops.services.people import PersonInput, create_person, people_page

ZONE = ZoneInfo("America/Chicago")
NAMES = ("Abe Ames", "Bo Bell", "Cy Cole", "Di Dunn", "Ed Eyre", "Flo Fox", "Gus Gray")


def test_people_and_animals_pages_either_way(db, operator, today, monkeypatch):
    for name in NAMES:
        person = create_person(db, operator, PersonInput(full_name=name, address="1 Elm St"))
        pet = AnimalInput(species="dog", name=name.split()[0], owner_id=person.id)
        create_animal(db, operator, pet, today=today)

    def pages(deep, text=""):
        monkeypatch.setattr("fieldops.services.listing.DEEP_OFFSET", deep)
        return [
            (
                [r.full_name for r in people_page(db, text, offset, 3).rows],
                [r.name for r in animals_page(db, text, offset, 3).rows],
                [r.name for r in animal_list_page(db, text, offset, 3, zone=ZONE).rows],
            )
            for offset in (0, 3, 5, 6, 7, 9)
        ]

    forward = pages(10**9)
    assert forward[1] == (
        ["Di Dunn", "Ed Eyre", "Flo Fox"],
        ["Di", "Ed", "Flo"],
        ["Di", "Ed", "Flo"],
    )
    assert forward[3] == (["Gus Gray"], ["Gus"], ["Gus"]) and forward[4] == ([], [], [])
    assert pages(0) == forward
    assert pages(0, "elm") == pages(10**9, "elm")
