"""Staff accounts for tests: services read the actor's role from the database."""

from __future__ import annotations

from fieldops.db.engine import Database
from fieldops.services.context import Actor


def enrol(database: Database, actor: Actor, *, active: bool = True) -> Actor:
    """Give ``actor`` an active staff account with its role (services read the role there)."""
    from fieldops.db.models import StaffUser
    from fieldops.services.context import audit

    with database.write() as s:
        user = s.query(StaffUser).filter_by(username=actor.username).one_or_none()
        if user is None:
            user = StaffUser(
                username=actor.username,
                full_name=actor.full_name or actor.username,
                role=actor.role,
                active=active,
            )
            s.add(user)
            s.flush()
            # Audited as the staff service audits an account, so fieldops check finds the
            # test's accounts made through the app, not behind its back.
            after = {
                "username": user.username,
                "role": user.role,
                "full_name": user.full_name,
                "active": user.active,
                "os_user": user.os_user,
            }
            audit(s, actor, "create", "staff_user", user.id, after=after)
    return actor


def login_as_demo_supervisor(path) -> None:
    """Map this computer login to the demo's supervisor instead of its administrator:
    record reports are a supervisor's (issue 12), and ``fieldops demo`` maps the login
    that ran it to the demo administrator. Done as that administrator, through the
    staff service (so it is audited, as an administrator would do it)."""
    from fieldops.db.engine import Database
    from fieldops.services.context import os_username
    from fieldops.services.staff import actor_for_os_user, set_staff

    db = Database(f"sqlite:///{path}")
    try:
        login = os_username()
        admin = actor_for_os_user(db, login)
        assert admin is not None and admin.username == "demo-admin"
        set_staff(db, admin, "demo-admin", "admin", os_user="")
        set_staff(db, admin, "demo-supervisor", "supervisor", os_user=login)
    finally:
        db.dispose()
