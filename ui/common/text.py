"""How the pound's values read on screen: money, local times with weekday, the hold.

One place so every screen writes "$40.00" and "Tue 1 Dec 2026 2:30 PM CST" the
same way; dates and times go through the core's formatters
(``fieldops.rules.explain``, which the PDFs use too), which do not depend on
the machine's locale.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from fieldops.rules import format_day, format_instant, plural
from ui.context import AppContext

if TYPE_CHECKING:  # the pound's views are not imported for Today (issue 14)
    from fieldops.services.impound_views import ImpoundView

SPECIES = {"dog": "Dog", "cat": "Cat", "other": "Other"}
SEX_LABELS = {"unknown": "Unknown", "male": "Male", "female": "Female"}
# Whether an animal is spayed or neutered, as the forms offer it (None: nobody knows).
ALTERED = {None: "Not known", True: "Yes", False: "No"}


def money(amount: Decimal) -> str:
    """ "$40.00"; a negative amount as "-$5.00"."""
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


def day(value: date | None) -> str:
    return format_day(value) if value is not None else ""


def when(ctx: AppContext, instant: datetime | None, *, midnight: str = "plain") -> str:
    """An instant in the city's local time, with its weekday."""
    if instant is None:
        return ""
    return format_instant(ctx.local_time(instant), midnight=midnight)


def species(code: str) -> str:
    return SPECIES.get(code, code)


def _days(n: int) -> str:
    return plural(n, "day")


def countdown(view: ImpoundView, at: datetime, today: date) -> str:
    """Where the hold stands at ``at``: days left to claim, or since it ended."""
    if view.disposition is not None:
        return f"Hold closed: {view.disposition.label.lower()}."
    if at >= view.release_to_others_from:
        gone = (today - view.last_claim_day).days
        ended = "ended yesterday" if gone == 1 else f"ended {_days(gone)} ago"
        if view.no_claim_period:
            ended = "does not apply: the owner surrendered the animal"
        return f"The owner's claim period {ended}; the animal may be adopted or transferred."
    left = (view.last_claim_day - today).days
    if left <= 0:
        return "The hold ends today: the owner may claim until midnight."
    if left == 1:
        return "1 day left: the hold ends tomorrow."
    return f"{_days(left)} left in the hold."


def escape_html(text: str) -> str:
    """User text made safe for a rich-text label: "<Sons> & Co" shows as typed."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
