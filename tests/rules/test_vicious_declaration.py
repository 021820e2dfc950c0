"""Vicious animals: the declaration check and the 48-hour notice (58-524; RULES.md section 4)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import (
    EXCEPTION_SECTIONS,
    EXCEPTIONS,
    GROUND_SECTIONS,
    GROUNDS,
    check_declaration,
    explain_vicious_notice_deadline,
    vicious_notice_deadline,
)
from fieldops.rules import vicious as rules

CHICAGO = ZoneInfo("America/Chicago")
NONE_APPLY = dict.fromkeys(EXCEPTIONS, False)


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


def test_grounds_and_exceptions_cover_the_ordinance():
    assert set(GROUNDS) == set(GROUND_SECTIONS)
    assert sorted(GROUND_SECTIONS.values()) == [f"58-524(a)(1){x}" for x in "abcd"]
    assert set(EXCEPTIONS) == set(EXCEPTION_SECTIONS)
    sections = set(EXCEPTION_SECTIONS.values())
    assert "58-524(a)(2)a" in sections  # law-enforcement dog
    for numeral in ("i", "ii", "iii", "iv", "v", "vii", "viii", "ix"):
        assert f"58-524(a)(2)b({numeral})" in sections
    assert any(s.startswith("58-524(a)(2)b(vi)") for s in sections)
    assert all(label and label[0].isupper() for label in (*GROUNDS.values(), *EXCEPTIONS.values()))


def test_declaration_allowed_with_a_ground_and_no_exception():
    check = check_declaration(["bit_or_clawed"], NONE_APPLY)
    assert check.allowed and check.reasons == ()
    assert check_declaration(("approached_to_attack", "declared_elsewhere"), NONE_APPLY).allowed
    assert check_declaration("known_propensity", NONE_APPLY).allowed  # one code as a string


def test_no_ground_is_refused():
    check = check_declaration([], NONE_APPLY)
    assert not check.allowed
    assert any("No ground" in r for r in check.reasons)


def test_unknown_ground_is_refused():
    check = check_declaration(["bit_or_clawed", "barking"], NONE_APPLY)
    assert not check.allowed
    assert any("'barking'" in r for r in check.reasons)


@pytest.mark.parametrize("code", list(EXCEPTIONS))
def test_any_exception_found_to_apply_refuses(code):
    check = check_declaration(["bit_or_clawed"], {**NONE_APPLY, code: True})
    assert not check.allowed
    assert len(check.reasons) == 1
    assert EXCEPTION_SECTIONS[code] in check.reasons[0]
    assert "cannot be declared vicious" in check.reasons[0]


@pytest.mark.parametrize("code", list(EXCEPTIONS))
def test_every_exception_needs_a_finding(code):
    findings = {k: v for k, v in NONE_APPLY.items() if k != code}
    check = check_declaration(["bit_or_clawed"], findings)
    assert not check.allowed
    assert check.reasons == (
        f"No finding recorded on the exception in {EXCEPTION_SECTIONS[code]}: {EXCEPTIONS[code]}.",
    )
    assert not check_declaration(["bit_or_clawed"], {**NONE_APPLY, code: None}).allowed


def test_unknown_exception_code_is_refused():
    check = check_declaration(["bit_or_clawed"], {**NONE_APPLY, "was_tired": False})
    assert not check.allowed and "'was_tired'" in check.reasons[0]


def test_all_reasons_are_reported_together():
    check = check_declaration([], {"law_enforcement_dog": True})
    assert not check.allowed
    assert len(check.reasons) == 1 + 1 + (len(EXCEPTIONS) - 1)


NOTICE_CASES = [
    (L(2026, 3, 3, 10), L(2026, 3, 5, 10), "Tue -> Thu"),
    (L(2026, 3, 7, 14, 30), L(2026, 3, 10, 14, 30), "posted Sat: Sunday (DST start) skipped"),
    (L(2026, 11, 26, 14, 30), L(2026, 11, 29, 0, 0), "served on Thanksgiving: end of Sat 28 Nov"),
    (L(2026, 12, 31, 9), L(2027, 1, 4, 9), "New Year and Sunday skipped"),
    (
        L(2026, 5, 22, 17),
        L(2026, 5, 26, 17),
        "Fri 7 h, Sat 24, Sun + Memorial Day skipped, Tue 26 17 h",
    ),
]


@pytest.mark.parametrize(("served", "deadline", "why"), NOTICE_CASES)
def test_notice_deadline(profile, served, deadline, why):
    assert vicious_notice_deadline(served, profile) == deadline, why


def test_notice_deadline_uses_profile_hours(profile):
    p = dataclasses.replace(profile, notice_hours=72)
    assert vicious_notice_deadline(L(2026, 3, 3, 10), p) == L(2026, 3, 6, 10)


def test_notice_deadline_explains_itself(profile):
    text = explain_vicious_notice_deadline(L(2026, 3, 7, 14, 30), profile)
    assert text == (
        "Destroy or remove the animal from the city by Tue 10 Mar 2026 2:30 PM CDT: 48 hours after "
        "service of the notice at Sat 7 Mar 2026 2:30 PM CST, not counting Sun 8 Mar, a Sunday "
        "(city code 58-524(c)(2); Wis. Stat. 990.001(4)(a))."
    )
    midnight = explain_vicious_notice_deadline(L(2026, 11, 26, 14, 30), profile)
    assert midnight.startswith(
        "Destroy or remove the animal from the city by Sat 28 Nov 2026 at 12 midnight CST (end of the day)"
    )
    assert "Thu 26 Nov, a legal holiday (Thanksgiving Day)" in midnight


def test_notice_in_utc_is_answered_in_local_time(profile):
    result = vicious_notice_deadline(datetime(2026, 3, 3, 16, tzinfo=UTC), profile)
    assert result.tzinfo.key == "America/Chicago" and result.hour == 10


def test_a_next_step_is_late_from_the_day_after_its_due_day():
    due = date(2026, 11, 26)
    assert not rules.next_step_overdue(due, due - timedelta(days=1))
    assert not rules.next_step_overdue(due, due)  # due today: still in time
    assert rules.next_step_overdue(due, due + timedelta(days=1))
    assert rules.next_step_overdue(due, date(2027, 1, 1))
