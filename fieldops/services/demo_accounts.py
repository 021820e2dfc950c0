"""``fieldops demo``'s staff: one account per role, with random passwords said once.

On a new database (no administrator yet) the demo's administrator is mapped to the
operating-system login that ran the command, so that login can go on managing staff
from the command line; the demo records themselves are written by the demo
supervisor, whose role covers both the pound's and the officers' work.
"""

from __future__ import annotations

from dataclasses import dataclass

from fieldops.db.engine import Database
from fieldops.errors import UserError
from fieldops.permissions import FIRST_ROLE, ROLES, Permission, authorize, roles_with
from fieldops.services.context import Actor
from fieldops.services.signin import (
    create_first_admin,
    needs_first_admin,
    set_password,
    temporary_password,
)
from fieldops.services.staff import list_staff, set_staff

PREFIX = "demo-"


@dataclass(frozen=True)
class DemoStaff:
    writer: Actor  # who the demo records are written by
    passwords: dict[str, str]  # new accounts only: login -> password, to print once


def demo_username(role: str) -> str:
    return PREFIX + role


def ensure_demo_staff(db: Database, caller: Actor | None, os_login: str) -> DemoStaff:
    """The demo accounts, created when missing. ``caller``: the mapped account running
    the command (None: the login is mapped to no account)."""
    passwords: dict[str, str] = {}
    admin = caller
    if needs_first_admin(db):
        if list_staff(db) and caller is None:
            raise UserError(
                f"The computer login {os_login!r} is not mapped to a staff account of this "
                "database; an administrator must run the demo."
            )
        pw = temporary_password()
        name = demo_username(FIRST_ROLE)
        admin = create_first_admin(db, name, "Demo Administrator", pw, os_user=os_login)
        passwords[name] = pw
    if admin is None:
        raise UserError(
            f"The computer login {os_login!r} is not mapped to a staff account of this "
            "database; an administrator must run the demo."
        )
    if not passwords:  # an existing database: only an administrator adds the demo
        with db.read() as s:
            authorize(s, admin, Permission.ACCOUNTS)
    existing = {u.username for u in list_staff(db)}
    for role in ROLES:
        name = demo_username(role)
        if name in existing or name in passwords:
            continue
        set_staff(db, admin, name, role, full_name=f"Demo {role.capitalize()}")
        pw = temporary_password()
        set_password(db, admin, name, pw, must_change=False)
        passwords[name] = pw
    writer_role = next(r for r in roles_with(Permission.OVERRIDES) if r != FIRST_ROLE)
    writer = Actor(demo_username(writer_role), writer_role, f"Demo {writer_role.capitalize()}")
    return DemoStaff(writer, passwords)
