"""The vicious-animal part of the activity summary (issue 11): declarations and refusals,
notices served in person or posted, and compliance, each for the period and the same period
a year earlier, counted in SQL: three statements whatever the period's length."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.orm import Mapped

from fieldops.db.engine import Database
from fieldops.db.models import ViciousDeclaration, ViciousNotice, ViciousOutcome
from fieldops.modules import ActivityFigure, ActivitySection, year_earlier
from fieldops.rules import Profile, start_of_local_day


def _bounds(start: date, end: date, profile: Profile) -> tuple[datetime, datetime]:
    return (
        start_of_local_day(start, profile),
        start_of_local_day(end + timedelta(days=1), profile),
    )


def _count(
    when: Mapped[datetime], lo: datetime, hi: datetime, also: ColumnElement[bool]
) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((and_(when >= lo, when < hi, also), 1), else_=0)), 0)


def activity(
    db: Database, start: date, end: date, profile: Profile | None = None
) -> tuple[ActivitySection, ...]:
    """The module's sections: each figure this period and a year earlier (local days of
    ``profile``; the seam passes none, so the city's own, as the command line uses)."""
    profile = profile or Profile.default()
    now_ = _bounds(start, end, profile)
    then = _bounds(year_earlier(start), year_earlier(end), profile)
    periods = (now_, then)
    earliest = min(p[0] for p in periods)
    latest = max(p[1] for p in periods)
    d, n, o = ViciousDeclaration, ViciousNotice, ViciousOutcome
    with db.read() as s:
        conn = s.connection()
        decl = conn.execute(
            select(
                *(
                    col
                    for lo, hi in periods
                    for col in (
                        _count(d.decided_at, lo, hi, d.allowed.is_(True)),
                        _count(d.decided_at, lo, hi, d.allowed.is_(False)),
                    )
                )
            ).where(d.decided_at >= earliest, d.decided_at < latest)
        ).one()
        notices = conn.execute(
            select(
                *(
                    col
                    for lo, hi in periods
                    for col in (
                        _count(n.served_at, lo, hi, n.method == "in_person"),
                        _count(n.served_at, lo, hi, n.method == "posted"),
                    )
                )
            ).where(n.served_at >= earliest, n.served_at < latest)
        ).one()
        kinds = ("destroyed", "removed", "not_complied")
        outcomes = conn.execute(
            select(*(_count(o.at, lo, hi, o.kind == k) for lo, hi in periods for k in kinds)).where(
                o.at >= earliest, o.at < latest
            )
        ).one()

    def fig(label: str, row: Sequence[int], i: int, per: int) -> ActivityFigure:
        return ActivityFigure(label, int(row[i]), int(row[per + i]))

    destroyed, removed, not_complied = (fig(k, outcomes, i, 3) for i, k in enumerate(kinds))
    return (
        ActivitySection(
            "Vicious-animal declarations (58-524(a))",
            (fig("Declared vicious", decl, 0, 2), fig("Refused: an exception applies", decl, 1, 2)),
        ),
        ActivitySection(
            "Notices to destroy or remove (58-524(c)(2))",
            (
                fig("Served in person", notices, 0, 2),
                fig("Posted after the owner refused", notices, 1, 2),
            ),
            chart=True,
        ),
        ActivitySection(
            "Compliance with notices",
            (
                ActivityFigure(
                    "Complied",
                    destroyed.value + removed.value,
                    destroyed.year_earlier + removed.year_earlier,
                ),
                ActivityFigure("Complied: destroyed", destroyed.value, destroyed.year_earlier),
                ActivityFigure(
                    "Complied: removed from the city", removed.value, removed.year_earlier
                ),
                ActivityFigure("Not complied", not_complied.value, not_complied.year_earlier),
            ),
            chart=True,
        ),
    )
