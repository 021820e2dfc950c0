"""The example jurisdiction profiles shipped with the app are profiles the app reads."""

from __future__ import annotations

import pytest

from fieldops import resources
from fieldops.rules import Profile

EXAMPLES = resources.example_profiles()


def test_the_city_and_the_two_other_towns_are_there():
    assert {"city", "dodgeville", "village"} <= set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_profile_parses(name):
    profile = Profile.from_toml(EXAMPLES[name])
    assert profile.name.strip()
    assert profile.timezone.key == "America/Chicago"  # all three are in Wisconsin


def test_the_city_example_says_what_the_shipped_default_says():
    assert Profile.from_toml(EXAMPLES["city"]) == Profile.default()


def test_each_town_is_its_own_jurisdiction():
    names = [Profile.from_toml(text).name for text in EXAMPLES.values()]
    assert len(set(names)) == len(names)
    assert Profile.from_toml(EXAMPLES["dodgeville"]).name == "City of Dodgeville"
