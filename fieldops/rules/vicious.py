"""Vicious animals: the declaration check and the notice deadline (city code 58-524; RULES.md section 4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING

from fieldops.rules.calendar import HOURS_SOURCE, deadline_after_hours
from fieldops.rules.explain import explain_hours

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

GROUNDS: Mapping[str, str] = MappingProxyType(
    {
        "bit_or_clawed": (
            "Bit, clawed, or attempted to bite or claw a person, or bit or injured another animal"
        ),
        "approached_to_attack": (
            "Approached a person in an apparent attitude of attack, whether or not the attack was "
            "consummated or could be"
        ),
        "known_propensity": (
            "Has a propensity to attack or bite people or other domestic animals that is known, or "
            "reasonably should be known, to the owner or a member of the owner's household"
        ),
        "declared_elsewhere": (
            "Has been declared dangerous or vicious by an agency or department of another "
            "municipality, county or state"
        ),
    }
)
"""Grounds for a declaration, city code 58-524(a)(1) a-d, code -> label."""

GROUND_SECTIONS: Mapping[str, str] = MappingProxyType(
    {
        "bit_or_clawed": "58-524(a)(1)a",
        "approached_to_attack": "58-524(a)(1)b",
        "known_propensity": "58-524(a)(1)c",
        "declared_elsewhere": "58-524(a)(1)d",
    }
)

EXCEPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "law_enforcement_dog": "A dog used by law enforcement officers in the performance of their duties",
        "defending_person": "Defending its owner, caretaker or another person from an attack by a person or animal",
        "protecting_self_or_young": "Protecting itself, its young or another animal",
        "provoked_by_person": (
            "Defending itself against a person who was provoking, tormenting, assaulting or abusing "
            "it, or acting in a way reasonably calculated to provoke an attack"
        ),
        "provoked_by_animal": (
            "Defending itself against another domestic animal that was provoking, tormenting, "
            "assaulting or abusing it, or acting in a way reasonably calculated to provoke an attack"
        ),
        "defending_property": "Defending its owner's or caretaker's property against trespassers",
        "unlawful_entry_premises": (
            "The person or animal was unlawfully entering a fenced or enclosed part of the premises "
            "where the animal was lawfully kept, or where it was lawfully chained"
        ),
        "unlawful_entry_vehicle": (
            "The person was unlawfully entering or upon a vehicle in which the animal was confined"
        ),
        "stopping_fight": "The person was trying to stop a fight between the animal and another animal",
        "aiding_injured_animal": (
            "The person was trying to help the animal while it was injured or seriously ill"
        ),
        "posted_guard_dog": (
            'A guard dog acting defensively on property posted with a "beware of dog" sign'
        ),
    }
)
"""Exceptions, code -> label: 58-524(a)(2)a (law-enforcement dog) and (a)(2)b(i)-(ix).

``posted_guard_dog`` is the guard-dog rule of the dog-keeping section (cited
here as 58-531(a)(2), inferred from the chapter's cross-references): a dog
trained to guard property and acting defensively on property posted "beware
of dog" "shall not be considered a vicious animal". It is an exception to the
same status, so the officer records a finding on it too.
"""

EXCEPTION_SECTIONS: Mapping[str, str] = MappingProxyType(
    {
        "law_enforcement_dog": "58-524(a)(2)a",
        "defending_person": "58-524(a)(2)b(i)",
        "protecting_self_or_young": "58-524(a)(2)b(ii)",
        "provoked_by_person": "58-524(a)(2)b(iii)",
        "provoked_by_animal": "58-524(a)(2)b(iv)",
        "defending_property": "58-524(a)(2)b(v)",
        "unlawful_entry_premises": "58-524(a)(2)b(vi), (a)(2)c",
        "unlawful_entry_vehicle": "58-524(a)(2)b(vii)",
        "stopping_fight": "58-524(a)(2)b(viii)",
        "aiding_injured_animal": "58-524(a)(2)b(ix)",
        "posted_guard_dog": "58-531(a)(2)",
    }
)


@dataclass(frozen=True)
class DeclarationCheck:
    """Whether a vicious declaration may be made, and if not, every reason why."""

    allowed: bool
    reasons: tuple[str, ...]


def check_declaration(
    grounds: Iterable[str], exception_findings: Mapping[str, bool]
) -> DeclarationCheck:
    """Check a proposed vicious declaration (city code 58-524(a)).

    Refused, with a reason for each problem, when: no ground from
    58-524(a)(1) a-d is given; a ground or exception code is unknown; an
    exception in ``EXCEPTIONS`` has no finding recorded (``True`` = applies,
    ``False`` = does not; anything else counts as no finding); or any
    exception is found to apply (58-524(a)(2): the animal then "shall not be
    deemed vicious"). A single string for ``grounds`` is read as one code.
    """
    if isinstance(grounds, str):
        grounds = (grounds,)
    given = list(dict.fromkeys(grounds))
    reasons: list[str] = []
    known = [g for g in given if g in GROUNDS]
    for g in given:
        if g not in GROUNDS:
            reasons.append(f"Unknown ground {g!r}: use one of 58-524(a)(1) a-d.")
    if not known:
        reasons.append(
            "No ground recorded: a declaration needs at least one ground under 58-524(a)(1) a-d."
        )
    for code in exception_findings:
        if code not in EXCEPTIONS:
            reasons.append(f"Unknown exception {code!r}.")
    for code, label in EXCEPTIONS.items():
        finding = exception_findings.get(code)
        section = EXCEPTION_SECTIONS[code]
        if finding is True:
            reasons.append(
                f"Exception applies ({section}): {label}. The animal cannot be declared vicious."
            )
        elif finding is not False:
            reasons.append(f"No finding recorded on the exception in {section}: {label}.")
    return DeclarationCheck(allowed=not reasons, reasons=tuple(reasons))


def vicious_notice_deadline(served_at: datetime, profile: Profile) -> datetime:
    """When the owner must have destroyed or removed the animal (city code 58-524(c)(2)).

    ``notice_hours`` (48) after service of the written notice, in person or by
    posting on the front door (served when posted), counted under Wis. Stat.
    990.001(4)(a): Sundays and legal holidays are excluded midnight to
    midnight. Aware datetime in the local zone; naive ``served_at`` raises.
    """
    return deadline_after_hours(served_at, profile.notice_hours, profile)


def explain_vicious_notice_deadline(served_at: datetime, profile: Profile) -> str:
    """ "Why this date?" for ``vicious_notice_deadline`` (city code 58-524(c)(2))."""
    return explain_hours(
        "Destroy or remove the animal from the city by",
        served_at,
        profile.notice_hours,
        profile,
        after="service of the notice",
        source=f"city code 58-524(c)(2); {HOURS_SOURCE}",
    )
