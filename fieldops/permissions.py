"""Who may do what: the one table that names a role, and the check every service makes.

A service declares what it needs with one line, ``@requires(Permission.INTAKE)``.
The decorator registers the service (tests/services/test_role_matrix.py calls every
registered service as every role) and, on every call:

* refuses at once, before anything is validated, when the actor's staff record
  (read from the database, never the role an ``Actor`` claims) lacks the permission;
* checks again inside every write unit of work the service opens (a SQLAlchemy
  ``after_begin`` hook, in the same transaction as the change), so a deactivated
  account or a changed role takes effect at the next save, not at the next start.

A service that takes the session of a unit of work already open (``s``/``session``)
is checked in that session.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ParamSpec, Protocol, TypeVar

from sqlalchemy import Connection, column, event, select, table
from sqlalchemy.orm import Session, SessionTransaction

from fieldops.errors import PermissionDeniedError


class Permission(StrEnum):
    RECORDS = "records"  # people, animals, vaccinations: the shared registry
    INTAKE = "intake"
    PAYMENTS = "payments"
    RELEASES = "releases"  # dispositions and kennel moves
    BITE_REPORTS = "bite_reports"
    QUARANTINES = "quarantines"
    VICIOUS_CASES = "vicious_cases"
    NOTICES = "notices"
    CALLS = "calls"
    LICENCES = "licences"  # dog licences: issue, renew, replace, transfer
    OVERRIDES = "overrides"
    CORRECTIONS = "corrections"
    FEE_SCHEDULES = "fee_schedules"
    CLINICS = "clinics"  # the register of veterinary clinics (reference data, as fees)
    REPORTS = "reports"
    ACCOUNTS = "accounts"
    SETTINGS = "settings"
    BACKUPS = "backups"
    OWN_ACCOUNT = "own_account"  # change one's own password


P = Permission
_POUND = frozenset({P.RECORDS, P.INTAKE, P.PAYMENTS, P.RELEASES, P.LICENCES, P.OWN_ACCOUNT})
_FIELD = frozenset(
    {P.RECORDS, P.BITE_REPORTS, P.QUARANTINES, P.VICIOUS_CASES, P.NOTICES, P.CALLS, P.OWN_ACCOUNT}
)

# THE table: the only place in the code a role is named.
ROLE_PERMISSIONS: dict[str, frozenset[Permission]] = {
    "operator": _POUND,
    "officer": _FIELD,
    "supervisor": _POUND
    | _FIELD
    | {P.OVERRIDES, P.CORRECTIONS, P.FEE_SCHEDULES, P.CLINICS, P.REPORTS},
    "admin": frozenset({P.ACCOUNTS, P.SETTINGS, P.BACKUPS, P.OWN_ACCOUNT}),
}
ROLES: tuple[str, ...] = tuple(ROLE_PERMISSIONS)
ROLE_LABELS = {
    "operator": "pound operator",
    "officer": "officer",
    "supervisor": "supervisor",
    "admin": "administrator",
}
# The role a new database's first account gets, and the one that manages accounts.
FIRST_ROLE = "admin"

WHAT = {
    P.RECORDS: "Changing people and animals",
    P.INTAKE: "Recording an intake",
    P.PAYMENTS: "Recording a payment",
    P.RELEASES: "Recording a release or disposition",
    P.BITE_REPORTS: "Recording a bite report",
    P.QUARANTINES: "Recording a quarantine event",
    P.VICIOUS_CASES: "Recording a vicious-animal case",
    P.NOTICES: "Serving a notice",
    P.CALLS: "Recording a call",
    P.LICENCES: "Issuing or changing a dog licence",
    P.OVERRIDES: "Overriding a block",
    P.CORRECTIONS: "Correcting a record",
    P.FEE_SCHEDULES: "Entering a fee schedule",
    P.CLINICS: "Changing the register of clinics",
    P.REPORTS: "Producing a report",
    P.ACCOUNTS: "Managing staff accounts",
    P.SETTINGS: "Changing settings",
    P.BACKUPS: "Making a backup",
    P.OWN_ACCOUNT: "Changing one's own password",
}


def permitted(role: str | None, permission: Permission) -> bool:
    """Whether a role has a permission (the UI asks this to show or hide a control)."""
    return permission in ROLE_PERMISSIONS.get(role or "", frozenset())


def roles_with(permission: Permission) -> tuple[str, ...]:
    return tuple(r for r in ROLES if permitted(r, permission))


def role_label(role: str) -> str:
    return ROLE_LABELS.get(role, role)


class HasUsername(Protocol):
    @property
    def username(self) -> str: ...


# The staff table by name: the models import this module's ROLES, so not the model.
_STAFF = table("staff_user", column("username"), column("role"), column("active"))


def _staff_row(conn: Connection | Session, username: str) -> tuple[str, bool] | None:
    row = conn.execute(
        select(_STAFF.c.role, _STAFF.c.active).where(_STAFF.c.username == username)
    ).first()
    return None if row is None else (row[0], bool(row[1]))


def current_role(session: Session | Connection, actor: HasUsername) -> str | None:
    """The actor's role as the database says now; None for no active account."""
    row = _staff_row(session, actor.username)
    return row[0] if row is not None and row[1] else None


def has_permission(session: Session | Connection, actor: HasUsername, p: Permission) -> bool:
    """Inside a unit of work: whether the actor's staff record grants ``p`` now."""
    return permitted(current_role(session, actor), p)


def authorize(session: Session | Connection, actor: HasUsername, p: Permission) -> None:
    """Refuse, in words, unless the actor's staff record (read now) grants ``p``."""
    row = _staff_row(session, actor.username)
    if row is None:
        raise PermissionDeniedError(
            f"{WHAT[p]} needs a staff account; {actor.username!r} is not one."
        )
    role, active = row
    if not active:
        raise PermissionDeniedError(
            f"{WHAT[p]} is refused: the account {actor.username!r} has been deactivated."
        )
    if not permitted(role, p):
        allowed = ", ".join(role_label(r) for r in roles_with(p)) or "no one"
        raise PermissionDeniedError(
            f"{WHAT[p]} is not part of the {role_label(role)} role ({allowed} may); "
            f"{actor.username} has the {role_label(role)} role."
        )


# --- the registry and the decorator ---------------------------------------------------

SERVICES: dict[str, Permission] = {}  # "module.function" -> what it needs


@dataclass(frozen=True)
class _Pending:
    actor: HasUsername
    permission: Permission


_PENDING: ContextVar[_Pending | None] = ContextVar("fieldops_permission", default=None)

Params = ParamSpec("Params")
R = TypeVar("R")


def requires(
    permission: Permission,
) -> Callable[[Callable[Params, R]], Callable[Params, R]]:
    """Declare (and register) what a service needs; the check is made on every call."""

    def decorate(fn: Callable[Params, R]) -> Callable[Params, R]:
        SERVICES[f"{fn.__module__}.{fn.__name__}"] = permission
        signature = inspect.signature(fn)
        if "actor" not in signature.parameters:
            raise TypeError(f"{fn.__qualname__} has no 'actor' to check")

        @functools.wraps(fn)
        def checked(*args: Params.args, **kwargs: Params.kwargs) -> R:
            given = signature.bind_partial(*args, **kwargs).arguments
            actor = given["actor"]
            session = given.get("s", given.get("session"))
            if isinstance(session, Session):
                authorize(session, actor, permission)
                return fn(*args, **kwargs)
            token = _PENDING.set(_Pending(actor, permission))
            try:
                db = given.get("db")
                if db is not None:  # refused before any field is read, in words
                    with db.read() as s:
                        authorize(s, actor, permission)
                return fn(*args, **kwargs)
            finally:
                _PENDING.reset(token)

        checked.__dict__["permission"] = permission
        return checked

    return decorate


def permission_of(fn: Any) -> Permission | None:
    found = getattr(fn, "permission", None)
    return found if isinstance(found, Permission) else None


READONLY_OPTION = "fieldops_readonly"  # fieldops.db.engine.READONLY (not imported: no cycle)


@event.listens_for(Session, "after_begin")
def _check_in_unit_of_work(
    session: Session, transaction: SessionTransaction, connection: Connection
) -> None:
    """Every write unit of work opened by a checked service checks again, inside itself."""
    pending = _PENDING.get()
    if pending is None or connection.get_execution_options().get(READONLY_OPTION):
        return
    authorize(connection, pending.actor, pending.permission)
