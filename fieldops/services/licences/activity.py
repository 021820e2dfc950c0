"""The dog licences' part of the activity summary: licences issued in the period (at the
counter or with a release from the pound), the late ones among them, and what was paid for
them, beside the same period a year earlier. A voided licence is neither counted nor summed,
as the register marks it void."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import case, func, select

from fieldops.db.engine import Database
from fieldops.db.models import DogLicence
from fieldops.modules import ActivityFigure, ActivitySection, year_earlier
from fieldops.rules import Profile
from fieldops.rules.calendar import start_of_local_day


def _figures(db: Database, start: date, end: date, profile: Profile) -> tuple[int, int, Decimal]:
    lo = start_of_local_day(start, profile)
    hi = start_of_local_day(end + timedelta(days=1), profile)
    with db.read() as s:
        issued, late, paid = s.execute(
            select(
                func.count(),
                func.coalesce(func.sum(case((DogLicence.late.is_(True), 1), else_=0)), 0),
                func.coalesce(func.sum(DogLicence.paid_amount), 0),
            ).where(
                DogLicence.issued_at >= lo,
                DogLicence.issued_at < hi,
                DogLicence.status != "void",
            )
        ).one()
    return int(issued), int(late), Decimal(paid).quantize(Decimal("0.01"))


def activity(
    db: Database, start: date, end: date, profile: Profile | None = None
) -> tuple[ActivitySection, ...]:
    profile = profile or Profile.default()
    now_ = _figures(db, start, end, profile)
    then = _figures(db, year_earlier(start), year_earlier(end), profile)
    labels = (
        "Licences issued (voided ones left out)",
        "Of them, with the late fee",
        "Paid for them, at the counter and at the pound",
    )
    return (
        ActivitySection(
            "Dog licences (58-533(c))",
            tuple(
                ActivityFigure(label, a, b) for label, a, b in zip(labels, now_, then, strict=True)
            ),
        ),
    )
