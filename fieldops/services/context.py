"""Who is acting, and the audit record every change writes."""

from __future__ import annotations

import getpass
from dataclasses import dataclass, fields, is_dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from fieldops.db.models import AuditEvent, StaffUser
from fieldops.errors import NotFoundError, PermissionDeniedError

SUPERVISOR_ROLES = frozenset({"supervisor", "admin"})


@dataclass(frozen=True)
class Actor:
    """The person a change is recorded against."""

    username: str
    role: str = "operator"
    full_name: str = ""

    @property
    def is_supervisor(self) -> bool:
        return self.role in SUPERVISOR_ROLES

    def require_supervisor(self, what: str) -> None:
        if not self.is_supervisor:
            raise PermissionDeniedError(
                f"{what} needs a supervisor; {self.username} is {self.role}."
            )


def os_username() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name (e.g. a container): still record something true
        return "unknown-os-user"


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


def changed_only(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict, dict]:
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


def audit(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entity_id: int,
    *,
    before: dict | None = None,
    after: dict | None = None,
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


def actor_for(session: Session, username: str) -> Actor:
    """The staff record for a login name; unknown names act as operators."""
    user = session.query(StaffUser).filter_by(username=username, active=True).one_or_none()
    if user is None:
        return Actor(username=username, role="operator")
    return Actor(username=user.username, role=user.role, full_name=user.full_name)
