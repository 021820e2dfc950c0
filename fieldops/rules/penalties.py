"""Forfeitures for a violation, from the profile's penalty ladders (RULES.md section 7).

58-534(b): each violation and each day it continues is a separate offence,
punished as section 1-7 (the city's general penalty, set by the council and
kept in the profile) provides. Other towns set ladders per section or class
of offence (Dodgeville 12.16(14)(a) general, (b) animal cruelty; the village's
chapter 12 (h)). ``profile.penalties`` maps a section name to a ``Ladder``;
the ``general`` ladder applies to a section without its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from fieldops.rules.profile_local import GENERAL, PERMANENT, Ladder, PenaltyStep

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

__all__ = ["GENERAL", "PERMANENT", "Ladder", "Penalty", "PenaltyStep", "penalty_for"]


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass(frozen=True)
class Penalty:
    """The penalty for the ``offence_number``-th offence against ``section``.

    ``forfeiture`` None: no money (a warning). ``revocation_months`` None: no
    revocation, 0: revoked without end. ``order``: what the offender must do
    ("" for nothing). ``ladder`` is the profile key used (the section, or
    "general"); ``step`` the 1-based rung applied (the last one for any later
    offence); ``plus_court_costs`` as the ladder says; ``source`` cites it.
    """

    section: str
    offence_number: int
    forfeiture: Decimal | None
    warning: bool
    revocation_months: int | None
    order: str
    why: str
    ladder: str
    step: int
    plus_court_costs: bool
    source: str


def penalty_for(section: str, offence_number: int, profile: Profile) -> Penalty:
    """The penalty for the ``offence_number``-th (1 = first) offence against ``section`` (58-534(b)).

    ``section`` names the ordinance section ("58-531") or a class a profile
    defines ("cruelty"); one without a ladder of its own uses the ``general``
    ladder (the city's section 1-7). An offence beyond the ladder's last step
    gets the last step. ``ValueError`` names a bad ``section`` or
    ``offence_number``.
    """
    if not isinstance(section, str) or not section.strip():
        raise ValueError(f"section: {section!r} is not an ordinance section")
    if isinstance(offence_number, bool) or not isinstance(offence_number, int):
        raise ValueError(f"offence_number: must be a whole number, not {offence_number!r}")
    if offence_number < 1:
        raise ValueError(f"offence_number: the first offence is 1, not {offence_number}")
    section = section.strip()
    key = section if section in profile.penalties else GENERAL
    ladder: Ladder = profile.penalties[key]
    index = min(offence_number, len(ladder.steps)) - 1
    step: PenaltyStep = ladder.steps[index]

    parts: list[str] = []
    if step.warning:
        parts.append("a warning")
    if step.forfeiture is not None:
        money = f"a forfeiture of ${step.forfeiture}"
        if ladder.plus_court_costs:
            money += " plus court costs"
        parts.append(money)
    if step.revocation_months == PERMANENT:
        parts.append("the permit revoked without end")
    elif step.revocation_months is not None:
        parts.append(f"the permit revoked for {step.revocation_months} months")
    if step.order:
        parts.append(f"an order to {step.order}")
    what = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    nth = _ordinal(offence_number)
    text = f"{nth.capitalize()} offence against {section}: {what}"
    if offence_number > len(ladder.steps):
        text += (
            f" (the ladder's last step, for the {_ordinal(len(ladder.steps))} and later offences)"
        )
    if key == GENERAL and section != GENERAL:
        text += f"; {section} has no ladder of its own, so the general one applies"
    text += f" ({ladder.source})."
    return Penalty(
        section=section,
        offence_number=offence_number,
        forfeiture=step.forfeiture,
        warning=step.warning,
        revocation_months=step.revocation_months,
        order=step.order,
        why=text,
        ladder=key,
        step=index + 1,
        plus_court_costs=ladder.plus_court_costs,
        source=ladder.source,
    )
