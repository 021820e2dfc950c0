"""Profiles' [licence], [permits.*], [penalties.*] and the shipped towns' profiles (RULES.md 7-8)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from importlib import resources

import pytest

from fieldops.rules import ChickenRules, FancierRules, Profile
from fieldops.rules.profile_local import (
    CITY_CHICKENS,
    CITY_FANCIER,
    CITY_LICENCE_ALTERED,
    CITY_LICENCE_LATE_FEE,
    CITY_LICENCE_UNALTERED,
    CITY_PENALTIES,
)

CITY = Profile.default()
BASE = CITY.to_toml().split("# Licence rates")[0]  # sections 1-5 only

LOCAL = """
[licence]
unaltered = "30.00"
altered = "12.00"
late_fee = "7.00"

[permits.chicken]
source = "town code 9.9"
hens_max = 6
roosters_allowed = false
setback_feet = 10
setback_waivable = false
hoa_consent_for_first = false
application_fee = "5.00"
annual_fee = "15.00"
late_fee = "3.00"
renew_by = "02-15"
prorated = true

[permits.fancier]
source = "town code 9.8"
application_fee = "0.00"
annual_fee = "40.00"
late_fee = "0.00"
prorated = false
incidents_for_nonrenewal = 4
incident_window_months = 24
appeal_days = 20
list_update_days = 15

[penalties.general]
source = "town code 1-1"
steps = [ { forfeiture = "10.00" }, { forfeiture = "20.00", revocation_months = 6 } ]

[penalties."9.9"]
source = "town code 9.9"
plus_court_costs = true
steps = [ { warning = true, order = "fix it" }, { forfeiture = "99.00", revocation = "permanent" } ]
"""


def load(local: str = LOCAL) -> Profile:
    return Profile.from_toml(BASE + local)


def test_a_profile_reads_every_new_table():
    p = load()
    assert (p.licence_unaltered, p.licence_altered, p.licence_late_fee) == (
        Decimal("30.00"),
        Decimal("12.00"),
        Decimal("7.00"),
    )
    assert p.chickens == ChickenRules(
        hens_max=6,
        roosters_allowed=False,
        setback_feet=10,
        setback_waivable=False,
        hoa_consent_for_first=False,
        application_fee=Decimal("5"),
        annual_fee=Decimal("15"),
        late_fee=Decimal("3"),
        renew_by=(2, 15),
        prorated=True,
        source="town code 9.9",
    )
    assert p.fancier.incidents_for_nonrenewal == 4 and p.fancier.appeal_days == 20
    assert set(p.penalties) == {"general", "9.9"}
    assert p.penalties["9.9"].plus_court_costs
    assert p.penalties["9.9"].steps[1].revocation_months == 0
    assert Profile.from_toml(p.to_toml()) == p


def test_absent_tables_take_the_citys_values():
    p = Profile.from_toml(BASE)
    assert p.licence_unaltered == CITY.licence_unaltered
    assert p.chickens == CITY.chickens and p.fancier == CITY.fancier
    assert p.penalties == CITY.penalties


def test_the_shipped_city_profile_says_what_the_code_defaults_say():
    # from_toml of another town without the tables falls back on the code's city values;
    # they must be the ones default_profile.toml ships.
    assert CITY.licence_unaltered == CITY_LICENCE_UNALTERED
    assert CITY.licence_altered == CITY_LICENCE_ALTERED
    assert CITY.licence_late_fee == CITY_LICENCE_LATE_FEE
    assert CITY.chickens == CITY_CHICKENS
    assert CITY.fancier == CITY_FANCIER
    assert CITY.penalties == CITY_PENALTIES
    assert Profile.from_toml(CITY.to_toml()) == CITY


def _swap(old: str, new: str) -> str:
    assert old in LOCAL, old
    return LOCAL.replace(old, new, 1)


BAD = [
    (_swap('unaltered = "30.00"\n', ""), "licence.unaltered"),
    (_swap('late_fee = "7.00"', "late_fee = 7.5"), "licence.late_fee"),
    (_swap('altered = "12.00"', 'altered = "12.00"\ncolour = "red"'), "licence.colour"),
    (LOCAL + '\n[permits.goat]\nsource = "x"\n', "permits.goat"),
    (_swap("hens_max = 6", "hens_max = -1"), "permits.chicken.hens_max"),
    (_swap("hens_max = 6", 'hens_max = "6"'), "permits.chicken.hens_max"),
    (
        _swap("roosters_allowed = false", 'roosters_allowed = "no"'),
        "permits.chicken.roosters_allowed",
    ),
    (_swap("roosters_allowed = false\n", ""), "permits.chicken.roosters_allowed"),
    (_swap('source = "town code 9.9"\nhens', "hens"), "permits.chicken.source"),
    (_swap("prorated = true", "prorated = true\nfeathers = 3"), "permits.chicken.feathers"),
    (_swap('renew_by = "02-15"', 'renew_by = "13-01"'), "permits.chicken.renew_by"),
    (_swap('renew_by = "02-15"', 'renew_by = "02-29"'), "permits.chicken.renew_by"),
    (_swap('annual_fee = "15.00"', 'annual_fee = "-15.00"'), "permits.chicken.annual_fee"),
    (_swap("appeal_days = 20", "appeal_days = 0"), "permits.fancier.appeal_days"),
    (_swap("list_update_days = 15\n", ""), "permits.fancier.list_update_days"),
    (_swap("[penalties.general]", "[penalties.ordinary]"), "penalties.general"),
    (
        _swap(
            'steps = [ { forfeiture = "10.00" }, { forfeiture = "20.00", revocation_months = 6 } ]',
            "steps = []",
        ),
        "penalties.general.steps",
    ),
    (_swap('{ forfeiture = "10.00" }', '{ forfeiture = "ten" }'), "penalties.general.steps[0]"),
    (_swap('{ forfeiture = "10.00" }', '{ fine = "10.00" }'), "penalties.general.steps[0].fine"),
    (_swap('{ forfeiture = "10.00" }', "{ }"), "penalties.general.steps[0]"),
    (
        _swap("revocation_months = 6", "revocation_months = 0"),
        "penalties.general.steps[1].revocation_months",
    ),
    (
        _swap('revocation = "permanent"', 'revocation = "forever"'),
        'penalties."9.9".steps[1].revocation',
    ),
    (
        _swap("plus_court_costs = true", 'plus_court_costs = "yes"'),
        'penalties."9.9".plus_court_costs',
    ),
    (
        _swap('source = "town code 1-1"', 'source = "town code 1-1"\nnote = 1'),
        "penalties.general.note",
    ),
]


@pytest.mark.parametrize(("text", "key"), BAD, ids=[k for _, k in BAD])
def test_from_toml_names_the_bad_key(text, key):
    with pytest.raises(ValueError) as info:
        load(text)
    assert str(info.value).startswith(key), str(info.value)


def test_keys_the_text_leaves_unset_may_be_left_out():
    p = load(
        _swap("hens_max = 6\n", "")
        .replace("setback_feet = 10\n", "")
        .replace('renew_by = "02-15"\n', "")
    )
    assert (p.chickens.hens_max, p.chickens.setback_feet, p.chickens.renew_by) == (None, None, None)


# -- The shipped profiles -------------------------------------------------------------------


def test_the_shipped_profiles_are_listed_and_load_by_name():
    assert Profile.shipped() == ("city", "dodgeville", "village")
    assert Profile.named("city") is CITY
    assert Profile.named(" Dodgeville ").name == "City of Dodgeville"
    with pytest.raises(ValueError, match="dodgeville"):
        Profile.named("springfield")


@pytest.mark.parametrize("name", ["dodgeville", "village"])
def test_each_shipped_file_loads_through_from_toml(name):
    text = resources.files("fieldops.rules").joinpath("profiles", f"{name}.toml").read_text("utf-8")
    p = Profile.from_toml(text)
    assert p == Profile.named(name)
    assert Profile.from_toml(p.to_toml()) == p
    assert "PLACEHOLDER" in text  # what the text leaves to the council is marked


def test_dodgeville_is_what_12_16_says():
    c = Profile.named("dodgeville").chickens
    assert (c.hens_max, c.roosters_allowed) == (5, False)
    assert (c.application_fee, c.annual_fee, c.late_fee) == (
        Decimal("25.00"),
        Decimal("25.00"),
        Decimal("10.00"),
    )
    assert (c.renew_by, c.prorated) == ((3, 1), False)
    assert (c.setback_feet, c.setback_waivable, c.residence_setback_feet) == (15, False, 25)


def test_the_village_is_what_chapter_12_says():
    v = Profile.named("village")
    c = v.chickens
    assert (c.setback_feet, c.residence_setback_feet) == (3, 25)
    assert (c.nonrenewal_complaints, c.complaint_radius_feet, c.complaint_window_months) == (
        3,
        100,
        12,
    )
    assert (c.ban_years_after_refusal, c.state_registration_years) == (5, 3)
    general = v.penalties["general"]
    assert [s.forfeiture for s in general.steps] == [Decimal("90.00"), Decimal("150.00")]
    assert general.plus_court_costs


def test_the_three_jurisdictions_differ_where_their_texts_differ():
    city, dodge, village = (Profile.named(n) for n in Profile.shipped())
    assert len({city.name, dodge.name, village.name}) == 3
    assert city.chickens.hoa_consent_for_first and not dodge.chickens.hoa_consent_for_first
    assert city.chickens.setback_waivable and not dodge.chickens.setback_waivable
    assert (
        len(
            {city.chickens.setback_feet, dodge.chickens.setback_feet, village.chickens.setback_feet}
        )
        == 3
    )
    assert city.chickens.hens_max is None and dodge.chickens.hens_max == 5
    assert city.chickens.renew_by is None and dodge.chickens.renew_by == (3, 1)
    assert set(dodge.penalties) == {"general", "cruelty"}
    assert city.penalties != dodge.penalties != village.penalties
    assert not dodge.penalties["general"].plus_court_costs
    assert village.penalties["general"].plus_court_costs


def test_the_rules_objects_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CITY.chickens.hens_max = 3
    assert hash(CITY) == hash(Profile.from_toml(CITY.to_toml()))
    assert isinstance(CITY.fancier, FancierRules)
