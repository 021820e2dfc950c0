"""Boarding for a clinic quarantine at the pound (58-527(c), (e); RULES.md sections 2, 3)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from fieldops.rules import Profile
from fieldops.rules.quarantine import quarantine_boarding

P = Profile.default()


def at(d: int, h: int = 10) -> datetime:
    return datetime(2026, 3, d, h, tzinfo=P.timezone)


def test_days_are_counted_as_the_pound_counts_them_at_the_species_rate():
    b = quarantine_boarding(at(1, 23), at(11, 1), "dog", P)
    assert (b.days, b.per_day, b.amount) == (10, Decimal("15.00"), Decimal("150.00"))
    assert "58-527" in b.why
    assert quarantine_boarding(at(1, 9), at(1, 17), "Cat", P).amount == Decimal("12.00")


def test_days_already_boarded_under_an_impoundment_are_not_charged_again():
    b = quarantine_boarding(at(1), at(11), "dog", P, [(at(8), None)])
    assert b.days == 7 and "already charged" in b.why
    assert quarantine_boarding(at(1), at(11), "dog", P, [(at(1, 9), at(11, 9))]).amount == 0
    assert quarantine_boarding(at(1), at(11), "dog", P, [(at(3), at(5))]).days == 8
