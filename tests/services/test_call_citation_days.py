"""A citation's days are the city's days (58-534(b); RULES.md section 1): an offence is never
cited, corrected or paid for a day still to come there, even in the evening when the UTC
date is already tomorrow; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from fieldops.errors import ValidationError
from fieldops.services.calls import citations
from fieldops.services.calls.citation_corrections import CitationCorrection, correct_citation
from fieldops.services.calls.citations import CitationInput, cite, update_citation

# 8 pm in the city on Tuesday 10 March 2026: 01:00 on 11 March in UTC.
EVENING = datetime(2026, 3, 11, 1, 0, tzinfo=UTC)
TODAY = date(2026, 3, 10)


@pytest.fixture
def evening(monkeypatch, profile):
    assert EVENING.astimezone(profile.timezone).date() == TODAY
    monkeypatch.setattr(citations, "now", lambda: EVENING)


def _cite(db, officer, owner, profile, *days: date):
    return cite(db, officer, CitationInput(owner.id, "58-531", days, "Off. Lee"), profile)


def test_no_citation_for_the_citys_tomorrow_in_the_evening(db, officer, owner, profile, evening):
    for ahead in (1, 2):
        with pytest.raises(ValidationError) as e:
            _cite(db, officer, owner, profile, TODAY + timedelta(days=ahead))
        assert set(e.value.by_field()) == {"days"}
    (today,) = _cite(db, officer, owner, profile, TODAY)
    assert today.offence_on == TODAY


def test_no_correction_to_the_citys_tomorrow(db, officer, owner, profile, evening):
    (t,) = _cite(db, officer, owner, profile, TODAY - timedelta(days=1))
    with pytest.raises(ValidationError) as e:
        correct_citation(
            db,
            officer,
            t.id,
            t.version,
            CitationCorrection(owner.id, "58-531", TODAY + timedelta(days=1)),
            "Wrong day",
            profile,
        )
    assert set(e.value.by_field()) == {"offence_on"}


def test_no_payment_on_the_citys_tomorrow(db, officer, owner, profile, evening):
    (t,) = _cite(db, officer, owner, profile, TODAY - timedelta(days=1))
    with pytest.raises(ValidationError) as e:
        update_citation(
            db,
            officer,
            t.id,
            t.version,
            court_on=None,
            paid_on=TODAY + timedelta(days=1),
            profile=profile,
        )
    assert set(e.value.by_field()) == {"paid_on"}
    paid = update_citation(
        db, officer, t.id, t.version, court_on=None, paid_on=TODAY, profile=profile
    )
    assert paid.paid_on == TODAY


def test_no_payment_before_the_day_of_the_offence(db, officer, owner, profile):
    day = datetime.now(profile.timezone).date() - timedelta(days=2)
    (t,) = _cite(db, officer, owner, profile, day)
    for paid in (date(2000, 1, 1), day - timedelta(days=1)):
        with pytest.raises(ValidationError) as e:
            update_citation(db, officer, t.id, t.version, court_on=None, paid_on=paid)
        assert set(e.value.by_field()) == {"paid_on"}
    assert update_citation(db, officer, t.id, t.version, court_on=None, paid_on=day).paid_on == day


def test_no_correction_of_the_offence_day_past_the_day_it_was_paid(db, officer, owner, profile):
    day = datetime.now(profile.timezone).date() - timedelta(days=10)
    (t,) = _cite(db, officer, owner, profile, day)
    t = update_citation(
        db, officer, t.id, t.version, court_on=None, paid_on=day + timedelta(days=1)
    )
    for moved in (day + timedelta(days=2), day + timedelta(days=7)):  # same forfeiture
        with pytest.raises(ValidationError) as e:
            correct_citation(
                db,
                officer,
                t.id,
                t.version,
                CitationCorrection(owner.id, "58-531", moved),
                "Wrong day",
                profile,
            )
        assert set(e.value.by_field()) == {"offence_on"}
    fixed = correct_citation(
        db,
        officer,
        t.id,
        t.version,
        CitationCorrection(owner.id, "58-531", day + timedelta(days=1)),  # the day paid
        "Wrong day",
        profile,
    )
    assert fixed.offence_on == fixed.paid_on
