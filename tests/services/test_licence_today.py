"""Dog licences on Today (issue 14): above ``TODAY_EACH_UP_TO`` dogs a category, one
line with the count, opening the renewal list, while ``fieldops due`` keeps one item
a dog; the count's statements and rows do not grow with the dogs. On SQLite and
PostgreSQL (``db``)."""

from __future__ import annotations

from datetime import date

import pytest
from due_support import reads

from fieldops import modules
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.due import today_items
from fieldops.services.licences import module as licence_module
from fieldops.services.licences.issue import issue_licence
from fieldops.services.licences.module import due_summary
from tests.services import test_licences_module as licence_tests

licensed = licence_tests.licensed  # Rex and Bo unrenewed for 2026, Max renewed
lic = licence_tests.lic

FEB, JUNE, DEC = date(2026, 2, 1), date(2026, 6, 1), date(2026, 12, 5)


def licence_lines(db, day, profile):
    return [i for i in today_items(db, day, profile) if i.module == "licence"]


@pytest.fixture
def few(monkeypatch):
    """Two dogs are "many" here: Today lists one dog a line up to one dog a category."""
    monkeypatch.setattr(licence_module, "TODAY_EACH_UP_TO", 1)


def test_up_to_the_cap_today_lists_each_dog_as_fieldops_due_does(db, licensed, profile):
    assert licence_lines(db, FEB, profile) == [
        i for i in modules.due_items(db, FEB, profile) if i.module == "licence"
    ]
    assert [i.kind for i in licence_lines(db, FEB, profile)] == ["licence", "licence"]


def test_today_counts_the_dogs_to_renew_and_fieldops_due_keeps_each_dog(db, licensed, profile, few):
    (line,) = licence_lines(db, FEB, profile)
    assert (line.category, line.count, line.kind, line.record_id) == (
        "licence.lapsed",
        2,
        "renewals_due",
        2026,
    )
    assert not line.overdue and "2" in line.text
    (late,) = licence_lines(db, JUNE, profile)
    assert (late.category, late.count, late.kind, late.overdue) == (
        "licence.late",
        2,
        "renewals_late",
        True,
    )
    assert late.as_json()["count"] == 2
    december = {i.category for i in licence_lines(db, DEC, profile)}
    assert "licence.expiring" in december  # Max's 2026 licence, listed alone (one dog)
    # fieldops due: one item a dog, each with its licence id for a script.
    per_dog = [i.as_json() for i in modules.due_items(db, FEB, profile) if i.module == "licence"]
    assert sorted(j["id"] for j in per_dog) == sorted((licensed["Rex"].id, licensed["Bo"].id)) and {
        j["category"] for j in per_dog
    } == {"licence.lapsed"}


def test_the_count_reads_the_same_rows_however_many_dogs_are_unrenewed(
    db, licensed, operator, owner, profile, few
):
    def summary():
        return due_summary(db, FEB, profile)

    before = reads(db, summary)
    for n in range(6):
        dog = create_animal(
            db,
            operator,
            AnimalInput(species="dog", name=f"Pup{n}", owner_id=owner.id),
            today=date(2025, 1, 1),
        )
        issue_licence(db, operator, lic(dog.id, f"25-x{n}", 2025, date(2025, 3, 1)), profile)
    assert summary()[0].count == 8
    assert reads(db, summary) == before  # one count, not a row a dog
