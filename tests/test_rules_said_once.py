"""Ordinance facts are decided in fieldops.rules and carried by the view objects, never re-derived
in the screens (issue: "Rules said once")."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import local

from fieldops.rules import Profile, impound_hold
from fieldops.rules.impound import no_claim_period
from fieldops.rules.release import RELEASE_KINDS, licence_agreement_accepted, release_kind

UI = Path(__file__).resolve().parents[1] / "ui"

# What a screen must not spell out itself, and where the fact lives instead.
RE_DERIVED = {
    '("reclaimed", "adopted")': "fieldops.rules.release.RELEASE_KINDS",
    '"Adoptable"': "ImpoundView.status_code (a status chip reads the code, not the word)",
    "surrendered and": "ImpoundHold.no_claim_period, carried as ImpoundView.no_claim_period",
    'species == "dog"': "the requirement codes the release check returns",
    'in ("dog", "cat")': "the requirement codes the release check returns",
    "profile.bite_hold_days if": "ImpoundHold.hold_days, carried as ImpoundView.hold_days",
}


def test_no_screen_re_derives_an_ordinance_fact():
    found = [
        f"{path.relative_to(UI.parent)}:{n}: {text!r} (use {where})"
        for path in sorted(UI.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for text, where in RE_DERIVED.items()
        if text in line
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("surrendered", "bit", "expected"),
    [(True, False, True), (True, True, False), (False, False, False), (False, True, False)],
)
def test_no_claim_period_only_after_a_surrender_of_an_animal_that_bit_no_one(
    surrendered, bit, expected
):
    profile = Profile.default()
    hold = impound_hold(local(2026, 11, 2, 9), profile, bit_person=bit, surrendered=surrendered)
    assert no_claim_period(surrendered=surrendered, bit_person=bit) is expected
    assert hold.no_claim_period is expected
    assert (hold.hold_days == 0) is expected


def test_release_kinds_are_the_rules():
    assert RELEASE_KINDS == ("reclaimed", "adopted")
    assert (release_kind(True), release_kind(False)) == ("reclaimed", "adopted")
    assert not licence_agreement_accepted(True) and licence_agreement_accepted(False)
