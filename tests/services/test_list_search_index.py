"""The calls, vicious cases and permits lists search on an index (issue 14, migration 0024):
every word typed as the start of a word, the same answers on SQLite and PostgreSQL, and
the index following the rows' inserts, updates and deletes (SQLite: its triggers)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from calls_support import call_input
from sqlalchemy import insert, text
from support import downgrade_to

from fieldops.db.models import FieldCall
from fieldops.db.search import TEXT_SEARCHED, pg_text_vector
from fieldops.services.calls.listing import CallFilter, calls_page, count_calls
from fieldops.services.calls.records import create_call, get_call, update_call


def ids(db, words: str, **kw) -> list[int]:
    f = CallFilter(show="all", text=words, **kw)
    at = datetime.now(UTC)
    found = sorted(r.id for r in calls_page(db, f, 0, 50, at).rows)
    assert count_calls(db, f, at) == len(found)
    return found


@pytest.fixture
def calls(db, officer):
    def call(address: str, **kw) -> int:
        return create_call(db, officer, call_input(address, **kw)).id

    return {
        "elm": call("12 Elm St", caller_name="Ana Ruiz"),
        "elmwood": call("1420 Elmwood Ct", caller_name="Bo O'Brien", animal_description="K-9"),
        "oak": call("7 Oak Ave", caller_name="José Ruizdael", owner_description="Big black dog"),
    }


def test_every_word_matches_the_start_of_a_word_in_any_order(db, calls):
    assert ids(db, "elm") == [calls["elm"], calls["elmwood"]]  # "Elmwood" starts with "elm"
    assert ids(db, "ELM st") == [calls["elm"]]  # case does not matter; every word must match
    assert ids(db, "st elm") == [calls["elm"]]  # in any order
    assert ids(db, "ruiz") == [calls["elm"], calls["oak"]]  # a surname, and "Ruizdael"
    assert ids(db, "ruiz ana") == [calls["elm"]]
    assert ids(db, "lm") == []  # the middle of a word is not searched
    assert ids(db, "uiz") == []
    assert ids(db, "black dog") == [calls["oak"]]  # the owner and animal described


def test_numbers_punctuation_and_hostile_text(db, calls):
    assert ids(db, "142 elmwood") == [calls["elmwood"]]  # a house number's start
    assert ids(db, "1420 Elmwood Ct.") == [calls["elmwood"]]
    assert ids(db, "o'brien") == [calls["elmwood"]]
    assert ids(db, "k-9") == [calls["elmwood"]]
    assert ids(db, str(calls["oak"])) == [calls["oak"]]  # a number alone: the call's number
    for hostile in ('x" OR "1', "NEAR(elm oak)", "elm & oak | st", "):*"):
        assert ids(db, hostile) == [], hostile  # user text never becomes search syntax
    assert ids(db, "--") == []  # nothing searchable: no call, not every call


def test_the_index_follows_inserts_updates_and_deletes(db, officer, calls):
    assert ids(db, "maple") == []
    added = create_call(db, officer, call_input("3 Maple Rd"))
    assert ids(db, "maple") == [added.id]  # inserted
    view = get_call(db, added.id)
    update_call(db, officer, added.id, view.version, call_input("3 Birch Rd"))
    assert ids(db, "maple") == [] and ids(db, "birch") == [added.id]  # updated
    with db.write() as s:  # a change elsewhere in the row leaves the search as it was
        s.execute(text("UPDATE field_call SET officer = 'olly' WHERE id = :i"), {"i": added.id})
    assert ids(db, "birch") == [added.id]
    with db.write() as s:
        s.execute(text("DELETE FROM field_call WHERE id = :i"), {"i": added.id})
    assert ids(db, "birch") == []  # deleted
    if db.dialect == "sqlite":  # the external-content index agrees with its table
        with db.engine.begin() as conn:
            for table in TEXT_SEARCHED:
                conn.exec_driver_sql(
                    f"INSERT INTO {table}_fts({table}_fts) VALUES ('integrity-check')"
                )


def test_each_list_has_its_index(db):
    with db.engine.connect() as conn:
        if db.dialect == "sqlite":
            names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
            wanted = {f"{t}_fts{s}" for t in TEXT_SEARCHED for s in ("", "_ai", "_ad", "_au")}
        else:
            names = {r[0] for r in conn.execute(text("SELECT indexname FROM pg_indexes"))}
            wanted = {f"ix_{t}_search" for t in TEXT_SEARCHED}
            # The lists' query is on the very expression indexed (or the index goes unused).
            conn.exec_driver_sql("SET enable_seqscan = off")
            for t in TEXT_SEARCHED:
                plan = " ".join(
                    r[0]
                    for r in conn.exec_driver_sql(
                        f"EXPLAIN SELECT id FROM {t} "
                        f"WHERE {pg_text_vector()} @@ to_tsquery('simple', 'elm:*')"
                    )
                )
                assert f"ix_{t}_search" in plan, plan
    assert wanted <= names


def test_the_migration_fills_the_index_from_the_rows_already_there(tmp_path):

    from fieldops.db.engine import Database
    from fieldops.db.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'before.db'}"
    db = Database(url)
    upgrade(db.engine, url)
    downgrade_to(db, "0023")
    at = datetime.now(UTC)
    with db.engine.begin() as conn:  # a call recorded before the index existed
        conn.execute(
            insert(FieldCall.__table__).values(
                received_at=at,
                received_how="phone",
                address="5 Pine St",
                address_key="5 pine st",
                kind="noise",
                search_text="5 pine st",
                recorded_by="olly",
            )
        )
    upgrade(db.engine, url, backup_first=False)
    assert ids(db, "pine") == [1]
    db.dispose()
