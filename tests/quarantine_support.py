"""Helpers for the bite-quarantine service tests: times relative to now, a clinic, a bite."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from decimal import Decimal

from fieldops.rules import Profile
from fieldops.services import quarantine as qs
from fieldops.services.context import now

PROFILE = Profile.default()


def local_today():
    return now().astimezone(PROFILE.timezone).date()


def days_ago(n: int, hour: int = 10) -> datetime:
    """An instant ``n`` local days ago at ``hour``, never in the future."""
    t = datetime.combine(local_today() - timedelta(days=n), time(hour), PROFILE.timezone)
    return min(t, now() - timedelta(minutes=1))


def day(n: int):
    return local_today() - timedelta(days=n)


def _not_after_now(at: datetime) -> datetime:
    """``at``, or now if that is sooner; a naive time (a test of its refusal) as given."""
    return at if at.tzinfo is None else min(at, now())


def bite_input(bitten_at, **kw) -> qs.BiteInput:
    """A bite at ``bitten_at``, reported 20 minutes and ordered an hour later, or now when
    that would be in the future (a bite minutes ago, just after midnight)."""
    data = {
        "place": "Tenney Park",
        "victim_name": "Jack O'Brien",
        "victim_contact": "608-555-0199",
        "reported_by": "the person bitten",
        "reported_at": _not_after_now(bitten_at + timedelta(minutes=20)),
        "officer": "Off. Dana Lee",
        "ordered_at": _not_after_now(bitten_at + timedelta(hours=1)),
    }
    data.update(kw)
    return qs.BiteInput(bitten_at=bitten_at, **data)


def exam(db, actor, qid, on, finding="no_signs", fee="45.00", vet="Dr. Kim", clinic=None):
    return qs.record_exam(
        db, actor, qid, qs.ExamInput(on, vet, finding, Decimal(fee), clinic), PROFILE
    )
