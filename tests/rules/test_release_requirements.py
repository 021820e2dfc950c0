"""Release requirements as data (58-526(b); blocks from 58-527 and 58-524; RULES.md section 2)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import ReleaseFacts, impound_hold, release_requirements, unmet

CHICAGO = ZoneInfo("America/Chicago")


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


@pytest.fixture
def hold(profile):
    return impound_hold(L(2026, 3, 2, 10, 15), profile)  # claim until Mon 9 Mar


AFTER_HOLD = L(2026, 3, 10, 9)
DURING_HOLD = L(2026, 3, 4, 9)

COMPLETE_OWNER = ReleaseFacts(
    species="dog", name_and_address=True, rabies_certificate=True, licensed=True, fees_paid=True
)


def codes(reqs):
    return [r.code for r in reqs]


def by_code(reqs):
    return {r.code: r for r in reqs}


def test_owner_dog_with_everything(profile, hold):
    reqs = release_requirements(True, COMPLETE_OWNER, hold, DURING_HOLD, profile)
    assert codes(reqs) == [
        "name_address",
        "rabies",
        "licence",
        "fees_paid",
        "no_open_quarantine",
        "not_vicious",
    ]
    assert unmet(reqs) == ()


def test_owner_needs_no_end_of_hold(profile, hold):
    # The owner may reclaim at any time before a final disposition.
    reqs = release_requirements(True, COMPLETE_OWNER, hold, L(2026, 3, 2, 11), profile)
    assert "hold_ended" not in codes(reqs)
    assert unmet(reqs) == ()


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        (
            ReleaseFacts("dog", False, rabies_certificate=True, licensed=True, fees_paid=True),
            ["name_address"],
        ),
        (ReleaseFacts("dog", True, licensed=True, fees_paid=True), ["rabies"]),
        (ReleaseFacts("dog", True, rabies_prepaid_receipt=True, licensed=True, fees_paid=True), []),
        (ReleaseFacts("dog", True, rabies_certificate=True, fees_paid=True), ["licence"]),
        (
            ReleaseFacts(
                "dog", True, rabies_certificate=True, licence_receipt=True, fees_paid=True
            ),
            [],
        ),
        # an agreement to license is for non-owners; an owner needs the receipt:
        (
            ReleaseFacts(
                "dog", True, rabies_certificate=True, licence_agreement=True, fees_paid=True
            ),
            ["licence"],
        ),
        (ReleaseFacts("dog", True, rabies_certificate=True, licensed=True), ["fees_paid"]),
        (ReleaseFacts("cat", True, fees_paid=True), ["rabies"]),
        (ReleaseFacts("cat", True, rabies_certificate=True, fees_paid=True), []),
        (ReleaseFacts("rabbit", True, fees_paid=True), []),
        (ReleaseFacts("Dog", True), ["rabies", "licence", "fees_paid"]),
    ],
)
def test_owner_requirements(profile, hold, facts, missing):
    reqs = release_requirements(True, facts, hold, DURING_HOLD, profile)
    assert codes(unmet(reqs)) == missing
    for r in unmet(reqs):
        assert r.detail, r.code
        assert not r.overridable


def test_owner_requirement_labels_and_sections(profile, hold):
    reqs = by_code(
        release_requirements(True, ReleaseFacts("dog", True), hold, DURING_HOLD, profile)
    )
    assert reqs["rabies"].label == (
        "Proof of rabies vaccination or a veterinarian's receipt for prepaid vaccination"
    )
    assert reqs["name_address"].section == "58-526(b)(1)a"
    assert reqs["rabies"].section.startswith("58-526(b)(1)b")
    assert reqs["licence"].section.startswith("58-526(b)(1)c")
    assert reqs["fees_paid"].section.startswith("58-526(b)(1)d")


def test_cat_and_other_species_have_no_licence_requirement(profile, hold):
    assert "licence" not in codes(
        release_requirements(True, ReleaseFacts("cat", True), hold, DURING_HOLD, profile)
    )
    other = release_requirements(False, ReleaseFacts("ferret", True), hold, AFTER_HOLD, profile)
    assert "licence" not in codes(other) and "rabies" not in codes(other)


def test_non_owner_waits_for_the_hold(profile, hold):
    facts = ReleaseFacts(
        "dog", True, rabies_prepaid_receipt=True, licence_agreement=True, fees_paid=True
    )
    during = release_requirements(False, facts, hold, DURING_HOLD, profile)
    assert codes(during)[0] == "hold_ended"
    assert codes(unmet(during)) == ["hold_ended"]
    detail = unmet(during)[0].detail
    assert "Mon 9 Mar 2026" in detail and "Tue 10 Mar 2026 12:00 AM CDT" in detail
    assert unmet(release_requirements(False, facts, hold, L(2026, 3, 9, 23, 59), profile))
    assert unmet(release_requirements(False, facts, hold, L(2026, 3, 10, 0, 0), profile)) == ()


@pytest.mark.parametrize(
    ("facts", "missing"),
    [
        (
            ReleaseFacts(
                "dog", True, rabies_prepaid_receipt=True, licence_agreement=True, fees_paid=True
            ),
            [],
        ),
        # shown to be vaccinated / licensed: no receipt or agreement needed
        (ReleaseFacts("dog", True, rabies_certificate=True, licensed=True, fees_paid=True), []),
        (ReleaseFacts("dog", True, rabies_prepaid_receipt=True, fees_paid=True), ["licence"]),
        (ReleaseFacts("dog", True, licence_agreement=True, fees_paid=True), ["rabies"]),
        (
            ReleaseFacts("dog", False, rabies_prepaid_receipt=True, licence_agreement=True),
            ["name_address", "fees_paid"],
        ),
        (ReleaseFacts("cat", True, fees_paid=True), ["rabies"]),
        (ReleaseFacts("cat", True, rabies_prepaid_receipt=True, fees_paid=True), []),
    ],
)
def test_non_owner_requirements(profile, hold, facts, missing):
    reqs = release_requirements(False, facts, hold, AFTER_HOLD, profile)
    assert codes(unmet(reqs)) == missing
    sections = by_code(reqs)
    assert sections["name_address"].section.startswith("58-526(b)(2)b")
    assert sections["hold_ended"].section.startswith("58-526(b)(2)a")


def test_surrendered_animal_may_go_to_others_at_once(profile):
    hold = impound_hold(L(2026, 3, 2, 10, 15), profile, surrendered=True)
    facts = ReleaseFacts("cat", True, rabies_prepaid_receipt=True, fees_paid=True)
    assert unmet(release_requirements(False, facts, hold, L(2026, 3, 2, 10, 30), profile)) == ()


@pytest.mark.parametrize("to_owner", [True, False])
def test_open_quarantine_blocks_any_release_and_is_overridable(profile, hold, to_owner):
    facts = ReleaseFacts(
        "dog", True, rabies_certificate=True, licensed=True, fees_paid=True, open_quarantine=True
    )
    missing = unmet(release_requirements(to_owner, facts, hold, AFTER_HOLD, profile))
    assert codes(missing) == ["no_open_quarantine"]
    assert missing[0].overridable
    assert "58-527" in missing[0].section


def test_vicious_animal_is_not_released_into_the_city(profile, hold):
    facts = ReleaseFacts(
        "dog", True, rabies_certificate=True, licensed=True, fees_paid=True, declared_vicious=True
    )
    missing = unmet(release_requirements(True, facts, hold, AFTER_HOLD, profile))
    assert codes(missing) == ["not_vicious"] and missing[0].overridable
    assert "58-524" in missing[0].section
    outside = ReleaseFacts(
        "dog",
        True,
        rabies_certificate=True,
        licensed=True,
        fees_paid=True,
        declared_vicious=True,
        recipient_in_city=False,
    )
    assert unmet(release_requirements(True, outside, hold, AFTER_HOLD, profile)) == ()


def test_only_the_blocks_are_overridable(profile, hold):
    for to_owner in (True, False):
        reqs = release_requirements(to_owner, ReleaseFacts("dog", False), hold, AFTER_HOLD, profile)
        assert {r.code for r in reqs if r.overridable} == {"no_open_quarantine", "not_vicious"}


def test_naive_at_raises(profile, hold):
    with pytest.raises(ValueError):
        release_requirements(True, COMPLETE_OWNER, hold, datetime(2026, 3, 4, 9), profile)
