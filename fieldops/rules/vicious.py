"""Vicious animals: the declaration check and the notice deadline (city code 58-524; RULES.md section 4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
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


NOTICE_METHODS: Mapping[str, str] = MappingProxyType(
    {
        "in_person": "Served in person on the owner or caretaker",
        "posted": "The owner refused it: posted on the front door of the owner's residence",
    }
)
"""How the written notice was served (58-524(c)(2)); posted counts as served when posted."""

OUTCOMES: Mapping[str, str] = MappingProxyType(
    {
        "destroyed": "The animal was destroyed",
        "removed": "The animal was removed from the city",
        "not_complied": "The owner did not comply with the notice",
    }
)
"""What became of the notice (58-524(c)(2)), code -> label."""

NEXT_STEPS: Mapping[str, str] = MappingProxyType(
    {
        "court_action": "Court action for an order authorizing destruction",
        "seizure": "Seizure of the animal found off its owner's premises",
        "immediate_action": "Immediate action reasonably necessary to protect life or property",
    }
)
"""What may follow a notice not complied with, code -> label."""

NEXT_STEP_SECTIONS: Mapping[str, str] = MappingProxyType(
    {
        "court_action": "58-524(c)(3)",
        "seizure": "58-524(c)(1)",
        "immediate_action": "58-524(c)(4)",
    }
)

ENDINGS: Mapping[str, str] = MappingProxyType(
    {
        "withdrawn": "Declaration withdrawn",
        "overturned": "Declaration overturned (a court, an appeal)",
    }
)

GROUND_TEXT: Mapping[str, str] = MappingProxyType(
    {
        "bit_or_clawed": (
            "The domestic animal bites, claws, or attempts to bite or claw any person or bites or "
            "injures another animal"
        ),
        "approached_to_attack": (
            "The domestic animal approaches any person in an apparent attitude of attack, whether "
            "the attack is consummated or capable of being consummated"
        ),
        "known_propensity": (
            "The domestic animal has a known propensity to attack or bite people or other domestic "
            "animals, or such propensity reasonably should be known, to the owner or to any member "
            "of the owner's immediate family who resides with the owner"
        ),
        "declared_elsewhere": (
            "The domestic animal has at any time been declared dangerous or vicious by any agency "
            "or department of another municipality, county, or state"
        ),
    }
)
"""The grounds in the ordinance's own words, 58-524(a)(1) a-d (the form and the notice)."""

EXCEPTION_TEXT: Mapping[str, str] = MappingProxyType(
    {
        "law_enforcement_dog": (
            "Dogs utilized by law enforcement officers in the performance of their duties shall "
            "not be deemed vicious."
        ),
        "defending_person": (
            "The domestic animal was defending its owner, caretaker or another person from an "
            "attack by a person or animal."
        ),
        "protecting_self_or_young": (
            "The domestic animal was protecting itself, its young or another animal."
        ),
        "provoked_by_person": (
            "The domestic animal was defending itself against any person who was provoking, "
            "tormenting, assaulting or abusing it or who was engaging in conduct reasonably "
            "calculated to provoke the domestic animal to attack, bite, or injure."
        ),
        "provoked_by_animal": (
            "The domestic animal was defending itself against any other domestic animal that was "
            "provoking, tormenting, assaulting or abusing it or that was engaging in conduct "
            "reasonably calculated to provoke the domestic animal to attack, bite, or injure."
        ),
        "defending_property": (
            "The domestic animal was defending its owner's or caretaker's property against "
            "trespassers."
        ),
        "unlawful_entry_premises": (
            "The person or animal injured, threatened or approached by the domestic animal was "
            "unlawfully entering a fenced or enclosed portion of the premises upon which the "
            "domestic animal was lawfully kept or upon a portion of the premises where the "
            "domestic animal was lawfully chained."
        ),
        "unlawful_entry_vehicle": (
            "The person injured, threatened or approached by the domestic animal was unlawfully "
            "entering or upon a vehicle in which the domestic animal was confined."
        ),
        "stopping_fight": (
            "The person injured, threatened or approached by the domestic animal was attempting "
            "to stop a fight between that domestic animal and any other animal."
        ),
        "aiding_injured_animal": (
            "The person injured, threatened or approached by the domestic animal was attempting "
            "to aid the domestic animal while the domestic animal was injured or experiencing "
            "serious illness."
        ),
        "posted_guard_dog": (
            "A dog trained to and acting in a defensive manner on property so posted or signed "
            '["beware of dog"] shall not be considered a vicious animal.'
        ),
    }
)
"""The exceptions in the ordinance's own words (58-524(a)(2); 58-531(a)(2))."""

NOTICE_ORDINANCE_TEXT: tuple[tuple[str, str], ...] = (
    (
        "58-524(b)",
        "Prohibition on keeping vicious animals. No person shall own or keep a vicious animal.",
    ),
    (
        "58-524(c)(1)",
        "Any vicious animal which is found off the premises of its owner may be "
        "seized by any officer and, upon establishing to the satisfaction of the "
        "court of the vicious character of such animal by testimony under oath, "
        "may be killed by the police authorities.",
    ),
    (
        "58-524(c)(2)",
        "The owner or caretaker of a vicious animal shall destroy or otherwise "
        "remove the vicious animal from the city within 48 hours of service of "
        "written notice to do so. If the owner refuses to accept such notice, the "
        "police department may attach the written notice to the front door of "
        "the owner's residence and such notice shall be deemed served upon "
        "posting on the door. In addition to any other remedy or penalty, should "
        "the owner fail to timely remove the vicious animal as required under "
        "this subsection, the vicious animal may be subject to destruction as "
        "provided in subsection (3).",
    ),
    (
        "58-524(c)(3)",
        "In addition to any other penalty or remedy, upon reasonable suspicion "
        "that a vicious animal is being kept in the city in violation this "
        "subsection, the city may file an action in the circuit court seeking an "
        "order authorizing the destruction of the vicious animal. Upon "
        "establishing the vicious character of the animal, the court may enter "
        "an order authorizing the city to kill the vicious animal.",
    ),
    (
        "58-524(c)(4)",
        "An officer may in the exercise of his or her reasonable discretion take "
        "any immediate action reasonably necessary to protect life or property.",
    ),
)
"""The ordinance as the written notice quotes it (section, text), verbatim."""


def notice_expired(deadline: datetime, at: datetime) -> bool:
    """Whether the owner's time under the notice has run out at ``at`` (58-524(c)(2)):
    the deadline is the last instant to comply, so "not complied" is a finding from then."""
    return at >= deadline


def next_step_overdue(due_on: date, day: date) -> bool:
    """Whether a next step after a notice not complied with (58-524(c)(1), (3), (4)) is
    late on ``day`` (local date). The ordinance sets no time for one: its due day is the
    officer's, and the step is late from the day after it, as Today lists it."""
    return due_on < day


def stands_declared(declared: bool, ended: bool) -> bool:
    """Whether the animal is a vicious animal in law: declared, and the declaration neither
    withdrawn nor overturned. Compliance does not end it (58-524(b) binds wherever it is
    kept in the city), so the release block stays after a removal."""
    return declared and not ended
