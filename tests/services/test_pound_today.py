"""Today's animals held past their hold (issue 14): more than ``TODAY_EACH_UP_TO`` are one
line with their count, which opens the impounds list on "held past the hold"; that list
holds exactly the animals ``fieldops due`` lists one by one; up to the cap Today lists
each, as before."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from support import local

from fieldops.services import pound
from fieldops.services.dispositions import record_escape
from fieldops.services.impound_list import ImpoundFilter, count_impounds, impounds_page

DAY = date(2026, 11, 20)  # a Friday
PAST = "impound.past_hold"
LISTED = ImpoundFilter(status="past_hold")


@pytest.fixture
def pound_of(db, operator, owner, impound, profile, today):
    """A pound on ``DAY``: ``n`` dogs impounded 2-3 weeks before (held past their hold),
    a surrendered cat of the week before (also past it), and one animal of each other
    kind of item, an animal on hold and one gone."""
    from fieldops.services.animals import AnimalInput, create_animal

    def animal(name: str, species: str = "dog") -> int:
        a = AnimalInput(species=species, name=name, owner_id=owner.id)
        return create_animal(db, operator, a, today=today).id

    def make(n: int) -> dict[str, set[int]]:
        past = {impound(animal(f"Old {i}"), local(2026, 10, 29 + i % 3, 9)).id for i in range(n)}
        surrendered = impound(
            animal("Tab", "cat"),
            local(2026, 11, 13, 9),
            reason="owner_surrender",
            owner_id=owner.id,
        )
        others = {
            impound(animal("Ends today"), local(2026, 11, 13)).id,
            impound(animal("Ends tomorrow"), local(2026, 11, 14)).id,
            impound(animal("Free today"), local(2026, 11, 12)).id,
            impound(
                animal("Given up today"),
                local(2026, 11, 20, 8),
                reason="owner_surrender",
                owner_id=owner.id,
            ).id,
        }
        impound(animal("On hold"), local(2026, 11, 18))
        gone = impound(animal("Gone"), local(2026, 11, 3))
        record_escape(db, operator, gone.id, profile, at=local(2026, 11, 4), notes="fence")
        return {"past": {*past, surrendered.id}, "others": others}

    return make


def _split(items):
    return [i for i in items if i.category == PAST], [
        i for i in items if i.module == "impound" and i.category != PAST
    ]


def _listed(db, day, profile) -> set[int]:
    at = local(day.year, day.month, day.day, 12)
    return {r.id for r in impounds_page(db, LISTED, 0, 100, at, profile).rows}


def test_many_animals_held_past_their_hold_are_one_line_and_the_list_holds_each(
    db, pound_of, profile
):
    made = pound_of(pound.TODAY_EACH_UP_TO + 2)
    every = pound.due_items(db, DAY, profile)  # fieldops due: one an animal
    each, others = _split(every)
    assert {i.record_id for i in each} == made["past"]
    assert {i.record_id for i in others} == made["others"]

    shown = pound.today_items(db, DAY, profile)
    (line,), rest = _split(shown)
    assert (line.kind, line.record_id, line.count) == ("list_past_hold", 0, len(made["past"]))
    assert line.due == min(i.due for i in each)  # the longest held first
    assert rest == others  # every other pound item as fieldops due has it
    assert f"{len(made['past']):,} animals" in line.text
    assert list(shown).index(line) == len(shown) - 1  # after the holds ending, as before

    # The list the line opens: the same animals, counted the same.
    at = local(2026, 11, 20, 12)
    assert count_impounds(db, LISTED, at, profile) == line.count
    assert _listed(db, DAY, profile) == made["past"]


def test_up_to_the_cap_today_lists_each_animal_as_fieldops_due_does(db, pound_of, profile):
    made = pound_of(pound.TODAY_EACH_UP_TO - 1)  # with the surrendered cat: the cap
    assert len(made["past"]) == pound.TODAY_EACH_UP_TO
    assert pound.today_items(db, DAY, profile) == pound.due_items(db, DAY, profile)


@pytest.mark.parametrize("offset", [-8, -1, 0, 1, 3, 30])
def test_the_list_is_the_day_s_animals_held_past_their_hold_on_any_day(
    db, pound_of, profile, offset
):
    pound_of(3)
    day = DAY + timedelta(days=offset)
    each, _ = _split(pound.due_items(db, day, profile))
    listed = _listed(db, day, profile)
    assert listed == {i.record_id for i in each}
    at = local(day.year, day.month, day.day, 12)
    assert count_impounds(db, LISTED, at, profile) == len(listed)
    # Early and late in the day alike: the filter is the day's, not the moment's.
    for hour in (0, 23):
        moment = local(day.year, day.month, day.day, hour)
        assert count_impounds(db, LISTED, moment, profile) == len(listed)


def test_an_animal_free_to_go_today_is_not_yet_held_past_its_hold(db, pound_of, profile):
    made = pound_of(0)
    items = {i.record_id: i.category for i in pound.due_items(db, DAY, profile)}
    assert set(items) == made["past"] | made["others"]
    assert [i for i, c in items.items() if c == "impound.adoptable_today"]
    assert not {i for i, c in items.items() if c == "impound.adoptable_today"} & _listed(
        db, DAY, profile
    )


def test_today_shows_the_pound_through_the_module_on_the_seam(db, pound_of, profile):
    from fieldops.services.due import due_items, today_items

    pound_of(pound.TODAY_EACH_UP_TO + 1)
    assert pound.MODULE.today_items is pound.today_items
    shown = [i for i in today_items(db, DAY, profile) if i.category == PAST]
    listed = [i for i in due_items(db, DAY, profile) if i.category == PAST]
    assert [i.count for i in shown] == [len(listed)]
