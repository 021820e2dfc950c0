""" "Why this date?" sentences, date formats, and the docstring convention (issue 3)."""

from __future__ import annotations

import inspect
import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

import fieldops.rules as rules
from fieldops.rules import (
    explain_days,
    explain_hours,
    format_day,
    format_day_short,
    format_instant,
    impound_hold,
    quarantine_plan,
)

CHICAGO = ZoneInfo("America/Chicago")
SECTION = re.compile(r"58-5\d\d|990\.001|995\.20|95\.21|173\.\d\d|ATCP 13")


def L(*args):
    return datetime(*args, tzinfo=CHICAGO)


def test_day_formats():
    assert format_day(date(2026, 3, 9)) == "Mon 9 Mar 2026"
    assert format_day(date(2028, 2, 29)) == "Tue 29 Feb 2028"
    assert format_day_short(date(2026, 3, 2), date(2026, 3, 9)) == "2 Mar"
    assert format_day_short(date(2026, 12, 28), date(2027, 1, 4)) == "28 Dec 2026"


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (L(2026, 3, 10, 14, 30), "Tue 10 Mar 2026 2:30 PM CDT"),
        (L(2026, 1, 5, 9, 5), "Mon 5 Jan 2026 9:05 AM CST"),
        (L(2026, 1, 5, 12, 0), "Mon 5 Jan 2026 12:00 PM CST"),
        (L(2026, 11, 29, 0, 0), "Sat 28 Nov 2026 at 12 midnight CST (end of the day)"),
        (datetime(2026, 3, 10, 19, 30, tzinfo=UTC), "Tue 10 Mar 2026 2:30 PM CDT"),
    ],
)
def test_instant_format(profile, moment, text):
    assert format_instant(moment, profile) == text


def test_midnight_as_a_start(profile):
    assert (
        format_instant(L(2026, 3, 10), profile, midnight="start")
        == "Tue 10 Mar 2026 12:00 AM CDT (start of the day)"
    )
    assert (
        format_instant(L(2026, 3, 10), profile, midnight="plain") == "Tue 10 Mar 2026 12:00 AM CDT"
    )


def test_the_issue_example_sentence(profile):
    text = explain_days(
        "Owner may claim until",
        date(2026, 3, 2),
        7,
        profile,
        after="impoundment",
        source="city code 58-526, Wis. Stat. 990.001(4)",
    )
    assert text == (
        "Owner may claim until Mon 9 Mar 2026: 7 days after impoundment on 2 Mar "
        "(city code 58-526, Wis. Stat. 990.001(4))."
    )


def test_extension_names_each_excluded_day(profile):
    text = explain_days("Due", date(2022, 12, 18), 7, profile, after="the event", source="x")
    assert text == (
        "Due Tue 27 Dec 2022: 7 days after the event on 18 Dec would end on Sun 25 Dec, a Sunday, "
        "and Mon 26 Dec is a legal holiday (Christmas Day, observed on Monday), so the time runs "
        "to the next secular day (x)."
    )


def test_hours_sentence_lists_skipped_days(profile):
    text = explain_hours(
        "Due by", L(2026, 12, 24, 14, 30), 48, profile, after="service", source="y"
    )
    assert text == (
        "Due by Mon 28 Dec 2026 2:30 PM CST: 48 hours after service at Thu 24 Dec 2026 2:30 PM CST, "
        "not counting Fri 25 Dec, a legal holiday (Christmas Day) and Sun 27 Dec, a Sunday (y)."
    )


def test_every_computed_date_explains_itself_with_a_source(profile):
    hold = impound_hold(L(2026, 3, 2, 10), profile, bit_person=True)
    plan = quarantine_plan(
        L(2026, 3, 2, 9), L(2026, 3, 2, 11), profile, owner_known=False, rabies_proof=False
    )
    expected = {
        hold: ("last_claim_day", "release_to_others_from"),
        plan: (
            "placement",
            "deliver_by",
            "first_exam_day",
            "intervening_exam_window",
            "last_day",
            "certificate_due",
        ),
    }
    for obj, keys in expected.items():
        for key in keys:
            text = obj.why[key]
            assert SECTION.search(text), (key, text)
            assert text.endswith("."), key
    assert format_day(hold.last_claim_day) in hold.why["last_claim_day"]
    assert format_day(plan.last_day) in plan.why["last_day"]
    assert format_day(plan.certificate_due) in plan.why["certificate_due"]


NOT_RULES = {
    # formatting and local-time helpers: no ordinance behind them
    "as_local_day",
    "format_clock",
    "format_day",
    "format_day_short",
    "format_instant",
    "local_date",
    "require_aware",
    "start_of_local_day",
    "to_local",
    "unmet",
    "parse_money",
    "explain_days",
    "explain_hours",
    "nominal_last_day",
    "hours_period",
    "utc",
    "format_local",
    "plural",
}


def test_every_rule_function_names_its_source_in_its_docstring():
    checked = 0
    for name in rules.__all__:
        obj = getattr(rules, name)
        if not inspect.isfunction(obj) or name in NOT_RULES:
            continue
        doc = inspect.getdoc(obj) or ""
        assert SECTION.search(doc), f"{name} docstring names no ordinance or statute section"
        checked += 1
    assert checked >= 20
    assert (
        SECTION.search(inspect.getdoc(rules.Profile.default) or "") is None
    )  # sanity: regex is specific


def test_public_api_names_from_rules_md_section_5():
    for name in (
        "Profile",
        "is_legal_holiday",
        "deadline_after_days",
        "deadline_after_hours",
        "impound_hold",
        "is_repeat_impoundment",
        "redemption_fees",
        "quarantine_plan",
        "vicious_notice_deadline",
        "ReleaseFacts",
        "Requirement",
        "release_requirements",
        "unmet",
        "may_destroy",
        "preserve_until",
        "adoption_fees",
        "plan_after_broken_home",
        "GROUNDS",
        "EXCEPTIONS",
        "DeclarationCheck",
        "check_declaration",
        "FeeSchedule",
        "FeeQuote",
        "ImpoundHold",
        "QuarantinePlan",
    ):
        assert name in rules.__all__, name
    from fieldops.rules.release import Requirement, unmet  # the services import them from here

    assert Requirement is rules.Requirement and unmet is rules.unmet
