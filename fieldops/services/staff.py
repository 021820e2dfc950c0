"""Staff and their roles. The role decides who may override a block, enter
fees or correct a disposition; only an administrator changes roles."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import ROLES, StaffUser
from fieldops.errors import Collector, PermissionDeniedError
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit


@dataclass(frozen=True)
class StaffView:
    username: str
    full_name: str
    role: str
    active: bool


def list_staff(db: Database) -> tuple[StaffView, ...]:
    with db.read() as s:
        return tuple(
            StaffView(u.username, u.full_name, u.role, u.active)
            for u in s.scalars(select(StaffUser).order_by(StaffUser.username))
        )


def set_staff(
    db: Database,
    actor: Actor,
    username: str,
    role: str,
    *,
    full_name: str = "",
    active: bool = True,
) -> StaffView:
    """Add a staff member or change one's role (administrators only); audited."""
    if actor.role != "admin":
        raise PermissionDeniedError(
            f"Only an administrator may change staff; {actor.username} is {actor.role}."
        )
    c = Collector()
    username = v.clean(username)
    v.required(c, "username", username, "Login name", 100)
    c.check(role in ROLES, "role", f"Role must be one of: {', '.join(ROLES)}.")
    c.check(
        not (username == actor.username and (role != "admin" or not active)),
        "role",
        "You cannot remove your own administrator rights; ask another administrator.",
    )
    c.raise_if_any()
    with db.write() as s:
        user = s.scalars(select(StaffUser).where(StaffUser.username == username)).first()
        before = None
        if user is None:
            user = StaffUser(username=username)
            s.add(user)
        else:
            before = {"role": user.role, "full_name": user.full_name, "active": user.active}
        user.role, user.active = role, active
        user.full_name = v.clean(full_name) or user.full_name or username
        s.flush()
        audit(
            s,
            actor,
            "update" if before else "create",
            "staff_user",
            user.id,
            before=before,
            after={
                "username": username,
                "role": role,
                "full_name": user.full_name,
                "active": active,
            },
        )
        return StaffView(user.username, user.full_name, user.role, user.active)
