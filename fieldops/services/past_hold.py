"""Held past the hold: an animal in custody whose hold ended before the day and that
did not become free to go to others during it.

What Today's pound items (``fieldops.services.pound``) count above the cap and the
impounds list's "held past the hold" filter (``fieldops.services.impound_list``)
lists: one statement, so that the line's count and the list it opens agree.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, not_
from sqlalchemy.sql.elements import SQLCoreOperations

from fieldops.db.models import Impoundment
from fieldops.rules import Profile, start_of_local_day


def held_past_hold(
    day: Any,
    start: Any,
    start_next: Any,
    last_claim_day: SQLCoreOperations[date] = Impoundment.last_claim_day,
) -> list[ColumnElement[bool]]:
    """Of the animals in custody, one held past its hold on local ``day``, which runs from
    ``start`` to ``start_next``: its owner's claim period ended before the day, and it
    did not become free to go to others during the day (the hold the rules computed at
    intake, ``impound_hold``; a surrendered animal's claim period is its custody day).

    The one statement of it: Today's items, their count line and the impounds list's
    filter (``fieldops.services.impound_list``) all use it; the list may pass its
    ``last_claim_day`` hidden from SQLite's index chooser, to walk its sort's index."""
    others = Impoundment.release_to_others_from
    return [
        last_claim_day < day,
        not_(and_(others >= start, others < start_next)),
    ]


def held_past_hold_params(day: date, profile: Profile) -> dict[str, Any]:
    """The parameters of ``held_past_hold`` for local ``day``."""
    return {
        "day": day,
        "start": start_of_local_day(day, profile),
        "start_next": start_of_local_day(day + timedelta(days=1), profile),
    }
