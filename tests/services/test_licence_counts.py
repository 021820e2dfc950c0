"""The Licences list's kept counts (migration 0031): after every kind of write a licence
gets, the list's count of "current" and "all" is the licences' own count, without
reading the licences; ``fieldops check`` reports a kept count that differs."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import event, func, select, text
from support import downgrade_to

from fieldops.check import integrity_problems
from fieldops.db.migrate import current_revision, head_revision, upgrade
from fieldops.db.models import DogLicence
from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences.changes import replace_tag, transfer_licence, void_licence
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.licences.listing import (
    FILTERS,
    LicenceFilter,
    count_licences,
    stale_licence_counts,
)

TODAY = date(2026, 3, 1)  # before the late-fee day
PROFILE = Profile.default()
LICENCES = re.compile(r"\bdog_licence\b(?!_count)")  # the licences' table, not the counts'


def lic(animal_id, tag, year, on, **kw):
    kw.setdefault("altered", True)
    kw.setdefault("rabies_vaccinated_on", date(2025, 1, 5))
    kw.setdefault("rabies_expires_on", date(2028, 1, 5))
    return LicenceInput(animal_id=animal_id, licence_year=year, tag_number=tag, applied_on=on, **kw)


def _real(db) -> dict[tuple[int, str], int]:
    with db.read() as s:
        rows = s.execute(
            select(DogLicence.licence_year, DogLicence.status, func.count()).group_by(
                DogLicence.licence_year, DogLicence.status
            )
        )
        return {(y, st): n for y, st, n in rows}


def _kept(db) -> dict[tuple[int, str], int]:
    with db.read() as s:
        rows = s.execute(text("SELECT licence_year, status, n FROM dog_licence_count"))
        return {(y, st): n for y, st, n in rows if n}


def _counted(db, f: LicenceFilter) -> int:
    """The view's count as the list counted it before 0031: its licences read."""
    with db.read() as s:
        q = select(func.count()).select_from(DogLicence)
        if f.show == "current":
            q = q.where(DogLicence.status == "current", DogLicence.licence_year == TODAY.year)
        return int(s.execute(q).scalar_one())


def _assert_kept(db) -> None:
    assert _kept(db) == _real(db)
    for show in ("current", "all"):
        f = LicenceFilter(show=show)
        assert count_licences(db, f, TODAY, PROFILE) == _counted(db, f), show
    with db.engine.connect() as conn:
        assert stale_licence_counts(conn) == []


@pytest.fixture
def dogs(db, operator, owner, rex):
    bo = create_animal(
        db, operator, AnimalInput(species="dog", name="Bo", owner_id=owner.id), today=TODAY
    )
    return rex, bo


def test_every_write_a_licence_gets_keeps_the_count(
    db, operator, supervisor, adopter, dogs, profile
):
    rex, bo = dogs
    _assert_kept(db)  # none yet: 0 counted from no rows
    old = issue_licence(db, operator, lic(rex.id, "25-1", 2025, date(2025, 2, 1)), profile)
    issue_licence(db, operator, lic(bo.id, "25-2", 2025, date(2025, 2, 1)), profile)
    _assert_kept(db)
    renewed = issue_licence(
        db, operator, lic(None, "26-1", None, date(2026, 1, 20), renews_id=old.id), profile
    )
    assert renewed.licence_year == 2026
    _assert_kept(db)
    assert count_licences(db, LicenceFilter(), TODAY, profile) == 1
    new = replace_tag(db, operator, renewed.id, "26-2", profile, version=renewed.version)
    _assert_kept(db)  # one replaced, one current: still one current this year
    moved = transfer_licence(db, operator, new.id, adopter.id, profile, version=new.version)
    _assert_kept(db)
    void_licence(db, supervisor, moved.id, "Issued to the wrong dog", version=moved.version)
    _assert_kept(db)
    assert count_licences(db, LicenceFilter(), TODAY, profile) == 0
    # No service corrects a year or a status in place, or deletes a licence: the
    # triggers count such a change all the same.
    with db.write() as s:
        first = s.scalars(select(DogLicence.id).order_by(DogLicence.id)).first()
        s.execute(text("UPDATE dog_licence SET licence_year = 2026 WHERE id = :i"), {"i": first})
    _assert_kept(db)
    with db.write() as s:
        s.execute(text("UPDATE dog_licence SET status = 'current' WHERE id = :i"), {"i": moved.id})
    _assert_kept(db)
    with db.write() as s:  # both at once; and a change of neither
        s.execute(
            text("UPDATE dog_licence SET status = 'void', licence_year = 2024 WHERE id = :i"),
            {"i": first},
        )
        s.execute(text("UPDATE dog_licence SET notes = 'seen', licence_year = licence_year"))
    _assert_kept(db)
    with db.write() as s:
        s.execute(text("UPDATE dog_licence SET previous_id = NULL"))
        s.execute(text("DELETE FROM dog_licence WHERE id = :i"), {"i": first})
    _assert_kept(db)
    assert _real(db) and sum(_real(db).values()) == 4


def test_only_current_and_all_without_search_text_read_the_kept_count(db, dogs, operator, profile):
    rex, bo = dogs
    issue_licence(db, operator, lic(rex.id, "26-1", 2026, date(2026, 1, 20)), profile)
    issue_licence(db, operator, lic(bo.id, "25-2", 2025, date(2025, 2, 1)), profile)
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        for show in FILTERS:
            for words in ("", "rex"):
                statements.clear()
                count_licences(db, LicenceFilter(show=show, text=words), TODAY, profile)
                read = " ".join(statements)
                kept = show in ("current", "all") and not words
                # The licences themselves are not read for a kept count (at 1,000,000
                # impoundments that read 30,000 index entries for "current").
                assert ("dog_licence_count" in read) == kept, (show, words, read)
                assert bool(LICENCES.search(read)) != kept, (show, words, read)
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
    assert count_licences(db, LicenceFilter(show="all"), TODAY, profile) == 2
    assert count_licences(db, LicenceFilter(show="current", text="rex"), TODAY, profile) == 1


@pytest.mark.parametrize(
    "tamper",
    [
        "UPDATE dog_licence_count SET n = n + 1 WHERE licence_year = 2026",
        "DELETE FROM dog_licence_count WHERE licence_year = 2026",
        "INSERT INTO dog_licence_count (licence_year, status, n) VALUES (2026, 'void', 3)",
    ],
    ids=["miscounted", "lost", "invented"],
)
def test_a_kept_count_that_differs_is_a_check_problem(db, dogs, operator, profile, tamper):
    rex, bo = dogs
    issue_licence(db, operator, lic(rex.id, "26-1", 2026, date(2026, 1, 20)), profile)
    issue_licence(db, operator, lic(bo.id, "25-2", 2025, date(2025, 2, 1)), profile)
    assert not [p for p in integrity_problems(db) if "licence count" in p]
    with db.engine.begin() as conn:
        conn.execute(text(tamper))
    problems = [p for p in integrity_problems(db) if "licence count" in p]
    assert len(problems) == 1 and problems[0].endswith(": 2026"), problems


def test_the_migration_counts_the_licences_already_there(db, dogs, operator, profile):
    rex, bo = dogs
    issue_licence(db, operator, lic(rex.id, "25-1", 2025, date(2025, 2, 1)), profile)
    issue_licence(db, operator, lic(bo.id, "25-2", 2025, date(2025, 2, 1)), profile)
    issue_licence(db, operator, lic(rex.id, "26-1", 2026, date(2026, 1, 20)), profile)
    downgrade_to(db, "0030")
    assert current_revision(db.engine) == "0030"
    upgrade(db.engine, db.url, backup_first=False)
    assert current_revision(db.engine) == head_revision()
    assert _kept(db) == _real(db) == {(2025, "current"): 2, (2026, "current"): 1}
    # And its triggers are in place again.
    issue_licence(db, operator, lic(bo.id, "26-2", 2026, date(2026, 1, 20)), profile)
    _assert_kept(db)
