"""The dog licence module on the seam (issue 15): renewals, the non-compliance list,
due items, checks and demo data."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select, text

from fieldops import modules
from fieldops.check import integrity_problems
from fieldops.db.models import DogLicence
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.licences.renewals import households, non_compliance, renewals_due


def lic(animal_id, tag, year, on, **kw):
    return LicenceInput(
        animal_id=animal_id,
        licence_year=year,
        tag_number=tag,
        applied_on=on,
        altered=True,
        rabies_vaccinated_on=date(2025, 1, 5),
        **kw,
    )


@pytest.fixture
def licensed(db, operator, owner, rex, profile):
    """Rex and Bo (one household) and Max (another) licensed for 2025; only Max renewed."""
    from fieldops.services.people import PersonInput, create_person

    other = create_person(db, operator, PersonInput(full_name="Cy Moss", address="9 Ash St"))
    bo = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Bo", owner_id=owner.id),
        today=date(2026, 1, 1),
    )
    mx = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Max", owner_id=other.id),
        today=date(2026, 1, 1),
    )
    ids = {}
    for n, a in enumerate((rex, bo, mx)):
        ids[a.name] = issue_licence(
            db, operator, lic(a.id, f"25-{n}", 2025, date(2025, 2, 1)), profile
        )
    issue_licence(
        db,
        operator,
        lic(None, "26-9", None, date(2026, 1, 15), renews_id=ids["Max"].id),
        profile,
    )
    return ids


def test_the_module_is_installed_with_its_categories():
    m = [m for m in modules.installed_modules() if m.key == "licence"]
    assert len(m) == 1 and m[0].title == "Dog licences"
    assert m[0].categories and all(c.startswith("licence.") for c in m[0].categories)


def test_renewals_list_households_and_non_compliance_after_the_late_fee_day(db, licensed, profile):
    rows = renewals_due(db, 2026, date(2026, 2, 1), profile)
    assert {r.animal_name for r in rows} == {"Rex", "Bo"}
    assert all(not r.late and r.amount == profile.licence_altered for r in rows)
    (home,) = households(rows)
    assert home.owner_name == "Ana Ruiz" and len(home.dogs) == 2
    assert non_compliance(db, 2026, date(2026, 3, 31), profile) == ()
    late = non_compliance(db, 2026, date(2026, 6, 1), profile)
    assert {r.animal_name for r in late} == {"Rex", "Bo"}
    assert all(r.amount == profile.licence_altered + profile.licence_late_fee for r in late)


def test_due_items_lapsed_then_late_then_expiring(db, licensed, profile):
    def cats(day):
        return [i.category for i in modules.due_items(db, day, profile) if i.module == "licence"]

    assert cats(date(2026, 2, 1)) == ["licence.lapsed", "licence.lapsed"]
    items = [i for i in modules.due_items(db, date(2026, 6, 1), profile) if i.module == "licence"]
    assert [i.category for i in items] == ["licence.late", "licence.late"] and items[0].overdue
    assert cats(date(2026, 12, 5)).count("licence.expiring") == 1  # Max's 2026 licence


def test_a_licence_written_past_the_services_is_a_check_problem(db, licensed):
    assert not [p for p in integrity_problems(db) if "licence" in p]
    with db.write() as s:
        row = s.scalars(select(DogLicence).order_by(DogLicence.id)).first()
        values = {c.name: getattr(row, c.name) for c in DogLicence.__table__.c if c.name != "id"}
        s.execute(
            DogLicence.__table__.insert().values(
                values | {"tag_number": "GHOST", "licence_year": 2024}
            )
        )
    problems = [p for p in integrity_problems(db) if "licence" in p]
    assert problems and "no audit trail" in problems[0]


def test_demo_licences_cover_every_state(db, supervisor, profile):
    import random

    from fieldops.services.licences.demo import fill
    from fieldops.services.people import PersonInput, create_person

    people = [create_person(db, supervisor, PersonInput(full_name=f"P{i} Lee")) for i in range(3)]
    dogs = [
        create_animal(
            db,
            supervisor,
            AnimalInput(species="dog", name=f"D{i}", owner_id=people[i % 3].id),
            today=date(2026, 11, 20),
        )
        for i in range(8)
    ]
    d = modules.Demo(db, supervisor, random.Random(1), date(2026, 11, 20), profile, people, dogs)
    assert fill(d) > 8
    with db.read() as s:
        rows = s.execute(
            text("SELECT status, half_rate, late, licence_year FROM dog_licence")
        ).all()
    assert {r[0] for r in rows} == {"current", "replaced", "transferred", "void"}
    assert any(r[1] for r in rows if r[0] == "current")  # half rate
    assert any(r[2] for r in rows if r[0] == "current")  # late
    assert renewals_due(db, 2026, date(2026, 11, 20), profile)  # lapsed


def test_the_list_filters_and_searches_in_sql(db, licensed, profile):
    from fieldops.services.licences.listing import LicenceFilter, count_licences, licence_page

    def names(show, text="", today=date(2026, 2, 1)):
        f = LicenceFilter(show=show, text=text)
        page = licence_page(db, f, today, profile, 0, 50)
        assert count_licences(db, f, today, profile) == len(page.rows)
        return sorted(r.animal.split(" ·")[0] for r in page.rows)

    assert names("current") == ["Max"]
    assert names("expired") == ["Bo", "Rex"]
    assert names("due") == ["Bo", "Rex"] and names("late") == []
    assert names("late", today=date(2026, 6, 1)) == ["Bo", "Rex"]
    assert names("due", today=date(2026, 6, 1)) == []
    assert names("all", "26-9") == ["Max"]  # tag
    assert names("all", "Moss") == ["Max", "Max"]  # owner: both years
    assert names("all", "Elm") == ["Bo", "Rex"]  # address
    for sort in ("animal", "owner", "tag", "year", "status", "total", "issued"):
        f = LicenceFilter(show="all", sort=sort, descending=False)
        page = licence_page(db, f, date(2026, 2, 1), profile, 0, 50)
        assert len(page.rows) == count_licences(db, f, date(2026, 2, 1), profile) > 2, sort
    by_dog = licence_page(
        db, LicenceFilter(show="all", sort="animal"), date(2026, 2, 1), profile, 0, 9
    )
    dogs = [r.animal.split(" ·")[0] for r in by_dog.rows]
    assert dogs == sorted(dogs, reverse=True)
