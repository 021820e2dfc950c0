"""The Today list and the impounds list."""

from __future__ import annotations

from datetime import date

from support import local

from fieldops.services.dispositions import record_escape
from fieldops.services.due import due_items
from fieldops.services.impound_list import ImpoundFilter, count_impounds, impounds_page


def test_today_lists_holds_ending_adoptable_and_overdue(db, operator, rex, impound, profile, today):
    from fieldops.services.animals import AnimalInput, create_animal

    def animal(name):
        return create_animal(db, operator, AnimalInput(species="dog", name=name), today=today).id

    day = date(2026, 11, 20)  # a Friday
    ends_today = impound(animal("A"), local(2026, 11, 13))
    ends_tomorrow = impound(animal("B"), local(2026, 11, 14))
    adoptable = impound(animal("C"), local(2026, 11, 12))
    overdue = impound(animal("D"), local(2026, 11, 2))
    gone = impound(animal("E"), local(2026, 11, 3))
    record_escape(db, operator, gone.id, profile, at=local(2026, 11, 4), notes="fence")
    on_hold = impound(animal("F"), local(2026, 11, 18))
    items = {i.impoundment_id: i.category for i in due_items(db, day, profile)}
    assert items == {
        ends_today.id: "impound.hold_ends_today",
        ends_tomorrow.id: "impound.hold_ends_tomorrow",
        adoptable.id: "impound.adoptable_today",
        overdue.id: "impound.past_hold",
    }
    assert on_hold.id not in items and gone.id not in items


def test_an_owner_surrender_is_adoptable_on_its_intake_day(
    db, operator, owner, impound, profile, today
):
    from fieldops.services.animals import AnimalInput, create_animal

    dog = create_animal(
        db, operator, AnimalInput(species="dog", name="Gus", owner_id=owner.id), today=today
    )
    imp = impound(dog.id, local(2026, 11, 20, 9), reason="owner_surrender", owner_id=owner.id)
    (item,) = due_items(db, date(2026, 11, 20), profile)
    assert item.impoundment_id == imp.id and item.category == "impound.adoptable_today"
    assert "surrendered by the owner" in item.text
    (later,) = due_items(db, date(2026, 11, 23), profile)
    assert later.category == "impound.past_hold" and "3 days ago" in later.text


def test_a_biting_surrendered_animal_still_serves_its_hold(
    db, operator, owner, impound, profile, today
):
    from fieldops.services.animals import AnimalInput, create_animal

    dog = create_animal(
        db, operator, AnimalInput(species="dog", name="Ace", owner_id=owner.id), today=today
    )
    impound(
        dog.id, local(2026, 11, 2, 9), reason="owner_surrender", owner_id=owner.id, bit_person=True
    )
    assert due_items(db, date(2026, 11, 2), profile) == ()
    (item,) = due_items(db, date(2026, 11, 12), profile)  # 2 Nov + 10, a Thursday
    assert item.category == "impound.hold_ends_today"


def test_list_filters_and_sorts_in_sql(db, operator, rex, impound, profile, today):
    from fieldops.services.animals import AnimalInput, create_animal

    cat = create_animal(db, operator, AnimalInput(species="cat", name="Tom"), today=today)
    c = impound(rex.id, local(2026, 10, 1))
    record_escape(db, operator, c.id, profile, at=local(2026, 10, 2), notes="x")
    a = impound(rex.id, local(2026, 11, 2))
    b = impound(cat.id, local(2026, 11, 25))
    at = local(2026, 11, 26)
    rows = impounds_page(db, ImpoundFilter(status="all"), 0, 10, at, profile).rows
    assert [r.id for r in rows] == [b.id, a.id, c.id]  # newest first
    assert [r.status for r in rows] == ["On hold", "Adoptable", "Escaped"]
    assert rows[1].days_held == 24 and rows[2].days_held == 1
    assert count_impounds(db, ImpoundFilter(status="in_custody"), at) == 2
    assert count_impounds(db, ImpoundFilter(status="adoptable"), at) == 1
    assert count_impounds(db, ImpoundFilter(status="disposed"), at) == 1
    assert count_impounds(db, ImpoundFilter(status="all", species="cat"), at) == 1
    assert (
        count_impounds(
            db,
            ImpoundFilter(status="all", date_from=date(2026, 11, 1), date_to=date(2026, 11, 30)),
            at,
        )
        == 2
    )
    found = impounds_page(db, ImpoundFilter(status="all", text="ruiz"), 0, 10, at, profile).rows
    assert {r.id for r in found} == {a.id, c.id}  # by owner's name
    by_hold = impounds_page(
        db, ImpoundFilter(status="all", sort="last_claim_day", descending=False), 0, 10, at, profile
    ).rows
    assert [r.id for r in by_hold] == [c.id, a.id, b.id]


def test_list_rows_carry_a_status_code_beside_the_label(db, operator, rex, impound, profile):
    """Programs (and the screens' chips) read the code; the label is for people."""
    from fieldops.services.animals import AnimalInput, create_animal

    tom = create_animal(
        db, operator, AnimalInput(species="cat", name="Tom"), today=date(2026, 11, 1)
    )
    held = impound(rex.id, local(2026, 11, 20, 9))
    gone = impound(tom.id, local(2026, 11, 2, 9))
    record_escape(db, operator, gone.id, profile, at=local(2026, 11, 3, 8), notes="gate")
    page = impounds_page(db, ImpoundFilter(status="all"), 0, 10, local(2026, 11, 24, 12), profile)
    codes = {r.id: (r.status_code, r.status) for r in page.rows}
    assert codes[held.id] == ("on_hold", "On hold")
    assert codes[gone.id] == ("escaped", "Escaped")
    later = impounds_page(db, ImpoundFilter(status="all"), 0, 10, local(2026, 12, 1, 12), profile)
    assert {r.id: r.status_code for r in later.rows}[held.id] == "adoptable"
