"""A one-word People search's first pages (issue 14): read from the people's kept words
(migration 0030) in the list's order, so a page stops after its rows however many
people match. Every page of every search must still be the rows, in the order, of the
statement the list answered with before (active people among the search index's
matches, by sort name and id), after people are added, renamed, archived and deleted,
and with the walk bounded so tightly that pages fall back to the search index; a kept
word that differs from the index is what ``fieldops check`` reports.

The definition below is that statement, written out."""

from __future__ import annotations

import pytest
from due_support import sent_selects
from sqlalchemy import delete, insert, select
from sqlalchemy import text as sql_text

from fieldops.check import stale_person_words
from fieldops.db.models import Person, PersonWord
from fieldops.services import people
from fieldops.services.listing import fts_ids
from fieldops.services.people import (
    PersonInput,
    archive_person,
    count_people,
    create_person,
    get_person,
    people_page,
    update_person,
)

FAMILIES = ("Ruiz", "Ruiz", "Ruizlopez", "Rush", "Miller", "Ruiz")
GIVEN = ("Ana", "Bo", "Ana", "Cy", "Dee", "Ana", "Eve")
TERMS = (
    "ruiz",
    "RUIZ",
    "ruizl",
    "ruizlopez",
    "rush",
    "5550",
    "555-01",
    "555-0123",
    "6085550",
    "madison",
    "example",
    "nunez",
    "Núñez",
    "ruiz ana",
    "elm",
    "zzzz",
)


@pytest.fixture
def registry(db, operator):
    """Forty people with tied names, a surname that starts another ("Ruiz", "Ruizlopez"),
    the word in a given name, a street and an e-mail, shared phone prefixes and accents;
    then one renamed, one given another phone, two archived and one deleted."""
    ids = []
    for i in range(40):
        name = f"{GIVEN[i % len(GIVEN)]} {FAMILIES[i % len(FAMILIES)]}"
        if i == 7:
            name = "Ruiz Alvarez"
        if i == 9:
            name = "José Núñez"
        inp = PersonInput(
            full_name=name,
            address="5 Ruiz Way" if i == 11 else f"{i} Elm St",
            city="Madison",
            phone=f"608-555-01{i % 30:02d}" if i % 4 else "",
            email=f"x.ruiz{i}@example.org" if i % 5 == 0 else "",
        )
        ids.append(create_person(db, operator, inp, allow_duplicate=True).id)
    for i, change in ((2, {"full_name": "Ana Smith"}), (3, {"phone": "608-555-9999"})):
        view = get_person(db, ids[i])
        inp = view.as_input().__class__(**{**view.as_input().__dict__, **change})
        update_person(db, operator, ids[i], inp, expected_version=view.version)
    archive_person(db, operator, ids[1], "Moved away")
    archive_person(db, operator, ids[6], "Moved away")
    with db.write() as s:
        s.execute(delete(Person).where(Person.id == ids[12]))
    return ids


def _old(db, text: str) -> list[int]:
    """The people search's statement before migration 0030."""
    q = select(Person.id).where(Person.archived_at.is_(None))
    if (matching := fts_ids(db, "person", text)) is not None:
        q = q.where(Person.id.in_(matching))
    with db.read() as s:
        return list(s.scalars(q.order_by(Person.sort_name, Person.id)))


@pytest.mark.parametrize(
    ("walk", "first_rows"), [(10, 1_000), (1, 1_000), (1, 6)], ids=["kept", "tight", "fallback"]
)
def test_every_page_of_every_search_is_the_old_statements(
    db, registry, monkeypatch, walk, first_rows
):
    monkeypatch.setattr(people, "_WALK", walk)
    monkeypatch.setattr(people, "_FIRST_ROWS", first_rows)
    sizes = set()
    for text in TERMS:
        old = _old(db, text)
        sizes.add(min(len(old), 10))
        assert count_people(db, text) == len(old), text
        for size in (1, 2, 5, 7):
            got: list[int] = []
            for offset in range(0, len(old) + 2 * size, size):
                page = [r.id for r in people_page(db, text, offset, size).rows]
                assert len(page) == max(0, min(size, len(old) - offset)), (text, offset, size)
                got += page
            assert got == old, (text, size)
    # The searches do what they are there for: many matches, a few, none.
    assert 10 in sizes and 0 in sizes and len(sizes) > 3


def test_a_one_word_search_reads_the_kept_words_not_the_search_index(db, registry):
    with sent_selects(db) as sent:
        rows = people_page(db, "ruiz", 0, 5).rows
    assert [r.id for r in rows] == _old(db, "ruiz")[:5]
    assert any("person_word" in sql for sql in sent)
    assert not any("person_fts" in sql or "to_tsvector" in sql for sql in sent)
    # The renamed person left "ruiz" and the archived and deleted ones are not found.
    found = set(_old(db, "ruiz"))
    assert registry[2] not in found and registry[1] not in found and registry[12] not in found


def test_the_kept_words_are_the_search_indexs_and_a_differing_one_is_reported(db, registry):
    with db.engine.connect() as conn:
        assert stale_person_words(conn) == []
    person = registry[5]
    with db.write() as s:
        s.execute(delete(PersonWord).where(PersonWord.person_id == person))
        s.execute(
            insert(PersonWord).values(
                head="zzzz", sort_name="zz", person_id=registry[4], word="zzzzz"
            )
        )
    with db.engine.connect() as conn:
        (problem,) = stale_person_words(conn)
    assert f"#{person}" in problem and f"#{registry[4]}" in problem
    assert problem.startswith("2 ")


def test_the_migrations_fill_writes_what_the_triggers_write(db, registry):
    """Migration 0030 (and the bench's generator) fill the words of people already on
    file from the search index: the same rows the triggers keep."""
    from importlib import import_module

    migration = import_module("fieldops.db.migrations.versions.0030_first_pages")
    every = select(PersonWord.head, PersonWord.sort_name, PersonWord.person_id, PersonWord.word)
    with db.read() as s:
        kept = s.execute(every.order_by(*every.selected_columns)).all()
    with db.write() as s:
        s.execute(delete(PersonWord))
        for statement in migration.fill_sql(db.dialect):
            s.execute(sql_text(statement))
    with db.read() as s:
        assert s.execute(every.order_by(*every.selected_columns)).all() == kept
    assert len({row.person_id for row in kept}) > 30
