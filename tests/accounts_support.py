"""Staff accounts for tests: services read the actor's role from the database."""

from __future__ import annotations

from fieldops.db.engine import Database
from fieldops.services.context import Actor


def enrol(database: Database, actor: Actor, *, active: bool = True) -> Actor:
    """Give ``actor`` an active staff account with its role (services read the role there)."""
    from fieldops.db.models import StaffUser

    with database.write() as s:
        user = s.query(StaffUser).filter_by(username=actor.username).one_or_none()
        if user is None:
            s.add(
                StaffUser(
                    username=actor.username,
                    full_name=actor.full_name or actor.username,
                    role=actor.role,
                    active=active,
                )
            )
    return actor
