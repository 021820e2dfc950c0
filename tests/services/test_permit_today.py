"""Today's permits expiring (issue 14): more than ``TODAY_EACH_UP_TO`` are one line with
their count, which opens the permits list on "expiring"; that list holds exactly the
permits ``fieldops due`` lists one by one; up to the cap Today lists each, as before."""

from __future__ import annotations

from datetime import date

import pytest

from fieldops import modules
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits import module as permit_module
from fieldops.services.permits.applying import (
    ChickenInput,
    FancierInput,
    apply_chicken,
    apply_fancier,
    renew_chicken,
)
from fieldops.services.permits.enforcing import review_permit
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.listing import PermitFilter, count_permits, permits_page

DAY = date(2026, 12, 1)  # every 2026 permit expires within 30 days
EXPIRING = "permit.expiring"


def _chicken(db, actor, profile, n: int):
    holder = create_person(db, actor, PersonInput(full_name=f"Holder {n}", address=f"{n} Coop Ln"))
    form = ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60)
    v = apply_chicken(db, actor, holder.id, holder.address, form, profile)
    return issue_permit(db, actor, v.id, date(2026, 3, 3), profile)


@pytest.fixture
def town(db, officer, profile):
    """Chicken permits of 2026; a fancier's permit reviewed (expiring) and one not
    (its review is due instead); a chicken permit whose renewal waits to be issued."""
    from fieldops.services.permits.views import AnimalLine

    def make(chickens: int) -> dict[str, object]:
        plain = [_chicken(db, officer, profile, n).id for n in range(chickens)]
        fanciers = []
        for n in range(2):
            p = create_person(
                db, officer, PersonInput(full_name=f"Fancier {n}", address=f"{n} Loft Ln")
            )
            form = FancierInput(date(2026, 3, 2), 2026, (AnimalLine("pigeons", 4),))
            v = apply_fancier(db, officer, p.id, p.address, form, profile)
            fanciers.append(issue_permit(db, officer, v.id, date(2026, 3, 3), profile).id)
        review_permit(db, officer, fanciers[0], date(2026, 11, 20), profile)
        renewing = _chicken(db, officer, profile, 900).id
        renewal = ChickenInput(date(2026, 11, 20), 2027, 3, 0, 60)
        renew_chicken(db, officer, renewing, renewal, profile)
        return {
            "expiring": {*plain, fanciers[0]},
            "review_due": fanciers[1],
            "renewing": renewing,
        }

    return make


def _split(items):
    return [i for i in items if i.category == EXPIRING], [
        i for i in items if i.module == "permit" and i.category != EXPIRING
    ]


def test_many_permits_expiring_are_one_line_and_the_list_holds_each(db, town, profile):
    made = town(permit_module.TODAY_EACH_UP_TO + 2)
    every = permit_module.due_items(db, DAY, profile)  # fieldops due: one a permit
    each, others = _split(every)
    assert {i.record_id for i in each} == made["expiring"]
    assert made["review_due"] in {i.record_id for i in others}
    assert made["renewing"] not in {i.record_id for i in every}

    shown = permit_module.today_items(db, DAY, profile)
    (line,), rest = _split(shown)
    assert (line.kind, line.count, line.due) == (
        "list_expiring",
        len(made["expiring"]),
        date(2026, 12, 31),
    )
    assert rest == others  # every other permit item as fieldops due has it
    assert f"{len(made['expiring']):,} permits" in line.text

    # The list the line opens: the same permits, counted the same.
    f = PermitFilter(status="expiring")
    assert count_permits(db, f, DAY) == line.count
    assert {r.id for r in permits_page(db, f, 0, 100, DAY).rows} == made["expiring"]


def test_up_to_the_cap_today_lists_each_permit_as_fieldops_due_does(db, town, profile):
    made = town(permit_module.TODAY_EACH_UP_TO - 1)  # with the reviewed fancier: the cap
    assert len(made["expiring"]) == permit_module.TODAY_EACH_UP_TO
    assert permit_module.today_items(db, DAY, profile) == permit_module.due_items(db, DAY, profile)


@pytest.mark.parametrize("day", [date(2026, 11, 20), date(2026, 12, 31), date(2027, 1, 1)])
def test_the_expiring_list_is_todays_expiring_permits_on_any_day(db, town, profile, day):
    made = town(3)
    each, _ = _split(permit_module.due_items(db, day, profile))
    f = PermitFilter(status="expiring")
    listed = {r.id for r in permits_page(db, f, 0, 100, day).rows}
    assert listed == {i.record_id for i in each}
    assert count_permits(db, f, day) == len(listed)
    in_window = date(2026, 12, 1) <= day <= date(2026, 12, 31)
    assert listed == (made["expiring"] if in_window else set())


def test_today_shows_the_permits_through_the_module_on_the_seam(db, town, profile):
    from fieldops.services.due import due_items, today_items

    town(permit_module.TODAY_EACH_UP_TO + 1)
    assert permit_module.MODULE.today_items is permit_module.today_items
    shown = [i for i in today_items(db, DAY, profile) if i.category == EXPIRING]
    listed = [i for i in due_items(db, DAY, profile) if i.category == EXPIRING]
    assert [i.count for i in shown] == [len(listed)]
    assert modules.categories()[EXPIRING] == shown[0].category_label


def _issued(db, actor, profile, n: int, year: int, kind: str = "chicken"):
    from fieldops.services.permits.views import AnimalLine

    holder = create_person(db, actor, PersonInput(full_name=f"Old {n}", address=f"{n} Old Rd"))
    if kind == "chicken":
        form = ChickenInput(date(year, 3, 2), year, 3, 0, 60)
        v = apply_chicken(db, actor, holder.id, holder.address, form, profile)
    else:
        fancier = FancierInput(date(year, 3, 2), year, (AnimalLine("pigeons", 4),))
        v = apply_fancier(db, actor, holder.id, holder.address, fancier, profile)
    return issue_permit(db, actor, v.id, date(year, 3, 3), profile).id


def test_a_permit_lapsed_before_last_year_is_no_longer_due(db, officer, profile):
    """A permit not renewed is due for renewal (a fancier's, for its review first) while
    its renewal can be applied for: until the end of the year after its own
    (``renewable_from``). One older has lapsed: nothing is due on it, on Today, in
    ``fieldops due`` or on the list's "due", and the list still shows it as expired."""
    last_year = {_issued(db, officer, profile, 1, 2025), _issued(db, officer, profile, 2, 2025)}
    fancier_last_year = _issued(db, officer, profile, 3, 2025, "fancier")
    lapsed = {_issued(db, officer, profile, 4, 2024), _issued(db, officer, profile, 5, 2023)}
    lapsed.add(_issued(db, officer, profile, 6, 2024, "fancier"))
    items = permit_module.due_items(db, DAY, profile)
    by_permit = {i.record_id: i.category for i in items}
    assert by_permit == {
        **dict.fromkeys(last_year, "permit.renewal_due"),
        fancier_last_year: "permit.review_due",
    }
    assert permit_module.today_items(db, DAY, profile) == items
    due = PermitFilter(status="due")
    assert {r.id for r in permits_page(db, due, 0, 100, DAY).rows} == {
        *last_year,
        fancier_last_year,
    }
    assert count_permits(db, due, DAY) == 3
    expired = {r.id for r in permits_page(db, PermitFilter(status="expired"), 0, 100, DAY).rows}
    assert expired == {*last_year, fancier_last_year, *lapsed}
    # On 1 January the 2025 permits lapse too: their renewal for 2026 can no longer be had.
    assert permit_module.due_items(db, date(2027, 1, 1), profile) == ()
