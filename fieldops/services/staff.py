"""Staff accounts and their roles. Only an administrator changes them (the
permission table, fieldops/permissions.py); an account is deactivated, never deleted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import AppSetting, StaffUser
from fieldops.errors import Collector, StaleRecordError, UserError
from fieldops.permissions import FIRST_ROLE, ROLES, Permission, requires, role_label
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit
from fieldops.services.signin import checked_hash

IDLE_LOCK_KEY = "idle_lock_minutes"
DEFAULT_IDLE_LOCK_MINUTES = 10


@dataclass(frozen=True)
class StaffView:
    username: str
    full_name: str
    role: str
    active: bool
    os_user: str | None = None
    has_password: bool = False
    must_change_password: bool = False
    locked_until: datetime | None = None
    id: int = 0  # the account's record id (its history is kept under it)
    version: int = 0  # as read: an edit sends it back (stale check)


def _view(u: StaffUser) -> StaffView:
    return StaffView(
        u.username,
        u.full_name,
        u.role,
        u.active,
        u.os_user,
        u.password_hash is not None,
        u.must_change_password,
        u.locked_until,
        u.id,
        u.version,
    )


def list_staff(db: Database) -> tuple[StaffView, ...]:
    with db.read() as s:
        return tuple(_view(u) for u in s.scalars(select(StaffUser).order_by(StaffUser.username)))


def actor_for_os_user(db: Database, login: str) -> Actor | None:
    """The active account mapped to an operating-system login; None when unmapped."""
    with db.read() as s:
        user = s.scalars(
            select(StaffUser).where(StaffUser.os_user == login, StaffUser.active.is_(True))
        ).first()
        if user is None:
            return None
        return Actor(user.username, user.role, user.full_name)


@requires(Permission.ACCOUNTS)
def set_staff(
    db: Database,
    actor: Actor,
    username: str,
    role: str,
    *,
    full_name: str = "",
    active: bool = True,
    os_user: str | None = None,
    expected_version: int | None = None,
    password: str | None = None,
) -> StaffView:
    """Add a staff account or change one's role, name, state or OS login; audited.

    ``os_user``: the computer login the account acts as on the command line
    (None leaves it as it is, "" removes the mapping). ``expected_version``: the
    account's version as the screen read it; a changed account is refused with
    ``StaleRecordError``. Saving what is already there writes nothing.
    ``password``: a password to set too (changed at the next sign-in), in the same
    unit of work: a refused one refuses the whole change, and nothing is written."""
    c = Collector()
    username = v.clean(username)
    col = StaffUser.__table__.c
    v.required(c, "username", username, "Login name", col.username)
    v.optional_len(c, "full_name", v.clean(full_name), "Name", col.full_name)
    v.optional_len(c, "os_user", v.clean(os_user), "Computer login", col.os_user)
    c.check(role in ROLES, "role", f"Role must be one of: {', '.join(ROLES)}.")
    c.check(
        not (username == actor.username and (role != FIRST_ROLE or not active)),
        "role",
        f"You cannot remove your own {role_label(FIRST_ROLE)} rights; ask another "
        f"{role_label(FIRST_ROLE)}.",
    )
    mapped = v.clean(os_user) or None
    c.check(
        mapped is None or len((os_user or "").split()) == 1,
        "os_user",
        "A computer login has no spaces or tabs in it.",
    )
    c.raise_if_any()
    hashed = None if password is None else checked_hash("password", password)
    with db.write() as s:
        user = s.scalars(
            select(StaffUser).where(StaffUser.username == username).with_for_update()
        ).first()
        if mapped is not None:
            other = s.scalars(
                select(StaffUser).where(StaffUser.os_user == mapped, StaffUser.username != username)
            ).first()
            if other is not None:
                raise UserError(
                    f"The computer login {mapped!r} is already mapped to {other.username}."
                )
        before = None
        if user is None:
            user = StaffUser(username=username)
            s.add(user)
        elif expected_version is not None and user.version != expected_version:
            raise StaleRecordError(
                f"The account {username} was changed by someone else since this list was "
                "read: nothing was saved. Look at it again and repeat the change if needed."
            )
        else:
            before = {
                "role": user.role,
                "full_name": user.full_name,
                "active": user.active,
                "os_user": user.os_user,
            }
        user.role, user.active = role, active
        user.full_name = v.clean(full_name) or user.full_name or username
        if os_user is not None:
            user.os_user = mapped
        s.flush()
        after = {
            "username": username,
            "role": role,
            "full_name": user.full_name,
            "active": active,
            "os_user": user.os_user,
        }
        if before is None or before != {k: after[k] for k in before}:
            action = "update" if before else "create"
            audit(s, actor, action, "staff_user", user.id, before=before, after=after)
        # (else nothing changed: no event, no new version)
        if hashed is not None:
            user.password_hash, user.must_change_password = hashed, True
            s.flush()
            audit(s, actor, "password_reset", "staff_user", user.id)
        return _view(user)


def idle_lock_minutes(db: Database) -> int:
    """Minutes without input after which the window locks (0: never)."""
    with db.read() as s:
        row = s.get(AppSetting, IDLE_LOCK_KEY)
    try:
        return int(row.value) if row is not None else DEFAULT_IDLE_LOCK_MINUTES
    except ValueError:
        return DEFAULT_IDLE_LOCK_MINUTES


@requires(Permission.SETTINGS)
def set_idle_lock_minutes(db: Database, actor: Actor, minutes: int) -> int:
    if not 0 <= minutes <= 240:
        raise UserError("The idle lock must be between 0 (never) and 240 minutes.")
    with db.write() as s:
        row = s.get(AppSetting, IDLE_LOCK_KEY)
        before = None if row is None else {"value": row.value}
        if row is not None and row.value == str(minutes):
            return minutes  # unchanged: nothing written
        if row is None:
            row = AppSetting(key=IDLE_LOCK_KEY, value="")
            s.add(row)
        row.value = str(minutes)
        audit(s, actor, "update", "app_setting", 0, before=before, after={IDLE_LOCK_KEY: minutes})
    return minutes
