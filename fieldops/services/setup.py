"""Opening a database for use: resolve, migrate, and know who is acting."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from fieldops.db.engine import Database, resolve_url
from fieldops.db.migrate import UpgradeResult, upgrade
from fieldops.db.models import StaffUser
from fieldops.services.context import Actor, actor_for, audit, os_username


@dataclass(frozen=True)
class OpenedDatabase:
    db: Database
    upgrade: UpgradeResult


def open_database(db_arg: str | None = None) -> OpenedDatabase:
    """Open (creating on first use) and upgrade the database; SchemaTooNewError if it is newer."""
    url = resolve_url(db_arg)
    db = Database(url)
    try:
        result = upgrade(db.engine, url)
    except Exception:
        db.dispose()
        raise
    return OpenedDatabase(db, result)


def sign_in_os_user(db: Database) -> Actor:
    """The operating-system user as an actor.

    On a database with no staff yet, the first person to open it becomes its
    administrator (someone has to be able to add the others); the creation is
    audited like any change.
    """
    username = os_username()
    with db.write() as s:
        if s.execute(select(func.count()).select_from(StaffUser)).scalar_one() == 0:
            user = StaffUser(username=username, full_name=username, role="admin")
            s.add(user)
            s.flush()
            audit(s, Actor(username, "admin"), "create", "staff_user", user.id,
                  after={"username": username, "role": "admin"},
                  reason="first user of a new database")
        return actor_for(s, username)
