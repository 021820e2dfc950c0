"""Who is acting, and the audit record every change writes."""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fieldops.db.engine import READONLY
from fieldops.db.flush_net import check_event_text
from fieldops.db.models import AuditChainHead, AuditEvent, SaveKey, StaffUser
from fieldops.db.models.audit import GENESIS, body_hash, event_body
from fieldops.errors import NotFoundError, UserError, ValidationError
from fieldops.services.validate import row as stored_row
from fieldops.services.validate import row_id_fits


@dataclass(frozen=True)
class Actor:
    """The person a change is recorded against.

    ``role`` is what the window shows and which controls it offers; a service
    never trusts it, but reads the account's role in its unit of work
    (fieldops/permissions.py).
    """

    username: str
    role: str = "operator"
    full_name: str = ""


def os_username() -> str:
    """The login of this process's REAL user id.

    Never ``LOGNAME`` or ``USER`` (what ``getpass.getuser`` reads first): anyone can
    set those, and ``LOGNAME=root`` must not make a command act as root.
    """
    try:
        import pwd
    except ImportError:  # Windows: no account database; the session's own name
        return getpass.getuser()
    uid = os.getuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a uid with no account (a container): still something true
        return f"uid-{uid}"


def now() -> datetime:
    return datetime.now(UTC)


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if is_dataclass(value):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    return value


def snapshot(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: jsonable(getattr(obj, n)) for n in names}


def changed_only(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


@dataclass(frozen=True)
class AuditRecord:
    """One event to append: what happened to which record, and its state before and after."""

    action: str
    entity: str
    entity_id: int
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    reason: str = ""


def audit(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entity_id: int,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """Record a change in the same transaction as the change itself (the chain's one writer)."""
    append_audit(session, actor, [AuditRecord(action, entity, entity_id, before, after, reason)])


def audit_read(session: Session, actor: Actor, what: str, entity: str, entity_id: int) -> None:
    """Record that ``actor`` looked at a private part (``what``) of a record: "read:<what>".

    For opening a bite victim's or a caller's contact details, or producing or
    exporting a report; call it in a write unit of work (it appends to the chain).
    """
    action = f"read:{what}"
    if not what or len(action) > 40:
        raise ValueError(f"an audited read needs a short name for what was read, not {what!r}")
    audit(session, actor, action, entity, entity_id)


def _stored_json(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """A value exactly as the JSON column will give it back (dates ISO, Decimals as text).

    Keys keep the caller's order (a history lists them so); the hashed body sorts them.
    """
    if value is None:
        return None
    parsed: dict[str, Any] = json.loads(json.dumps(jsonable(value), ensure_ascii=False))
    return parsed


def _event_time(session: Session) -> datetime:
    """When: the server's clock on PostgreSQL (one clock for every workstation), else ours."""
    if session.get_bind().dialect.name == "postgresql":
        moment: datetime = session.execute(text("SELECT clock_timestamp()")).scalar_one()
        return moment.astimezone(UTC)
    return now()


def _locked_head(session: Session) -> tuple[int, str] | None:
    row = session.execute(
        select(AuditChainHead.seq, AuditChainHead.hash)
        .where(AuditChainHead.id == 1)
        .with_for_update()
    ).one_or_none()
    return None if row is None else (row[0], row[1])


def append_audit(session: Session, actor: Actor, records: Sequence[AuditRecord]) -> None:
    """Append events to the hash chain, in order, in the caller's unit of work.

    ``audit()`` is this with one event; a bulk load (the demo's large people
    list) passes many. The chain head is locked first (``FOR UPDATE`` on
    PostgreSQL; on SQLite every write unit of work already holds the database's
    write lock, ``BEGIN IMMEDIATE`` in ``fieldops.db.engine``), so appends from
    two workstations queue instead of forking the chain.
    """
    if not records:
        return
    if session.connection().get_execution_options().get(READONLY):
        raise RuntimeError("an audit event needs a write unit of work (Database.write())")
    head = _locked_head(session)
    if head is None:
        # Only an emptied trail (every table truncated) may start a new chain. Two
        # workstations starting it at once both end up on the one head row: the
        # second one's insert waits for the first and then does nothing.
        ignore = "OR IGNORE " if session.get_bind().dialect.name == "sqlite" else ""
        conflict = "" if ignore else " ON CONFLICT (id) DO NOTHING"
        created = session.execute(
            text(f"INSERT {ignore}INTO audit_chain (id, seq, hash) VALUES (1, 0, :g){conflict}"),
            {"g": GENESIS},
        )
        head = _locked_head(session)
        lost = getattr(created, "rowcount", 0) == 1 and (
            session.execute(select(AuditEvent.id).limit(1)).first() is not None
        )
        if head is None or lost:
            raise RuntimeError("the audit chain has lost its head row; run `fieldops check`")
    seq, prev = head
    at = _event_time(session)
    rows = []
    for r in records:
        seq += 1
        before, after = _stored_json(r.before), _stored_json(r.after)
        check_event_text(r.reason, json.dumps([before, after], ensure_ascii=False))
        fields_: dict[str, Any] = {
            "at": at,
            "actor": actor.username,
            "action": r.action,
            "entity": r.entity,
            "entity_id": r.entity_id,
            "before": before,
            "after": after,
            "reason": r.reason,
        }
        body = event_body(seq=seq, prev_hash=prev, **fields_)
        digest = body_hash(body)
        rows.append({**fields_, "seq": seq, "prev_hash": prev, "hash": digest, "body": body})
        prev = digest
    session.execute(insert(AuditEvent), rows)
    session.execute(update(AuditChainHead).where(AuditChainHead.id == 1).values(seq=seq, hash=prev))


T = TypeVar("T")


def require_row_id(model: type[Any], row_id: object) -> None:
    """Refuse as not found an id no INTEGER column can hold (0, negative, past 2**31-1, not a
    whole number): it names no row, and PostgreSQL would fail the query with an overflow."""
    if not row_id_fits(row_id):
        raise NotFoundError(f"There is no {model.__name__.lower()} #{row_id}.")


def fetch(session: Session, model: type[T], row_id: int) -> T:
    """A row that a foreign key says exists; a missing one is a clear error, not None."""
    require_row_id(model, row_id)
    row = stored_row(session, model, row_id)
    if row is None:
        raise NotFoundError(f"There is no {model.__name__.lower()} #{row_id}.")
    return row


def actor_for(session: Session, username: str) -> Actor | None:
    """The active staff account with a login name as an actor; None for no such account."""
    user = session.query(StaffUser).filter_by(username=username, active=True).one_or_none()
    if user is None:
        return None
    return Actor(username=user.username, role=user.role, full_name=user.full_name)


#: The longest client key accepted (a UUID is 36 characters).
SAVE_KEY_MAX = 64

_KEY_ELSEWHERE = (
    "This form's save was already used for a different record. "
    "Close the form and open it again; nothing was saved."
)


def existing_save(session: Session, key: str | None, entity: str, by: Actor) -> int | None:
    """The id of the record a save with ``key`` already made, or None for a new save.

    ``key`` is made by a form when it opens and sent with every attempt to save
    it, so a retry after a save whose reply was lost returns the record already
    made. ``by`` is who saves. The same key for another kind of record or another person is refused
    (a ``ValidationError`` on ``client_key``): it is a bug or a replay, never a retry.
    Call it first in the unit of work that creates the record.
    """
    if key is None:
        return None
    if not isinstance(key, str) or not key.strip() or len(key) > SAVE_KEY_MAX:
        raise ValidationError({"client_key": "The form's save key is not valid; reopen it."})
    row = session.get(SaveKey, key)
    if row is None:
        return None
    if row.entity != entity or row.actor != by.username:
        raise ValidationError({"client_key": _KEY_ELSEWHERE})
    return row.entity_id


def remember_save(
    session: Session, key: str | None, entity: str, entity_id: int, by: Actor
) -> None:
    """Record that the save with ``key`` made ``entity`` #``entity_id``, in the same
    unit of work as the record, so both are committed or neither is."""
    if key is None:
        return
    session.add(SaveKey(key=key, entity=entity, entity_id=entity_id, actor=by.username))
    try:
        session.flush()
    except IntegrityError as exc:
        # Two attempts of one save at the same moment (PostgreSQL lets both run until
        # here; SQLite's write lock never does): the other one committed the record.
        raise UserError(
            "This form's save was just made by another attempt, so this one saved nothing. "
            "Close the form and find the record before saving again."
        ) from exc
