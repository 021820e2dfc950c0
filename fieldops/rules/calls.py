"""Field calls, complaints, petitions and citations (58-534; RULES.md section 7).

The ordinance facts a call is recorded with: the kinds of call and the section
each falls under, how a call comes in, its priority, a dispatch's outcomes,
how an owner is notified of a complaint (58-534(a)), the petition's five
parts (``petition_missing``) and where a complete petition goes. A
citation's forfeiture is ``penalty_for`` (``fieldops.rules.penalties``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from fieldops.rules.profile_local import GENERAL

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

RECEIVED_HOW: dict[str, str] = {
    "phone": "Phone",
    "walk_in": "Walk-in",
    "police": "Police referral",
}

#: code -> (words, the ordinance section the kind of call falls under, "" for none)
CALL_KINDS: dict[str, tuple[str, str]] = {
    "at_large": ("Animal at large", "58-521"),
    "bite": ("Bite", "58-527"),
    "vicious": ("Vicious animal", "58-524"),
    "noise": ("Noise or habitual barking", "58-531"),
    "waste": ("Animal waste", "58-529"),
    "wild": ("Wild animal", "58-523"),
    "not_allowed": ("Animal not allowed", "58-517"),
    "welfare": ("Animal welfare", ""),
    "dead": ("Dead animal", "58-522"),
    "other": ("Other", ""),
}

#: 1 comes first in the list.
PRIORITIES: dict[int, str] = {1: "Emergency", 2: "Urgent", 3: "Routine"}

OUTCOMES: dict[str, str] = {
    "gone_on_arrival": "Gone on arrival",
    "returned_to_owner": "Returned to owner",
    "impounded": "Impounded",
    "warned": "Warned",
    "cited": "Cited",
    "referred_cd": "Referred to community development",
    "no_violation": "No violation",
}

#: The people and animals involved in a call beyond its caller: what each is to the call.
#: The call's main owner and animal stay on the call itself (the documents read them).
PARTY_KINDS: dict[str, str] = {"person": "Person", "animal": "Animal"}
PERSON_ROLES: dict[str, str] = {
    "owner": "Owner",
    "victim": "Victim",
    "witness": "Witness",
    "keeper": "Suspect or keeper",
    "other": "Other person",
}
ANIMAL_ROLES: dict[str, str] = {
    "subject": "Subject animal",
    "victim": "Victim animal",
    "other": "Other animal",
}
PARTY_ROLES: dict[str, dict[str, str]] = {"person": PERSON_ROLES, "animal": ANIMAL_ROLES}


def party_role_label(kind: str, role: str) -> str:
    return PARTY_ROLES.get(kind, {}).get(role, role)


#: How the owner was told of a complaint (58-534(a)).
NOTIFY_METHODS: dict[str, str] = {
    "in_person": "In person",
    "phone": "By phone",
    "mail": "By mail",
    "certified_mail": "By certified mail",
    "posted": "Posted at the address",
}

#: Where a complete petition goes (58-534(a)).
REFERRALS: dict[str, str] = {
    "police": "Prosecution (police department)",
    "community_development": "Zoning enforcement (community development)",
}

#: The petition form's field for each of 58-534(a)(1)-(5), and what it must carry.
PETITION_PARTS: dict[str, str] = {
    "petitioners": "(1) the petitioners' names, phone numbers and addresses",
    "animal": "(2) a description of the animal and the owner's address (name if known)",
    "violations": "(3) the dates and times of the violations, with a detailed description",
    "reported_on": "(4) the dates the violations were reported",
    "will_testify": "(5) a statement that the petitioners will testify",
}


#: The sections a citation may name: every kind's section, and the complaint section.
CITABLE_SECTIONS: tuple[str, ...] = (
    *dict.fromkeys(s for _, s in CALL_KINDS.values() if s),
    "58-533",
    "58-534",
)


def citable_sections(profile: Profile) -> tuple[str, ...]:
    """The sections a citation may name: the city's, and any class of offence the
    jurisdiction's profile has a ladder for (Dodgeville's "cruelty")."""
    extra = tuple(k for k in profile.penalties if k != GENERAL and k not in CITABLE_SECTIONS)
    return CITABLE_SECTIONS + extra


def kind_section(kind: str) -> str:
    """The ordinance section a kind of call falls under ("" when none)."""
    return CALL_KINDS[kind][1]


def kind_label(kind: str) -> str:
    words, section = CALL_KINDS.get(kind, (kind, ""))
    return f"{words} ({section})" if section else words


def address_key(address: str) -> str:
    """An address as it is compared between records: case and spacing do not matter."""
    return " ".join((address or "").lower().replace(",", " ").replace(".", " ").split())


def street_part(address: str) -> str:
    """The house number and street of an address ("12 elm st" of "12 Elm St, Madison"),
    lower case: what another record's free-text place is searched for."""
    first = (address or "").split(",")[0]
    return " ".join(first.lower().replace(".", " ").split())


# -- Petitions (58-534(a)) ------------------------------------------------

PETITION_KEYS = ("petitioners", "animal", "violations", "reported_on", "will_testify")
"""58-534(a)(1)-(5), in that order."""


def _missing(value: object) -> bool:
    if value is None or value is False:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, Mapping | list | tuple | set | frozenset):
        return len(value) == 0
    return False


def petition_missing(petition: Mapping[str, object]) -> tuple[str, ...]:
    """The keys of 58-534(a)(1)-(5) a petition lacks, in that order; () when complete.

    A key absent, None, empty (blank text, an empty list) or False is missing.
    """
    if not isinstance(petition, Mapping):
        raise ValueError("petition: must be a mapping of its parts")
    return tuple(k for k in PETITION_KEYS if _missing(petition.get(k)))
