"""The city animal ordinance as pure functions and frozen data (RULES.md sections 1-5).

Standard library only: no database, no Qt. The names in RULES.md section 5 are
a public API used by the services, reports and tests; keep them.
"""

from fieldops.rules.calendar import (
    as_local_day,
    deadline_after_days,
    deadline_after_hours,
    holiday_name,
    hours_period,
    is_excluded_day,
    is_legal_holiday,
    local_date,
    next_secular_day,
    nominal_last_day,
    require_aware,
    standard_holidays,
    start_of_local_day,
    to_local,
    utc,
)
from fieldops.rules.explain import (
    explain_days,
    explain_hours,
    format_clock,
    format_day,
    format_day_short,
    format_instant,
)
from fieldops.rules.fees import FeeQuote, adoption_fees, boarding_days, redemption_fees
from fieldops.rules.impound import (
    PRESERVE_DAYS,
    ImpoundHold,
    explain_preserve_until,
    impound_hold,
    is_repeat_impoundment,
    may_destroy,
    preserve_until,
)
from fieldops.rules.profile import SPECIES, FeeSchedule, Profile, parse_money
from fieldops.rules.quarantine import (
    CLINIC,
    HOME,
    QuarantinePlan,
    plan_after_broken_home,
    quarantine_plan,
)
from fieldops.rules.release import ReleaseFacts, release_requirements
from fieldops.rules.requirement import Requirement, unmet
from fieldops.rules.vicious import (
    EXCEPTION_SECTIONS,
    EXCEPTIONS,
    GROUND_SECTIONS,
    GROUNDS,
    DeclarationCheck,
    check_declaration,
    explain_vicious_notice_deadline,
    vicious_notice_deadline,
)

__all__ = [
    "CLINIC",
    "EXCEPTIONS",
    "EXCEPTION_SECTIONS",
    "GROUNDS",
    "GROUND_SECTIONS",
    "HOME",
    "PRESERVE_DAYS",
    "SPECIES",
    "DeclarationCheck",
    "FeeQuote",
    "FeeSchedule",
    "ImpoundHold",
    "Profile",
    "QuarantinePlan",
    "ReleaseFacts",
    "Requirement",
    "adoption_fees",
    "as_local_day",
    "boarding_days",
    "check_declaration",
    "deadline_after_days",
    "deadline_after_hours",
    "explain_days",
    "explain_hours",
    "explain_preserve_until",
    "explain_vicious_notice_deadline",
    "format_clock",
    "format_day",
    "format_day_short",
    "format_instant",
    "holiday_name",
    "hours_period",
    "impound_hold",
    "is_excluded_day",
    "is_legal_holiday",
    "is_repeat_impoundment",
    "local_date",
    "may_destroy",
    "next_secular_day",
    "nominal_last_day",
    "parse_money",
    "plan_after_broken_home",
    "preserve_until",
    "quarantine_plan",
    "redemption_fees",
    "release_requirements",
    "require_aware",
    "standard_holidays",
    "start_of_local_day",
    "to_local",
    "unmet",
    "utc",
    "vicious_notice_deadline",
]
