"""Copy a SQLite database into an empty PostgreSQL database, and prove the copy whole.

For several workstations: SQLite is one computer's database (over a network share
its locking fails, fieldops/db/placement.py), PostgreSQL is everyone's. The copy:

1. refuses a target that is not PostgreSQL, or that holds any table already (it is
   not touched);
2. records in the source's audit trail who copied it and where to (so the copy
   carries that event too, and both trails end at the same head);
3. in ONE transaction on the target: creates the schema with the migrations,
   copies every table in foreign-key order in batches, ids kept (the append-only
   triggers refuse UPDATE and DELETE only; inserting is what they allow), but the
   kept tables, which the target's triggers fill from the rows copied; the audit
   chain's head row set to the source's, each id sequence moved past the highest id;
4. verifies, still inside that transaction: every table's row count equals the
   source's, every row reads back equal, the append-only triggers are in place,
   every kept table agrees with its sources (``fieldops.check.kept_tables``), the
   audit chain verifies link by link (fieldops/services/audit_verify.py) and
   ends at the source's head;
5. commits only then. On any failure the transaction is rolled back: the target
   is left as empty as it was, and the message says so.

The source is read in one read transaction (a snapshot: a save made meanwhile on
another workstation is simply not in the copy), so every workstation should be
closed first; the command says to stop using the SQLite file afterwards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from alembic import command
from sqlalchemy import Connection, Table, func, inspect, null, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.types import JSON

from fieldops.check import kept_tables, stale_kept_tables
from fieldops.db.engine import Database, describe_url, make_engine
from fieldops.db.migrate import alembic_config
from fieldops.db.models import AuditChainHead, Base
from fieldops.errors import UserError
from fieldops.permissions import Permission, requires
from fieldops.services.audit_verify import chain_problems, trigger_problems
from fieldops.services.context import Actor, audit

BATCH_ROWS = 500
#: The audit event the source records, and the copy carries.
COPY_ACTION = "copied_to_server"


class MigrateTargetError(UserError):
    """The target cannot receive the copy (not PostgreSQL, unreachable, not empty)."""


class MigrationFailedError(UserError):
    """The copy failed or did not verify; the target was rolled back to empty."""


@dataclass(frozen=True)
class TableCopied:
    name: str
    rows: int


@dataclass(frozen=True)
class MigrationResult:
    source: str
    target: str  # the URL with its password hidden
    target_url: str  # the URL to give each workstation: no password at all
    tables: tuple[TableCopied, ...]
    audit_events: int
    head_seq: int
    head_hash: str

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


def copied_tables() -> list[Table]:
    """Every table of the schema but the kept ones, parents before children (foreign-key
    order).

    The kept tables (``fieldops.check.kept_tables``: the core's and every installed
    module's) are filled by the target's own triggers from the rows copied, and checked
    against them before the commit. A person's words, for one, are each database's search
    index's (migration 0030), which split and fold text differently (SQLite's FTS5 drops
    accents and splits an e-mail address; PostgreSQL's "simple" configuration keeps
    both): copied, they would be the source's words, not the copy's."""
    kept = kept_tables()
    return [t for t in Base.metadata.sorted_tables if t.name not in kept]


def url_without_password(url: str) -> str:
    """The URL as a workstation is told it: no password (libpq finds it in ~/.pgpass)."""
    u = make_url(url)
    return u._replace(password=None).render_as_string(hide_password=False) if u.password else url


def check_target_url(url: str) -> str:
    """The target URL, refused in words unless it names a PostgreSQL database."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise MigrateTargetError(
            "migrate-to needs a database URL such as "
            "postgresql+psycopg://USER@SERVER/DATABASE; nothing was copied."
        ) from None
    if u.get_backend_name() != "postgresql" or not u.database:
        raise MigrateTargetError(
            f"migrate-to copies into a PostgreSQL database, and {describe_url(url)} is not "
            "one (give postgresql+psycopg://USER@SERVER/DATABASE); nothing was copied."
        )
    return url


@requires(Permission.BACKUPS)
def migrate_to(
    db: Database,
    actor: Actor,
    target_url: str,
    *,
    batch: int = BATCH_ROWS,
    progress: Callable[[str, int], None] | None = None,
) -> MigrationResult:
    """Copy the SQLite database ``db`` into the empty PostgreSQL database ``target_url``.

    An administrator's act (``Permission.BACKUPS``: like a backup, it hands someone
    a copy of every record). Raises ``MigrateTargetError`` (nothing done to the
    target) or ``MigrationFailedError`` (the target rolled back to empty).
    """
    if db.dialect != "sqlite":
        raise MigrateTargetError(
            f"migrate-to copies a SQLite database, and {db.description} is already a "
            "server database; nothing was copied."
        )
    check_target_url(target_url)
    shown = describe_url(target_url)
    try:
        target = make_engine(target_url)
    except (ArgumentError, NoSuchModuleError, ImportError) as exc:
        raise MigrateTargetError(f"{shown} cannot be used: {exc}; nothing was copied.") from None
    try:
        with target.connect() as conn:
            try:
                _refuse_non_empty(conn, shown)
                conn.rollback()  # the look ended its own transaction: the copy begins afresh
            except DBAPIError as exc:  # unreachable, the login refused, no such database...
                raise MigrateTargetError(
                    f"FieldOps could not use {shown}: {_first_line(exc)}. Nothing was copied."
                ) from None
            # Recorded before the copy, in the source's own trail: the copy carries it.
            with db.write() as s:
                audit(
                    s,
                    actor,
                    "copied_to_server",  # = COPY_ACTION; a literal, for the history's scan
                    "database",
                    0,
                    after={"to": shown, "from": db.description},
                )
            return _copy(db, conn, target_url, shown, batch, progress)
    finally:
        target.dispose()


def _first_line(exc: BaseException) -> str:
    said = str(getattr(exc, "orig", None) or exc).strip()
    return said.splitlines()[0] if said else type(exc).__name__


def _refuse_non_empty(conn: Connection, shown: str) -> None:
    names = sorted(inspect(conn).get_table_names())
    if "alembic_version" in names:
        raise MigrateTargetError(
            f"{shown} already holds a FieldOps database (copied before?), so nothing was "
            "copied and it was not changed. To copy again, give an empty database."
        )
    if names:
        listed = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        raise MigrateTargetError(
            f"{shown} is not empty: it already has {len(names)} table(s) ({listed}). "
            "migrate-to copies only into an empty database, so nothing was copied and "
            f"{shown} was not changed. Create an empty one (for example "
            "'createdb -O USER fieldops') and give its URL."
        )


def _copy(
    db: Database,
    conn: Connection,
    target_url: str,
    shown: str,
    batch: int,
    progress: Callable[[str, int], None] | None,
) -> MigrationResult:
    step = "creating the schema"
    try:
        with db.read() as s, conn.begin():
            src = s.connection()
            cfg = alembic_config(target_url)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            copied = []
            for table in copied_tables():
                step = f"copying {table.name}"
                n = _copy_table(src, conn, table, batch)
                copied.append(TableCopied(table.name, n))
                if progress is not None:
                    progress(table.name, n)
            step = "setting the id sequences"
            _reset_sequences(conn)
            step = "verifying the copy"
            seq, digest, events = _verify(src, conn, copied)
    except UserError:
        raise
    except Exception as exc:
        raise MigrationFailedError(
            f"Copying to {shown} failed while {step}: {_first_line(exc)}. Everything copied was rolled "
            f"back: {shown} is as empty as before, and the SQLite database {db.description} "
            "still holds every record (its audit trail records the attempt)."
        ) from exc
    return MigrationResult(
        db.description, shown, url_without_password(target_url), tuple(copied), events, seq, digest
    )


def _primary_key(table: Table) -> list[Any]:
    return list(table.primary_key.columns)


def _rows(conn: Connection, table: Table, batch: int) -> Iterator[Sequence[Any]]:
    result = conn.execute(select(table).order_by(*_primary_key(table)))
    yield from result.partitions(batch)


def _copy_table(src: Connection, dst: Connection, table: Table, batch: int) -> int:
    """Insert every row of ``table``, ids kept; the chain head row is set, not inserted."""
    json_columns = {c.name for c in table.columns if isinstance(c.type, JSON)}
    n = 0
    for part in _rows(src, table, batch):
        rows = [dict(r._mapping) for r in part]
        for row in rows:
            for name in json_columns:
                if row[name] is None:  # SQL NULL, not the JSON value null
                    row[name] = null()
        if table.name == AuditChainHead.__tablename__:
            # The migrations made the head row (id 1) of the empty chain; the copy's head
            # is the source's. The row may be updated (each save does), never deleted.
            for row in rows:
                changed = dst.execute(table.update().where(table.c.id == row["id"]).values(**row))
                if changed.rowcount == 0:
                    dst.execute(table.insert(), row)
        else:
            dst.execute(table.insert(), rows)
        n += len(rows)
    return n


def _reset_sequences(conn: Connection) -> None:
    """Move each id sequence past the highest id copied, so the next save gets a new one."""
    for table in copied_tables():
        for column in _primary_key(table):
            sequence = conn.execute(
                text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": column.name}
            ).scalar()
            if sequence is None:
                continue
            highest = conn.execute(select(func.max(column))).scalar() or 0
            conn.execute(
                text("SELECT setval(:s, :v, false)"), {"s": sequence, "v": int(highest) + 1}
            )


def _normal(value: Any) -> Any:
    """A value as both databases give it back for the same stored value."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat() if value.tzinfo else value.isoformat()
    if isinstance(value, Decimal):
        return str(value.normalize())
    if isinstance(value, bytes | memoryview):
        return hashlib.sha256(bytes(value)).hexdigest()
    return value


def _table_digest(conn: Connection, table: Table, batch: int = 2000) -> tuple[int, str]:
    digest = hashlib.sha256()
    n = 0
    for part in _rows(conn, table, batch):
        for row in part:
            digest.update(repr(tuple(_normal(v) for v in row)).encode())
            n += 1
    return n, digest.hexdigest()


def _verify(src: Connection, dst: Connection, copied: list[TableCopied]) -> tuple[int, str, int]:
    """Counts, contents, triggers and the audit chain; raises on the first difference."""
    schema = set(inspect(dst).get_table_names())
    expected = {t.name for t in copied_tables()} | {"alembic_version"}
    missing = expected - schema
    if missing:
        raise RuntimeError(f"the migrations did not create {', '.join(sorted(missing))}")
    for table, done in zip(copied_tables(), copied, strict=True):
        in_source = src.execute(select(func.count()).select_from(table)).scalar_one()
        in_target = dst.execute(select(func.count()).select_from(table)).scalar_one()
        if not in_source == in_target == done.rows:
            raise RuntimeError(
                f"{table.name} has {in_source} rows in the source but {in_target} in the copy"
            )
        if _table_digest(src, table) != _table_digest(dst, table):
            raise RuntimeError(f"{table.name}'s rows read back differently from the source")
    problems = trigger_problems(dst) + chain_problems(dst)
    problems += stale_kept_tables(dst)
    if problems:
        raise RuntimeError("; ".join(problems))
    head = select(AuditChainHead.seq, AuditChainHead.hash)
    source_head, target_head = src.execute(head).one(), dst.execute(head).one()
    if tuple(source_head) != tuple(target_head):
        raise RuntimeError(
            f"the copy's audit trail ends at number {target_head[0]}, the source's at "
            f"{source_head[0]}"
        )
    events = next(t.rows for t in copied if t.name == "audit_event")
    return int(source_head[0]), str(source_head[1]), events
