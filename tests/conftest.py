"""Shared fixtures: a migrated database per test, on SQLite and (when
FIELDOPS_TEST_PG_URL is set, as CI does) on PostgreSQL too."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date

import pytest
from accounts_support import enrol
from sqlalchemy import text
from support import pg_url

from fieldops.db.engine import Database
from fieldops.db.migrate import upgrade
from fieldops.db.models import Base
from fieldops.services.context import Actor

PG_URL = pg_url()
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])

TODAY = date(2026, 11, 30)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("template") / "template.db"
    db = Database(f"sqlite:///{path}")
    upgrade(db.engine, db.url)
    db.dispose()
    raw = sqlite3.connect(path)  # fold the WAL into the file so a plain copy is complete
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return str(path)


@pytest.fixture(scope="session")
def pg_database():
    if not PG_URL:
        pytest.skip("FIELDOPS_TEST_PG_URL is not set")
    db = Database(PG_URL)
    with db.engine.begin() as conn:
        # Every schema of this test database, also those a killed run's fixtures left
        # (a copy's target schema): the session starts from nothing.
        left = conn.exec_driver_sql(
            "SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' "
            "AND nspname NOT IN ('information_schema', 'public') "
            "AND nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
        ).scalars()
        for schema in list(left):
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        conn.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    upgrade(db.engine, db.url)
    yield db
    db.dispose()


def _truncate_pg(db: Database) -> None:
    tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
    with db.engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path):
    """A freshly migrated, empty database on each back end."""
    if request.param == "sqlite":
        path = tmp_path / "fieldops.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        database = Database(f"sqlite:///{path}")
        yield database
        database.dispose()
    else:
        database = request.getfixturevalue("pg_database")
        _truncate_pg(database)
        yield database


@pytest.fixture
def sqlite_db(tmp_path, sqlite_template):
    """A migrated SQLite database, for tests of SQLite-only behaviour and the UI."""
    path = tmp_path / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    database = Database(f"sqlite:///{path}")
    yield database
    database.dispose()


def _enrolled(request, actor: Actor) -> Actor:
    """The actor, with an account in whichever test database the test uses."""
    for name in ("db", "sqlite_db"):
        if name in request.fixturenames:
            enrol(request.getfixturevalue(name), actor)
    return actor


@pytest.fixture(autouse=True, scope="session")
def _cheap_password_hashing():
    """argon2 with tiny parameters (the one seam), so the suite stays fast."""
    from argon2 import PasswordHasher

    from fieldops.services.signin import use_hasher

    old = use_hasher(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    yield
    use_hasher(old)


@pytest.fixture
def operator(request) -> Actor:
    return _enrolled(request, Actor(username="opal", role="operator", full_name="Opal Operator"))


@pytest.fixture
def officer(request) -> Actor:
    return _enrolled(request, Actor(username="olly", role="officer", full_name="Olly Officer"))


@pytest.fixture
def supervisor(request) -> Actor:
    return _enrolled(request, Actor(username="sam", role="supervisor", full_name="Sam Supervisor"))


@pytest.fixture
def admin(request) -> Actor:
    return _enrolled(request, Actor(username="ada", role="admin", full_name="Ada Admin"))


@pytest.fixture
def today() -> date:
    return TODAY


@pytest.fixture
def install():
    """``install(module, ...)``: install modules (``fieldops.modules.extra``) for this test."""
    import contextlib

    from fieldops import modules

    with contextlib.ExitStack() as stack:
        yield lambda *added: stack.enter_context(modules.extra(*added))
