"""Engine and session set-up. Nothing here runs at import time.

SQLite settings come from measurements on this hardware (TOOLCHAIN.md): WAL
with ``synchronous=FULL`` lost no acknowledged commit under kill -9, and
write transactions that begin IMMEDIATE never hit "database is locked" when
two workstations write at once. Read-only units of work begin DEFERRED so
that readers never queue behind a writer.

SQLite's locks are POSIX locks, which belong to the process: closing ANY
descriptor of the database file in this process (a file dialog sniffing it for
an icon, say) silently drops them, and the next other process to close its
connection then believes it was the last one and deletes the write-ahead log
this process is still writing to ("How To Corrupt An SQLite Database File",
2.2). The UI never lets anything but SQLite open these files
(ui/common/file_dialogs.py); as a second line, every unit of work here first
checks that the ``-wal`` file at the database's path is still the one each
connection opened, and once it is not, the database refuses all further work
with ``DatabaseFilesReplacedError`` rather than acknowledging saves that would
go to a deleted file.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from fieldops.db.flush_net import install as install_flush_net
from fieldops.errors import DatabaseFilesReplacedError
from fieldops.files import PRIVATE_FILE, PRIVATE_FOLDER, make_private_folder, tighten_own
from fieldops.logs import quiet_database_loggers

ENV_URL = "FIELDOPS_DATABASE_URL"
BUSY_TIMEOUT_MS = 10_000
READONLY = "fieldops_readonly"
WAL_IDENTITY = "fieldops_wal_identity"

FileIdentity = tuple[int, int]


APP_FOLDER = "FieldOps"  # the name of the user's data folder FieldOps makes


def default_database_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_FOLDER, appauthor=False)) / "fieldops.db"


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
    if not database or database == ":memory:" or database.startswith("file:"):
        return  # a SQLite URI (a read-only opening): nothing to prepare
    path = Path(database)
    # Records of people's names and addresses: the folder FieldOps makes, the database
    # and (SQLite gives them the database file's mode) its -wal and -shm are owner-only.
    make_private_folder(path.parent)
    # FieldOps's own folder, made 0755 before (platformdirs is asked only of a folder
    # with its name: it costs a start-up on another folder 30 ms).
    if path.parent.name == APP_FOLDER and path.parent == default_database_path().parent:
        tighten_own(path.parent, PRIVATE_FOLDER)
    if not path.exists():
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, stat.S_IRUSR | stat.S_IWUSR)
        os.close(fd)
    for own in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        tighten_own(own, PRIVATE_FILE)


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL; None for a server or an in-memory database."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    if u.database.startswith("file:"):  # a SQLite URI: opened read-only, never written
        return None
    return Path(u.database)


def _identity(path: Path) -> FileIdentity | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


class WalGuard:
    """Notices that the ``-wal`` file was removed or replaced under this process's connections.

    While any connection of ours is open, SQLite never deletes or recreates the
    write-ahead log (it only rewinds it in place), so each connection's log is
    the file at ``<db>-wal`` for the connection's whole life. When it is not,
    another process has deleted the log this process writes to: every later save
    would be acknowledged and lost. From then on every unit of work is refused,
    even on new connections, because SQLite shares one lock and shared-memory
    state per file among all of a process's connections: only a restart is clean.
    """

    def __init__(self, database: Path) -> None:
        self.wal_path = database.with_name(database.name + "-wal")
        self.failed = False

    def opened(self, info: dict[Any, Any]) -> None:
        """Remember the log a new connection opened (none yet in a brand-new database)."""
        info[WAL_IDENTITY] = _identity(self.wal_path)

    def check(self, info: dict[Any, Any]) -> None:
        """Refuse the unit of work unless the connection's log is still the file at the path."""
        if not self.failed:
            expected = info.get(WAL_IDENTITY)
            current = _identity(self.wal_path)
            if expected is None:
                # A new database gets its log at the first write: adopt it then.
                info[WAL_IDENTITY] = current
                return
            if current == expected:
                return
            self.failed = True
        raise DatabaseFilesReplacedError(str(self.wal_path))


def make_engine(url: str, *, echo: bool = False) -> Engine:
    # Statements' parameters and rows are people's names and addresses: never in a log
    # or an error message (fieldops.logs).
    if not echo:
        quiet_database_loggers()
    u = make_url(url)
    # The models' partial indexes in this database's dialect (fieldops/db/models/base.py).
    from fieldops.db.models.base import use_dialect

    use_dialect(u.get_backend_name())
    if u.get_backend_name() != "sqlite":
        return create_engine(url, echo=echo, pool_pre_ping=True, hide_parameters=True)
    _prepare_sqlite_file(url)
    engine = create_engine(
        url,
        echo=echo,
        hide_parameters=True,
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
    )
    database = sqlite_file(url)
    guard = WalGuard(database) if database is not None else None

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite would defer it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # A first read opens the connection's write-ahead log, so the guard records
        # the file this connection will write to, not one seen later.
        cursor.execute("SELECT count(*) FROM sqlite_master").fetchall()
        cursor.close()
        if guard is not None:
            guard.opened(_record.info)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if guard is not None:
            guard.check(conn.connection.info)  # before BEGIN: a refusal leaves no transaction
        if conn.get_execution_options().get(READONLY):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    @event.listens_for(engine, "commit")
    def _on_commit(conn: Connection) -> None:
        # Once more just before COMMIT: a refused commit is rolled back when the
        # connection returns to the pool, never acknowledged.
        if guard is not None:
            guard.check(conn.connection.info)

    return engine


class Database:
    """One database: its engine and the two kinds of unit of work on it."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        install_flush_net()  # nothing a column cannot hold reaches a flush (flush_net.py)
        self.engine = make_engine(url, echo=echo)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._together = threading.local()  # the session of ``reading_together``, a thread

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def description(self) -> str:
        return describe_url(self.url)

    @property
    def folder(self) -> Path | None:
        """The folder holding the database's files (SQLite), where no document may go."""
        path = sqlite_file(self.url)
        return path.parent if path is not None else None

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A unit of work that changes data: commits on success, rolls back on any error."""
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A unit of work that only reads; it never takes the write lock.

        Inside ``reading_together`` on the same thread it is that block's unit of work."""
        shared: Session | None = getattr(self._together, "session", None)
        if shared is not None:
            yield shared
            return
        with (
            self.engine.connect().execution_options(**{READONLY: True}) as conn,
            Session(bind=conn, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield session

    @contextmanager
    def reading_together(self) -> Iterator[None]:
        """Every ``read`` on this thread inside the block is one unit of work: one BEGIN,
        one snapshot, one check of the files.

        For a caller of many small reads at once: Today asks every module for its
        items, a dozen units of work that cost more to open and close than their
        statements took to run at 100,000 impoundments (issue 14), and one snapshot
        keeps a change saved meanwhile from showing in one module and not another."""
        if getattr(self._together, "session", None) is not None:
            yield  # already inside one
            return
        with self.read() as session:
            self._together.session = session
            try:
                yield
            finally:
                self._together.session = None

    def dispose(self) -> None:
        self.engine.dispose()
