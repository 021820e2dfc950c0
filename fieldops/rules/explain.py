"""Plain-language "Why this date?" sentences and the date formats they use.

This is the one place dates and times are written for people, on screen and
in the PDFs alike: "Tue 1 Dec 2026" for a day, "Tue 1 Dec 2026 3:45 PM CST"
for an instant (12-hour clock, the zone's abbreviation: US municipal records
and courts read 12-hour time). ``fieldops.reports.text`` and the UI's text
helpers call these; nothing else formats a date.

Every computed date can explain itself in one or two sentences that name its
source, e.g. "Owner may claim until Mon 9 Mar 2026: 7 days after impoundment
on 2 Mar (city code 58-526(a); Wis. Stat. 990.001(4))."

Names of days and months are spelled here rather than with ``strftime`` so the
text does not depend on the machine's locale or platform.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING

from fieldops.rules.calendar import (
    SUNDAY,
    holiday_name,
    hours_period,
    next_secular_day,
    nominal_last_day,
    require_aware,
    to_local,
)

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_day(day: date) -> str:
    """ "Mon 9 Mar 2026"."""
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def format_day_short(day: date, reference: date | None = None) -> str:
    """ "2 Mar", with the year added when it differs from ``reference``'s."""
    text = f"{day.day} {MONTHS[day.month - 1]}"
    if reference is None or reference.year != day.year:
        text += f" {day.year}"
    return text


def format_clock(moment: datetime) -> str:
    """ "2:30 PM CDT" (12-hour clock with the zone's abbreviation)."""
    hour = moment.hour % 12 or 12
    half = "AM" if moment.hour < 12 else "PM"
    zone = moment.tzname() or ""
    return f"{hour}:{moment.minute:02d} {half} {zone}".rstrip()


def format_instant(
    moment: datetime,
    profile: Profile | None = None,
    *,
    midnight: str = "end",
) -> str:
    """ "Tue 10 Mar 2026 2:30 PM CDT", in the profile's zone (or ``moment``'s own).

    An instant at exactly local midnight is a day boundary and is written as
    one: with ``midnight="end"`` (a deadline) as the end of the day before,
    "Sat 28 Nov 2026 at 12 midnight CST (end of the day)"; with
    ``midnight="start"`` (a "from" time) as "Tue 10 Mar 2026 12:00 AM CDT
    (start of the day)"; with ``midnight="plain"`` as the bare clock time.
    """
    local = to_local(moment, profile) if profile is not None else require_aware(moment, "moment")
    if local.time() == time(0) and midnight == "end":
        before = local.date() - timedelta(days=1)
        zone = local.tzname() or ""
        return f"{format_day(before)} at 12 midnight {zone} (end of the day)".replace("  ", " ")
    text = f"{format_day(local.date())} {format_clock(local)}"
    if local.time() == time(0) and midnight == "start":
        text += " (start of the day)"
    return text


def format_local(moment: datetime | None, zone: tzinfo) -> str:
    """An aware instant in ``zone`` as "Tue 1 Dec 2026 3:45 PM CST"; None -> "".

    The plain form for records (when something happened), with no midnight
    wording: that is for deadlines (``format_instant``).
    """
    if moment is None:
        return ""
    return format_instant(require_aware(moment, "moment").astimezone(zone), midnight="plain")


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 day", "2 days", "0 items"; ``many`` for an irregular plural ("1 fee", ...)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def _day_label(day: date) -> str:
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]}"


def exclusion_reason(day: date, profile: Profile) -> str:
    """ "a Sunday", "a legal holiday (Memorial Day)", or "" for a secular day."""
    name = holiday_name(day, profile)
    if name is not None:
        return f"a legal holiday ({name})"
    if day.weekday() == SUNDAY:
        return "a Sunday"
    return ""


def describe_excluded_day(day: date, profile: Profile) -> str:
    """ "Sun 8 Mar, a Sunday" or "Mon 25 May, a legal holiday (Memorial Day)"."""
    reason = exclusion_reason(day, profile)
    return f"{_day_label(day)}, {reason}" if reason else _day_label(day)


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def extension_clause(nominal: date, profile: Profile) -> str:
    """Why a period ending on ``nominal`` runs on, or "" if it does not (Wis. Stat. 990.001(4)(b)).

    E.g. " would end on Sun 4 Jul, a Sunday, and Mon 5 Jul is a legal holiday
    (Independence Day, observed on Monday), so the time runs to the next
    secular day".
    """
    actual = next_secular_day(nominal, profile)
    if actual == nominal:
        return ""
    text = f" would end on {_day_label(nominal)}, {exclusion_reason(nominal, profile)}"
    day = nominal + timedelta(days=1)
    while day < actual:
        text += f", and {_day_label(day)} is {exclusion_reason(day, profile)}"
        day += timedelta(days=1)
    return text + ", so the time runs to the next secular day"


def explain_days(
    what: str,
    event: date,
    days: int,
    profile: Profile,
    *,
    after: str,
    source: str,
    extended: bool = True,
) -> str:
    """One sentence for a day-counted date, e.g. the owner's last day to claim.

    ``what`` leads ("Owner may claim until"), ``after`` names the event
    ("impoundment"), ``source`` is cited in brackets. With ``extended=False``
    (minimum periods) no Sunday or holiday extension is applied or mentioned.
    """
    nominal = nominal_last_day(event, days, profile)
    result = next_secular_day(nominal, profile) if extended else nominal
    clause = extension_clause(nominal, profile) if extended else ""
    unit = "day" if days == 1 else "days"
    return (
        f"{what} {format_day(result)}: {days} {unit} after {after} on "
        f"{format_day_short(event, result)}{clause} ({source})."
    )


def explain_hours(
    what: str,
    start: datetime,
    hours: int,
    profile: Profile,
    *,
    after: str,
    source: str,
) -> str:
    """One or two sentences for an hour-counted deadline (Wis. Stat. 990.001(4)(a))."""
    end, skipped = hours_period(start, hours, profile)
    unit = "hour" if hours == 1 else "hours"
    text = f"{what} {format_instant(end, profile)}: {hours} {unit} after {after} at {format_instant(start, profile)}"
    if skipped:
        text += f", not counting {_join([describe_excluded_day(d, profile) for d in skipped])}"
    return f"{text} ({source})."
