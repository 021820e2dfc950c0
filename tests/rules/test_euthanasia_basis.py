"""Which basis allows a humane destruction when (58-526(c); Wis. Stat. 173.23(4); RULES.md s. 2)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import impound_hold
from fieldops.rules.release import EUTHANASIA_BASES, euthanasia_allowed, euthanasia_needs_finding

CHICAGO = ZoneInfo("America/Chicago")


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


def test_the_bases_are_the_hold_or_a_finding():
    assert set(EUTHANASIA_BASES) == {"hold_ended", "hopelessly_injured", "imminent_threat"}
    assert not euthanasia_needs_finding("hold_ended")
    assert euthanasia_needs_finding("hopelessly_injured")
    assert euthanasia_needs_finding("imminent_threat")


def test_hold_ended_is_allowed_only_from_the_start_of_the_day_after_the_last_claim_day(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)  # owner may claim until Mon 9 Mar
    early = euthanasia_allowed("hold_ended", hold, L(2026, 3, 9, 23, 59), profile)
    assert not early.satisfied and early.code == "destruction_allowed"
    assert "Tue 10 Mar 2026" in early.detail and "173.23(4)" in early.section
    assert euthanasia_allowed("hold_ended", hold, L(2026, 3, 10, 0), profile).satisfied


@pytest.mark.parametrize("basis", ["hopelessly_injured", "imminent_threat"])
def test_a_finding_allows_it_during_the_hold(profile, basis):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    req = euthanasia_allowed(basis, hold, L(2026, 3, 3, 9), profile)
    assert req.satisfied and req.detail == ""


@pytest.mark.parametrize("basis", ["", "HOLD_ENDED", "owner asked"])
def test_an_unknown_basis_is_never_allowed(profile, basis):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    req = euthanasia_allowed(basis, hold, L(2026, 4, 1, 9), profile)
    assert not req.satisfied and req.detail


def test_a_naive_time_is_refused(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile)
    with pytest.raises(ValueError):
        euthanasia_allowed("hold_ended", hold, datetime(2026, 3, 12), profile)
