"""Engine and session set-up. Nothing here runs at import time.

SQLite settings come from measurements on this hardware (TOOLCHAIN.md): WAL
with ``synchronous=FULL`` lost no acknowledged commit under kill -9, and
write transactions that begin IMMEDIATE never hit "database is locked" when
two workstations write at once. Read-only units of work begin DEFERRED so
that readers never queue behind a writer.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

ENV_URL = "FIELDOPS_DATABASE_URL"
BUSY_TIMEOUT_MS = 10_000
READONLY = "fieldops_readonly"


def default_database_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("FieldOps", appauthor=False)) / "fieldops.db"


def resolve_url(db: str | os.PathLike[str] | None = None) -> str:
    """The database to open: ``--db`` first, then the environment, then the user's data folder.

    ``db`` may be a file path or a full SQLAlchemy URL (``postgresql+psycopg://...``).
    """
    if db is None:
        db = os.environ.get(ENV_URL) or default_database_path()
    text = os.fspath(db)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def describe_url(url: str) -> str:
    """The database as shown to a user: a file path, or a URL without its password."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return u.render_as_string(hide_password=True)


def _prepare_sqlite_file(url: str) -> None:
    database = make_url(url).database
    if not database or database == ":memory:":
        return
    path = Path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        # Records of people's names and addresses: not world-readable.
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, stat.S_IRUSR | stat.S_IWUSR)
        os.close(fd)


def make_engine(url: str, *, echo: bool = False) -> Engine:
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return create_engine(url, echo=echo, pool_pre_ping=True)
    _prepare_sqlite_file(url)
    engine = create_engine(url, echo=echo, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite would defer it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:
        if conn.get_execution_options().get(READONLY):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class Database:
    """One database: its engine and the two kinds of unit of work on it."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        self.engine = make_engine(url, echo=echo)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def description(self) -> str:
        return describe_url(self.url)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A unit of work that changes data: commits on success, rolls back on any error."""
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A unit of work that only reads; it never takes the write lock."""
        with (
            self.engine.connect().execution_options(**{READONLY: True}) as conn,
            Session(bind=conn, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield session

    def dispose(self) -> None:
        self.engine.dispose()
