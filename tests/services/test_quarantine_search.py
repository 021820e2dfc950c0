"""The quarantine list's search is the full-text search the people and impound lists use
(issue 9 follow-up): every word as a prefix, in the index, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import text

from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person


@pytest.fixture
def operator(officer):
    """Bites and quarantines are an officer's work (issue 12's roles)."""
    return officer


@pytest.fixture
def cases(db, operator, supervisor, today):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    sons = create_person(db, operator, PersonInput(full_name="O'Brien & <Sons>", address="1 A St"))
    max_ = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Maximilian", breed="Weimaraner", owner_id=sons.id),
        today=today,
    )

    def bite(**kw):
        return qs.report_bite(
            db, operator, bite_input(days_ago(2), clinic_id=clinic.id, **kw), PROFILE
        ).quarantine_id

    return {
        "max": bite(animal_id=max_.id),
        "tabby": bite(species="cat", animal_description="Grey tabby", owner_unknown=True),
    }


def ids(db, words):
    return set(qs.quarantine_ids(db, qs.QuarantineFilter("all", text=words), local_today()))


def test_words_match_as_prefixes_in_any_order(db, cases):
    assert ids(db, "maxim") == {cases["max"]}
    assert ids(db, "sons o'brien") == {cases["max"]}
    assert ids(db, "<Sons>") == {cases["max"]}
    assert ids(db, "tab grey") == {cases["tabby"]}
    assert ids(db, "weimar") == {cases["max"]}  # the registry's breed, as the impounds list
    assert ids(db, f"#{cases['tabby']}") == {cases["tabby"]}
    assert ids(db, "tabby maxim") == set()
    assert ids(db, 'x" OR "1') == set()  # user text never becomes search syntax
    assert qs.count_quarantines(db, qs.QuarantineFilter("all", text="grey"), local_today()) == 1


def test_the_search_follows_a_changed_copy(db, operator, cases):
    # The services rewrite the row's copies; the index follows (SQLite: the trigger).
    with db.write() as s:
        s.execute(
            text("UPDATE quarantine SET animal_name = 'Renamed cat' WHERE id = :i"),
            {"i": cases["tabby"]},
        )
    assert ids(db, "renamed") == {cases["tabby"]} and ids(db, "tabby") == set()


def test_the_search_uses_the_index(db, cases):
    if db.dialect != "sqlite":
        pytest.skip("the FTS5 table is SQLite's; PostgreSQL's GIN index is checked by name")
    with db.engine.connect() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    assert {"quarantine_fts", "quarantine_fts_ai", "quarantine_fts_au"} <= names


def test_postgresql_has_the_search_index(db):
    if db.dialect != "postgresql":
        pytest.skip("PostgreSQL only")
    with db.engine.connect() as conn:
        found = conn.execute(
            text("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_quarantine_search'")
        ).scalar()
    assert found == 1
