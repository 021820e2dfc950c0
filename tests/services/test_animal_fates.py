"""What became of each animal, as the animals list shows it: the latest impoundment's
disposition in force (a correction is the newest), or "in the pound"; an animal never
impounded, or given back to its owner, shows none. Read in one statement a page."""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event
from support import local

from fieldops.services.animal_record import animal_fates, animal_list_page
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import destroy, transfer
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.people import PersonInput, create_person

ZONE = ZoneInfo("America/Chicago")
DAY = date(2026, 10, 5)


@pytest.fixture
def animals(db, operator, supervisor, profile):
    owner = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="1 Elm St"))

    def animal(name):
        return create_animal(
            db,
            operator,
            AnimalInput(species="dog", name=name, owner_id=owner.id),
            today=date(2026, 11, 30),
        ).id

    def impound(animal_id, days):
        at = local(DAY.year, DAY.month, DAY.day, 9) + timedelta(days=days)
        return intake(
            db,
            operator,
            IntakeInput(
                impounded_at=at,
                animal_id=animal_id,
                officer="Off. Lee",
                reason="at_large",
                found_place="Elm & 3rd",
            ),
            profile,
        ).id

    def on(days):
        return local(DAY.year, DAY.month, DAY.day, 15) + timedelta(days=days)

    ids = {name: animal(name) for name in ("home", "held", "put_down", "sent", "fixed", "twice")}
    held = impound(ids["held"], 0)
    put_down = impound(ids["put_down"], 0)
    destroy(db, operator, put_down, profile, at=on(10), basis="hold_ended", decided_by="Off. Lee")
    transfer(db, operator, impound(ids["sent"], 0), "Rescue North", profile, at=on(9))
    fixed = impound(ids["fixed"], 0)
    transfer(db, operator, fixed, "Rescue North", profile, at=on(9))
    correct_disposition(
        db, supervisor, fixed, kind="died", at=on(8), profile=profile, reason="Died first"
    )
    first = impound(ids["twice"], 0)
    transfer(db, operator, first, "Rescue South", profile, at=on(9))
    again = impound(ids["twice"], 20)
    return ids, {"held": held, "put_down": put_down, "fixed": fixed, "again": again}


def test_each_animal_reads_its_latest_impoundments_disposition_in_force(db, animals):
    ids, imps = animals
    with db.read() as s:
        fates = animal_fates(s, list(ids.values()))
    assert ids["home"] not in fates
    got = {
        name: (f.impoundment_id, f.kind, f.transfer_to)
        for name, f in fates.items()
        for name in [next(n for n, i in ids.items() if i == name)]
    }
    assert got["held"] == (imps["held"], None, "")
    assert got["put_down"] == (imps["put_down"], "euthanized", "")
    assert got["sent"][1:] == ("transferred", "Rescue North")
    assert got["fixed"] == (imps["fixed"], "died", "")  # the correction, not the transfer
    assert got["twice"] == (imps["again"], None, "")  # back in the pound: the later one
    assert fates[ids["put_down"]].at == local(2026, 10, 15, 15)


def test_the_animals_list_says_what_became_of_each_in_one_statement(db, animals):
    ids, imps = animals
    sent: list[str] = []

    def note(conn, cursor, statement, *rest):
        sent.append(statement)

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        with db.read() as s:
            animal_fates(s, list(ids.values()))
        assert len([s for s in sent if s.lstrip().upper().startswith("SELECT")]) == 1
        sent.clear()
        page = animal_list_page(db, "", 0, 50, zone=ZONE)
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    # The page and its fates: one statement, not the page then its ids sent back.
    assert len([s for s in sent if s.lstrip().upper().startswith("SELECT")]) == 1

    rows = {r.name: r for r in page.rows}
    assert rows["home"].status == "" and not rows["home"].owner_is_former
    assert rows["held"].status == f"In the pound (#{imps['held']})"
    assert rows["put_down"].status == "Deceased (euthanized Thu 15 Oct 2026)"
    assert rows["put_down"].owner_is_former
    assert rows["sent"].status == "Transferred to Rescue North Wed 14 Oct 2026"
    assert rows["fixed"].status == "Deceased (died in the pound Tue 13 Oct 2026)"
    assert rows["twice"].status == f"In the pound (#{imps['again']})"
    assert not rows["twice"].owner_is_former


def test_the_list_and_the_record_agree_on_each_fate_whichever_way_the_page_is_read(db, animals):
    """Found by a search, or read from the far end of the list, each animal's status is
    the one its own fate gives."""
    ids, _imps = animals
    with db.read() as s:
        fates = animal_fates(s, list(ids.values()))
    want = {name: fates[i].status(ZONE) if i in fates else "" for name, i in ids.items()}
    for text in ("", "ruiz"):
        forwards = animal_list_page(db, text, 0, 50, zone=ZONE).rows
        assert {r.name: r.status for r in forwards} == want, text
        assert len(forwards) == len(ids)
        last = len(forwards) - 1
        backwards = animal_list_page(db, text, last, 1, zone=ZONE).rows
        assert [r.status for r in backwards] == [want[forwards[last].name]], text
