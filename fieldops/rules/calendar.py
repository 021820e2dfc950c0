"""Legal time: periods in days and hours, legal holidays, local-time helpers.

Sources: Wis. Stat. 990.001(4) (computation of time) and Wis. Stat. 995.20
(legal holidays), as read in RULES.md section 1.

Every rule works in the jurisdiction's local zone (``profile.timezone``). A
naive datetime handed to any function here is a programming error and raises
``ValueError``: guessing a zone for a legal deadline is how a date ends up a
day off.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

SUNDAY = 6  # date.weekday()
MONDAY = 0
THURSDAY = 3

TIME_SOURCE = "Wis. Stat. 990.001(4)"
HOURS_SOURCE = "Wis. Stat. 990.001(4)(a)"
HOLIDAY_SOURCE = "Wis. Stat. 995.20"

_ONE_DAY = timedelta(days=1)


# --------------------------------------------------------------------------
# Local-time helpers
# --------------------------------------------------------------------------


def require_aware(value: datetime, name: str = "datetime") -> datetime:
    """Return ``value`` if it is a timezone-aware datetime, else raise.

    Raises ``ValueError`` for a naive datetime (RULES.md section 1) and
    ``TypeError`` for anything that is not a datetime.
    """
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError(
            f"{name} is a naive datetime ({value.isoformat()}); rules need a timezone-aware instant"
        )
    return value


def utc(value: datetime, name: str = "datetime") -> datetime:
    """The instant ``value`` in UTC, for comparing instants.

    Compare instants in UTC, never as they are: Python compares two datetimes
    that share a tzinfo by wall-clock time, ignoring ``fold``, so 01:30 CDT
    would count as later than 01:10 CST on the night clocks fall back.
    """
    return require_aware(value, name).astimezone(UTC)


def to_local(value: datetime, profile: Profile) -> datetime:
    """The instant ``value`` expressed in the jurisdiction's local zone."""
    return require_aware(value).astimezone(profile.timezone)


def local_date(value: datetime, profile: Profile) -> date:
    """The local calendar date on which the instant ``value`` falls."""
    return to_local(value, profile).date()


def as_local_day(value: date | datetime, profile: Profile, name: str = "day") -> date:
    """A plain date as is; an aware datetime as its local date; naive raises.

    Lets rules that take a ``date`` accept an instant too, without ever
    silently taking the date part of a naive or foreign-zone datetime.
    """
    if isinstance(value, datetime):
        require_aware(value, name)
        return value.astimezone(profile.timezone).date()
    if not isinstance(value, date):
        raise TypeError(f"{name} must be a date, not {type(value).__name__}")
    return value


def start_of_local_day(day: date, profile: Profile) -> datetime:
    """The first instant of local ``day`` (00:00, or the end of a DST gap).

    ``fold=0`` maps a non-existent midnight (zones that change clocks at
    00:00) to the transition instant itself, which is the real start of the
    day; the UTC round trip then shows the wall-clock time that really exists.
    """
    tz = profile.timezone
    return datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC).astimezone(tz)


# --------------------------------------------------------------------------
# Legal holidays, Wis. Stat. 995.20
# --------------------------------------------------------------------------


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    return first + timedelta(days=offset + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> date:
    last = date(year + (month == 12), month % 12 + 1, 1) - _ONE_DAY
    return last - timedelta(days=(last.weekday() - weekday) % 7)


@lru_cache(maxsize=512)
def standard_holidays(year: int) -> Mapping[date, str]:
    """The statewide legal holidays of ``year`` (Wis. Stat. 995.20), date -> name.

    A fixed-date holiday (Jan 1, Jul 4, Nov 11, Dec 25) that falls on a Sunday
    makes the following Monday the holiday; the Sunday itself is excluded
    anyway because it is a Sunday. A fixed-date holiday on a Saturday stays on
    the Saturday (the statute moves only Sundays; nothing moves to Friday).
    """
    days: dict[date, str] = {}

    def fixed(month: int, day: int, name: str) -> None:
        d = date(year, month, day)
        if d.weekday() == SUNDAY:
            days[d + _ONE_DAY] = f"{name}, observed on Monday"
        else:
            days[d] = name

    fixed(1, 1, "New Year's Day")
    days[_nth_weekday(year, 1, MONDAY, 3)] = "Martin Luther King, Jr. Day"
    days[_nth_weekday(year, 2, MONDAY, 3)] = "Washington-Lincoln Day"
    days[_last_weekday(year, 5, MONDAY)] = "Memorial Day"
    fixed(7, 4, "Independence Day")
    days[_nth_weekday(year, 9, MONDAY, 1)] = "Labor Day"
    days[_nth_weekday(year, 10, MONDAY, 2)] = "Columbus Day"
    fixed(11, 11, "Veterans Day")
    days[_nth_weekday(year, 11, THURSDAY, 4)] = "Thanksgiving Day"
    fixed(12, 25, "Christmas Day")
    return MappingProxyType(dict(sorted(days.items())))


def holiday_name(day: date, profile: Profile) -> str | None:
    """The name of the legal holiday on ``day``, or ``None`` (Wis. Stat. 995.20).

    Dates the clerk added to the profile are named "holiday added by the city
    clerk".
    """
    day = as_local_day(day, profile)
    name = standard_holidays(day.year).get(day)
    if name is None and day in profile.extra_holidays:
        name = "holiday added by the city clerk"
    return name


def is_legal_holiday(day: date, profile: Profile) -> bool:
    """Whether ``day`` is a legal holiday (Wis. Stat. 995.20, plus clerk-added dates).

    Clerk-added dates (``[holidays] extra`` in the profile) are taken as given:
    they are not moved off a Sunday.
    """
    return holiday_name(day, profile) is not None


def is_excluded_day(day: date, profile: Profile) -> bool:
    """Whether ``day`` is a Sunday or a legal holiday (Wis. Stat. 990.001(4))."""
    day = as_local_day(day, profile)
    return day.weekday() == SUNDAY or is_legal_holiday(day, profile)


def next_secular_day(day: date, profile: Profile) -> date:
    """``day`` itself if secular, else the next day that is neither a Sunday nor a
    legal holiday (Wis. Stat. 990.001(4)(b)). Saturday is a secular day."""
    day = as_local_day(day, profile)
    while is_excluded_day(day, profile):
        day += _ONE_DAY
    return day


# --------------------------------------------------------------------------
# Periods
# --------------------------------------------------------------------------


def check_period(value: int, name: str) -> int:
    """Validate a period length: an ``int`` (not ``bool``) that is not negative."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")
    return value


def nominal_last_day(event: date | datetime, days: int, profile: Profile) -> date:
    """``event + days`` without any extension (Wis. Stat. 990.001(4)(a),(d)).

    The event's own day is excluded and the last day included, so the last day
    of an N-day period is simply the event date plus N. Use this for minimum
    periods that are never extended (the bite observation period).
    """
    check_period(days, "days")
    return as_local_day(event, profile, "event") + timedelta(days=days)


def deadline_after_days(event: date, days: int, profile: Profile) -> date:
    """Last day of a period of ``days`` days after ``event`` in which a person must act.

    Wis. Stat. 990.001(4)(a),(b),(d): exclude the event's day, include the last
    day (``event + days``); when that day is a Sunday or a legal holiday the
    time runs to the next secular day. ``event`` is a local date; an aware
    datetime is taken at its local date, a naive one raises ``ValueError``.
    Not for minimum periods such as the bite observation (see
    ``nominal_last_day``).
    """
    return next_secular_day(nominal_last_day(event, days, profile), profile)


def hours_period(
    start: datetime, hours: int, profile: Profile
) -> tuple[datetime, tuple[date, ...]]:
    """``deadline_after_hours`` plus the excluded days it passed over.

    Returns ``(deadline, skipped_days)``; ``skipped_days`` lists each Sunday or
    legal holiday (whole or partial, if the period started inside one) that was
    not counted. Used for the "Why this date?" sentence (Wis. Stat. 990.001(4)(a)).
    """
    require_aware(start, "start")
    check_period(hours, "hours")
    tz = profile.timezone
    remaining = timedelta(hours=hours)
    cursor = start.astimezone(UTC)  # arithmetic in UTC counts real elapsed time
    skipped: list[date] = []
    while True:
        day = cursor.astimezone(tz).date()
        day_end = start_of_local_day(day + _ONE_DAY, profile).astimezone(UTC)
        if is_excluded_day(day, profile):
            skipped.append(day)
            cursor = day_end
            continue
        available = day_end - cursor
        if remaining <= available:
            return (cursor + remaining).astimezone(tz), tuple(skipped)
        remaining -= available
        cursor = day_end


def deadline_after_hours(start: datetime, hours: int, profile: Profile) -> datetime:
    """End of a period of ``hours`` hours after ``start`` (Wis. Stat. 990.001(4)(a)).

    The whole of every Sunday and legal holiday, midnight to midnight local
    time, is excluded; only real elapsed hours outside those days count (so a
    daylight-saving change, which in the US falls on a Sunday, costs nothing).
    A period started on an excluded day starts counting at the next local
    midnight. When the count ends exactly at a midnight the result is that
    midnight, i.e. the end of the last counted day, even if the day that
    begins there is excluded. Returns an aware datetime in the local zone;
    a naive ``start`` raises ``ValueError``.
    """
    return hours_period(start, hours, profile)[0]
