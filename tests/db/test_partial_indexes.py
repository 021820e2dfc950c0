"""The models' partial indexes are the migrated schema's, on both back ends.

A partial index states its condition once (``partial_index``); its dialect's spelling
is added when a database of that dialect is opened, so that SQLite never imports the
PostgreSQL dialect (issue 14). Alembic's comparison (tests/db/test_migrations.py) does
not look at an index's condition: these tests do.
"""

from __future__ import annotations

import re

from sqlalchemy import inspect
from sqlalchemy.schema import CreateIndex

from fieldops.db.engine import Database
from fieldops.db.models import Base
from fieldops.db.models.base import WHERE


def _condition(sql: object) -> str:
    """A condition as both databases may print it: no outer parentheses, one spacing,
    without the casts PostgreSQL adds (``(origin)::text <> 'transfer'::text``)."""
    said = re.sub(r"\s+", " ", str(sql)).strip().lower()
    said = re.sub(r"::[a-z ]+?(?=[\s)]|$)", "", said)
    said = re.sub(r"\((\w+)\)", r"\1", said)
    while said.startswith("(") and said.endswith(")"):
        said = said[1:-1].strip()
    return said.replace("<>", "!=")


def _declared() -> dict[str, str]:
    return {
        index.name: _condition(index.info[WHERE])
        for table in Base.metadata.tables.values()
        for index in table.indexes
        if WHERE in index.info and index.name
    }


def test_the_models_declare_partial_indexes() -> None:
    assert {"ix_person_active_order", "ix_animal_active_order", "ix_dog_licence_year_tag"} <= set(
        _declared()
    )


def test_each_partial_index_has_its_condition_in_the_database(db: Database) -> None:
    dialect = db.engine.dialect.name
    found: dict[str, str] = {}
    with db.engine.connect() as conn:
        inspector = inspect(conn)
        for table in Base.metadata.tables:
            for index in inspector.get_indexes(table):
                where = index.get("dialect_options", {}).get(f"{dialect}_where")
                if where is not None and index["name"]:
                    found[index["name"]] = _condition(where)
    # Every index partial in the database is partial in the models, on the same rows.
    assert found == _declared()


def test_the_models_create_each_partial_index_with_its_condition(db: Database) -> None:
    # What SQLAlchemy would emit for this database: the condition in the dialect's option.
    for table in Base.metadata.tables.values():
        for index in table.indexes:
            if WHERE in index.info:
                ddl = str(CreateIndex(index).compile(dialect=db.engine.dialect))
                assert _condition(ddl.split(" WHERE ", 1)[1]) == _condition(index.info[WHERE])
