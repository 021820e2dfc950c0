"""Who is acting, and the audit record every change writes."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass, fields, is_dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from fieldops.db.models import AuditEvent, StaffUser
from fieldops.errors import NotFoundError


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
    """Record a change in the same transaction as the change itself."""
    session.add(
        AuditEvent(
            at=now(),
            actor=actor.username,
            action=action,
            entity=entity,
            entity_id=entity_id,
            before=before,
            after=after,
            reason=reason,
        )
    )


T = TypeVar("T")


def fetch(session: Session, model: type[T], row_id: int) -> T:
    """A row that a foreign key says exists; a missing one is a clear error, not None."""
    row = session.get(model, row_id)
    if row is None:
        raise NotFoundError(f"There is no {model.__name__.lower()} #{row_id}.")
    return row


def actor_for(session: Session, username: str) -> Actor | None:
    """The active staff account with a login name as an actor; None for no such account."""
    user = session.query(StaffUser).filter_by(username=username, active=True).one_or_none()
    if user is None:
        return None
    return Actor(username=user.username, role=user.role, full_name=user.full_name)
