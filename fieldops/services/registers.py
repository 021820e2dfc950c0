"""Data for the supervisor's record reports (city code 58-528)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import Impoundment
from fieldops.errors import Collector
from fieldops.rules import Profile
from fieldops.services.context import now
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import build_view

MAX_PERIOD_DAYS = 366


def impound_register_views(db: Database, period_start: date, period_end: date, profile: Profile,
                           at: datetime | None = None) -> tuple[ImpoundView, ...]:
    """Every impoundment whose custody day falls in the period, as the register prints it."""
    c = Collector()
    c.check(period_end >= period_start, "period_end", "The period cannot end before it starts.")
    c.check((period_end - period_start).days < MAX_PERIOD_DAYS, "period_end",
            "Print at most a year at a time.")
    c.raise_if_any()
    at = at or now()
    with db.read() as s:
        imps = s.scalars(
            select(Impoundment)
            .where(Impoundment.custody_day >= period_start, Impoundment.custody_day <= period_end)
            .order_by(Impoundment.impounded_at, Impoundment.id)
        ).all()
        return tuple(build_view(s, imp, profile, at) for imp in imps)
