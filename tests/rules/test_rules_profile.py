"""Jurisdiction profiles (RULES.md section 5): the shipped default and TOML loading."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal
from importlib import resources
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import FeeSchedule, Profile

SPEC_EXAMPLE = """
[jurisdiction]
name = "City of Example"
timezone = "America/Chicago"

[impound]
hold_days = 7
bite_hold_days = 10
repeat_window_days = 60
repeat_multiplier = 2

[fees.dog]
impound = "40.00"
boarding_per_day = "15.00"
adoption = "75.00"

[fees.cat]
impound = "30.00"
boarding_per_day = "12.00"
adoption = "50.00"

[fees.other]
impound = "20.00"
boarding_per_day = "10.00"
adoption = "25.00"

[quarantine]
observation_days = 10
exams_required = 3
certificate_return_days = 15
clinic_delivery_hours = 24

[vicious]
notice_hours = 48

[holidays]
extra = ["2026-11-03"]   # dates added by the clerk
"""


def test_default_profile(profile):
    assert profile is Profile.default()
    assert profile.timezone == ZoneInfo("America/Chicago")
    assert isinstance(profile.timezone, ZoneInfo)
    assert (profile.hold_days, profile.bite_hold_days) == (7, 10)
    assert (profile.repeat_window_days, profile.repeat_multiplier) == (60, 2)
    assert (profile.observation_days, profile.exams_required) == (10, 3)
    assert (profile.certificate_return_days, profile.clinic_delivery_hours) == (15, 24)
    assert profile.notice_hours == 48
    assert profile.extra_holidays == frozenset()
    assert set(profile.fees) == {"dog", "cat", "other"}
    assert profile.fees["dog"] == FeeSchedule(Decimal("40.00"), Decimal("15.00"), Decimal("75.00"))
    for sched in profile.fees.values():
        for amount in (sched.impound, sched.boarding_per_day, sched.adoption):
            assert isinstance(amount, Decimal) and amount >= 0


def test_shipped_file_marks_fees_as_council_set():
    text = resources.files("fieldops.rules").joinpath("default_profile.toml").read_text("utf-8")
    fee_part = text[text.index("FEES") : text.index("[fees.dog]")]
    assert "COMMON COUNCIL RESOLUTION" in fee_part
    assert "Administration" in fee_part


def test_unknown_species_uses_other(profile):
    assert profile.fee_schedule("ferret") is profile.fees["other"]
    assert profile.fee_schedule(" Cat ") is profile.fees["cat"]
    assert profile.fee_class("DOG") == "dog"


def test_spec_example_loads():
    p = Profile.from_toml(SPEC_EXAMPLE)
    assert p.name == "City of Example"
    assert p.extra_holidays == frozenset({date(2026, 11, 3)})
    assert p.fees["cat"].adoption == Decimal("50.00")


def test_native_toml_dates_and_integer_fees_are_accepted():
    text = SPEC_EXAMPLE.replace('extra = ["2026-11-03"]', "extra = [2026-11-03, 2027-04-06]")
    text = text.replace('adoption = "75.00"', "adoption = 75")
    p = Profile.from_toml(text)
    assert p.extra_holidays == frozenset({date(2026, 11, 3), date(2027, 4, 6)})
    assert p.fees["dog"].adoption == Decimal("75.00")


def test_holidays_section_is_optional():
    text = SPEC_EXAMPLE[: SPEC_EXAMPLE.index("[holidays]")]
    assert Profile.from_toml(text).extra_holidays == frozenset()


def test_round_trip_through_to_toml(profile):
    p = dataclasses.replace(
        profile,
        name='Village of "Quotes" \\ Back\tslash',
        extra_holidays=frozenset({date(2026, 11, 3), date(2028, 11, 7)}),
        timezone=ZoneInfo("America/Denver"),
    )
    assert Profile.from_toml(p.to_toml()) == p
    assert Profile.from_toml(profile.to_toml()) == profile
    assert "council resolution" in profile.to_toml()


def _edit(old: str, new: str) -> str:
    assert old in SPEC_EXAMPLE, old
    return SPEC_EXAMPLE.replace(old, new, 1)


BAD_PROFILES = [
    # text, key the error must name
    (
        _edit('timezone = "America/Chicago"', 'timezone = "America/Springfield"'),
        "jurisdiction.timezone",
    ),
    (
        _edit('timezone = "America/Chicago"', 'timezone = "../../etc/passwd"'),
        "jurisdiction.timezone",
    ),
    (_edit('timezone = "America/Chicago"', "timezone = 6"), "jurisdiction.timezone"),
    (_edit('name = "City of Example"', 'name = ""'), "jurisdiction.name"),
    (_edit("hold_days = 7", "hold_days = -7"), "impound.hold_days"),
    (_edit("hold_days = 7", "hold_days = 7.5"), "impound.hold_days"),
    (_edit("hold_days = 7", 'hold_days = "7"'), "impound.hold_days"),
    (_edit("hold_days = 7", "hold_days = true"), "impound.hold_days"),
    (_edit("hold_days = 7", "hold_days = 0"), "impound.hold_days"),
    (_edit("bite_hold_days = 10", "bite_hold_days = 5"), "impound.bite_hold_days"),
    (_edit("repeat_window_days = 60", "repeat_window_days = -60"), "impound.repeat_window_days"),
    (_edit("repeat_multiplier = 2", "repeat_multiplier = 1.5"), "impound.repeat_multiplier"),
    (_edit("observation_days = 10", "observation_days = -1"), "quarantine.observation_days"),
    (_edit("exams_required = 3", "exams_required = 4"), "quarantine.exams_required"),
    (_edit("exams_required = 3", "exams_required = 1"), "quarantine.exams_required"),
    (
        _edit("certificate_return_days = 15", "certificate_return_days = 15.0"),
        "quarantine.certificate_return_days",
    ),
    (
        _edit("clinic_delivery_hours = 24", "clinic_delivery_hours = -24"),
        "quarantine.clinic_delivery_hours",
    ),
    (_edit("notice_hours = 48", "notice_hours = 48.5"), "vicious.notice_hours"),
    (_edit('impound = "40.00"', "impound = 40.0"), "fees.dog.impound"),
    (_edit('impound = "40.00"', 'impound = "forty"'), "fees.dog.impound"),
    (_edit('impound = "40.00"', 'impound = "-40.00"'), "fees.dog.impound"),
    (_edit('impound = "40.00"', 'impound = "40.005"'), "fees.dog.impound"),
    (_edit('impound = "40.00"', 'impound = "NaN"'), "fees.dog.impound"),
    (_edit('impound = "40.00"', 'impound = "Infinity"'), "fees.dog.impound"),
    (_edit('impound = "40.00"', "impound = true"), "fees.dog.impound"),
    (_edit('boarding_per_day = "12.00"', 'boarding_per_day = "$12"'), "fees.cat.boarding_per_day"),
    (_edit('adoption = "25.00"', "adoption = -25"), "fees.other.adoption"),
    (_edit('adoption = "25.00"', 'adopt = "25.00"'), "fees.other.adopt"),
    (_edit("[fees.cat]", "[fees.ferret]"), "fees.ferret"),
    (_edit("[vicious]", "[viscious]"), "viscious"),
    (SPEC_EXAMPLE + "\n[licences]\nfee = 1\n", "licences"),
    (_edit("hold_days = 7", "hold_days = 7\nhold_dayz = 8"), "impound.hold_dayz"),
    (_edit("hold_days = 7\n", ""), "impound.hold_days"),
    (_edit("notice_hours = 48", ""), "vicious.notice_hours"),
    (SPEC_EXAMPLE.replace("[vicious]\nnotice_hours = 48\n", ""), "vicious"),
    (_edit('extra = ["2026-11-03"]', 'extra = ["2026-13-03"]'), "holidays.extra"),
    (_edit('extra = ["2026-11-03"]', 'extra = "2026-11-03"'), "holidays.extra"),
    (_edit('extra = ["2026-11-03"]', "extra = [2026-11-03T09:00:00]"), "holidays.extra"),
    (_edit("[impound]", "[impounds]"), "impounds"),
]


@pytest.mark.parametrize(("text", "key"), BAD_PROFILES)
def test_invalid_profiles_name_the_key(text, key):
    with pytest.raises(ValueError) as info:
        Profile.from_toml(text)
    assert key in str(info.value)


def test_invalid_toml_syntax():
    with pytest.raises(ValueError, match="TOML"):
        Profile.from_toml("[jurisdiction\nname = 1")


def test_replace_validates_too(profile):
    with pytest.raises(ValueError, match=r"impound.hold_days"):
        dataclasses.replace(profile, hold_days=-1)
    with pytest.raises(ValueError, match=r"fees.other"):
        dataclasses.replace(profile, fees={"dog": profile.fees["dog"], "cat": profile.fees["cat"]})
    with pytest.raises(ValueError, match="impound"):
        FeeSchedule(impound=Decimal("-1"), boarding_per_day=Decimal("1"), adoption=Decimal("1"))
    with pytest.raises(ValueError, match="adoption"):
        FeeSchedule(impound="1.00", boarding_per_day="1.00", adoption=1.5)


def test_profile_is_frozen_and_hashable(profile):
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.hold_days = 8  # type: ignore[misc]
    with pytest.raises(TypeError):
        profile.fees["dog"] = profile.fees["cat"]  # type: ignore[index]
    assert hash(profile) == hash(Profile.from_toml(profile.to_toml()))
    assert dataclasses.replace(profile, timezone="America/Chicago") == profile
