"""What every page and dialog needs: the database, who is acting, and the plumbing.

Built once by ``ui.app``; tests build their own with a fixed ``today`` and a
non-interactive error router.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo

from PySide6.QtCore import QObject, Signal

from fieldops.db.engine import Database
from fieldops.rules import Profile
from fieldops.services.context import Actor
from ui.errors import ErrorRouter
from ui.tasks import TaskRunner


def utc_now() -> datetime:
    return datetime.now(UTC)


class ChangeBus(QObject):
    """One "something changed" signal (as Anki's): views listen and refresh.

    ``changed(entity, id)``: entity is the audit entity name ("person",
    "animal", later "impound" ...); id 0 means "many records".
    """

    changed = Signal(str, int)


@dataclass
class AppContext:
    db: Database
    actor: Actor
    tasks: TaskRunner
    errors: ErrorRouter
    today: Callable[[], date]
    timezone: tzinfo
    jurisdiction: str = "FieldOps"
    bus: ChangeBus = field(default_factory=ChangeBus)
    # The ordinance's periods and fees, and the clock that statuses and fee
    # quotes are computed at; tests fix both, as they fix ``today``.
    profile: Profile = field(default_factory=Profile.default)
    now: Callable[[], datetime] = utc_now

    def local_time(self, instant: datetime) -> datetime:
        return instant.astimezone(self.timezone)

    def shutdown(self) -> None:
        self.tasks.shutdown()
