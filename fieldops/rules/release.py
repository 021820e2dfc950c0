"""What a release of an impounded animal requires, as data (city code 58-526(b); RULES.md section 2).

``release_requirements`` lists every condition for the kind of release with
its code, a plain-language label, the section, and whether the facts given
satisfy it. The blocks across modules (open bite quarantine, vicious
declaration) are listed too, marked ``overridable``: a supervisor may
override them with a written reason, which the services keep in the audit
trail. The statutory conditions are never overridable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from fieldops.rules.calendar import require_aware
from fieldops.rules.explain import format_day, format_instant
from fieldops.rules.impound import ImpoundHold
from fieldops.rules.requirement import Requirement, unmet

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

__all__ = [
    "AFTER_HOLD_KINDS",
    "EUTHANASIA_BASES",
    "RELEASE_KINDS",
    "ReleaseFacts",
    "Requirement",
    "adoption_fee_applies",
    "euthanasia_allowed",
    "euthanasia_needs_finding",
    "hold_ended_requirement",
    "licence_agreement_accepted",
    "must_release_to_owner",
    "open_quarantine_block",
    "release_kind",
    "release_requirements",
    "statutory_release_requirements",
    "unmet",
    "vicious_block",
]

# The dispositions that release the animal to a person, each with the evidence checked
# (58-526(b)(1) to the owner, (b)(2) to someone else).
RELEASE_KINDS: tuple[str, ...] = ("reclaimed", "adopted")


# The dispositions that put the animal with someone other than its owner, each allowed only
# once the owner's claim period has ended (58-526(b)(2)a; Wis. Stat. 173.19). A destruction
# has its own condition (``euthanasia_allowed``).
AFTER_HOLD_KINDS: tuple[str, ...] = ("adopted", "transferred")


def release_kind(to_owner: bool) -> str:
    """The disposition a release records: "reclaimed" by the owner, else "adopted"."""
    return "reclaimed" if to_owner else "adopted"


def must_release_to_owner(to_owner: bool, recipient_is_owner: bool) -> bool:
    """Whether a release recorded as to someone else must be recorded as to the owner instead.

    58-526(b)(2) is a release to "a person other than its owner": the owner (of record on
    the impoundment or in the registry) who takes the animal back reclaims it under
    58-526(b)(1), with the owner's conditions (a licence receipt, not an agreement to
    license; the repeat impound fee), whatever the operator chose."""
    return recipient_is_owner and not to_owner


def adoption_fee_applies(kind: str | None) -> bool:
    """Whether an impoundment with disposition ``kind`` (None: still in the pound) is charged
    a non-owner's fees, adoption fee included (58-526(a), (b)(2)e; RULES.md section 2).

    Only a release to someone other than the owner ("adopted") is: every other record
    (in custody, reclaimed, transferred, died, escaped, euthanized) owes what the owner
    owes, the impound fee (multiplied on a repeat) and boarding, never an adoption fee."""
    return kind == "adopted"


def licence_agreement_accepted(to_owner: bool) -> bool:
    """Whether an agreement to license the dog can stand for its licence (58-526(b)(2)d; Wis.
    Stat. 173.23(1m)(a)2): only from someone other than the owner, who must show a licence or
    buy one (58-526(b)(1)c)."""
    return not to_owner


# Why an impounded animal may be humanely destroyed (58-526(c); Wis. Stat. 173.23(4)).
# The codes are stored with the disposition and are stable; the labels are for the operator.
EUTHANASIA_BASES: dict[str, str] = {
    "hold_ended": "The hold has ended and the animal was not claimed",
    "hopelessly_injured": "Hopelessly injured or diseased, as found by a veterinarian or officer",
    "imminent_threat": "An imminent threat to public health or safety, as found by a "
    "veterinarian or officer",
}
# The bases that rest on a veterinarian's or officer's finding, allowed before the hold ends.
_FINDINGS = ("hopelessly_injured", "imminent_threat")


@dataclass(frozen=True)
class ReleaseFacts:
    """The facts recorded at the counter for one release."""

    species: str  # "dog" | "cat" | anything else
    name_and_address: bool  # recipient's name and address recorded
    rabies_certificate: bool = False  # proof of current rabies vaccination shown
    rabies_prepaid_receipt: bool = False  # vet's receipt for prepaid vaccination
    licensed: bool = False  # dog shown to be currently licensed
    licence_receipt: bool = False  # licence bought for this release (owner)
    licence_agreement: bool = False  # non-owner agrees to license the dog
    fees_paid: bool = False
    open_quarantine: bool = False  # animal is in an open bite quarantine
    declared_vicious: bool = False
    recipient_in_city: bool = True  # recipient lives in the city

    @property
    def kind(self) -> str:
        """ "dog", "cat" or "other"."""
        key = self.species.strip().lower() if isinstance(self.species, str) else ""
        return key if key in ("dog", "cat") else "other"


def _req(
    code: str, label: str, section: str, ok: bool, missing: str, *, overridable: bool = False
) -> Requirement:
    return Requirement(
        code=code,
        label=label,
        section=section,
        satisfied=bool(ok),
        overridable=overridable,
        detail="" if ok else missing,
    )


def release_requirements(
    to_owner: bool,
    facts: ReleaseFacts,
    hold: ImpoundHold,
    at: datetime,
    profile: Profile,
) -> tuple[Requirement, ...]:
    """Every condition of releasing the animal at ``at`` (city code 58-526(b), 58-527, 58-524):
    the statutory ones (``statutory_release_requirements``) and the blocks across
    modules (``open_quarantine_block``, ``vicious_block``) from ``facts``."""
    return (
        *statutory_release_requirements(to_owner, facts, hold, at, profile),
        open_quarantine_block(facts.open_quarantine),
        vicious_block(facts.declared_vicious, facts.recipient_in_city),
    )


def statutory_release_requirements(
    to_owner: bool,
    facts: ReleaseFacts,
    hold: ImpoundHold,
    at: datetime,
    profile: Profile,
) -> tuple[Requirement, ...]:
    """The pound's own conditions of releasing the animal at ``at`` (city code 58-526(b)(1) or (b)(2)).

    To the owner or the owner's representative (58-526(b)(1); Wis. Stat.
    173.23(1)): name and address; for a dog or cat, proof of rabies
    vaccination or a vet's receipt for prepaid vaccination; for an unlicensed
    dog, a licence receipt; fees paid. The owner may reclaim at any time before
    a final disposition, so the hold is not a condition.

    To anyone else (58-526(b)(2); Wis. Stat. 173.23(1m)(a)): the hold has
    ended (or the owner surrendered); name and address; for a dog or cat a
    prepaid-vaccination receipt unless the animal is shown to be vaccinated;
    for a dog an agreement to license it unless it is shown to be licensed (a
    licence bought on the spot also does); fees paid.

    The blocks across modules are not here: the modules that keep those
    records answer with ``open_quarantine_block`` and ``vicious_block``.
    """
    require_aware(at, "at")
    kind = facts.kind
    reqs: list[Requirement] = []
    if to_owner:
        reqs.append(
            _req(
                "name_address",
                "Name and address of the owner or the owner's representative",
                "58-526(b)(1)a",
                facts.name_and_address,
                "Record the name and address of the person reclaiming the animal.",
            )
        )
        if kind in ("dog", "cat"):
            reqs.append(
                _req(
                    "rabies",
                    "Proof of rabies vaccination or a veterinarian's receipt for prepaid vaccination",
                    "58-526(b)(1)b; Wis. Stat. 173.23(1)(c)",
                    facts.rabies_certificate or facts.rabies_prepaid_receipt,
                    f"No proof of rabies vaccination and no prepaid-vaccination receipt for this {kind}.",
                )
            )
        if kind == "dog":
            reqs.append(
                _req(
                    "licence",
                    "Dog shown to be licensed, or a receipt for a licence",
                    "58-526(b)(1)c; Wis. Stat. 173.23(1)(b)",
                    facts.licensed or facts.licence_receipt,
                    "The dog is not shown to be licensed and no licence receipt was shown.",
                )
            )
        reqs.append(
            _req(
                "fees_paid",
                "Boarding and impoundment fees paid",
                "58-526(b)(1)d; Wis. Stat. 173.23(1)(d)",
                facts.fees_paid,
                "The boarding and impoundment fees have not been paid.",
            )
        )
    else:
        reqs.append(hold_ended_requirement(hold, at, profile))
        reqs.append(
            _req(
                "name_address",
                "Name and address of the person taking the animal",
                "58-526(b)(2)b; Wis. Stat. 173.23(1m)(a)1",
                facts.name_and_address,
                "Record the name and address of the person taking the animal.",
            )
        )
        if kind in ("dog", "cat"):
            reqs.append(
                _req(
                    "rabies",
                    "A veterinarian's receipt for prepaid rabies vaccination, unless the animal is "
                    "shown to be vaccinated",
                    "58-526(b)(2)c; Wis. Stat. 173.23(1m)(a)3",
                    facts.rabies_prepaid_receipt or facts.rabies_certificate,
                    f"No prepaid-vaccination receipt, and this {kind} is not shown to be vaccinated.",
                )
            )
        if kind == "dog":
            reqs.append(
                _req(
                    "licence",
                    "Agreement to license the dog, unless it is shown to be licensed",
                    "58-526(b)(2)d; Wis. Stat. 173.23(1m)(a)2",
                    facts.licensed
                    or facts.licence_receipt
                    or (facts.licence_agreement and licence_agreement_accepted(to_owner)),
                    "The dog is not shown to be licensed and the recipient has not agreed to license it.",
                )
            )
        reqs.append(
            _req(
                "fees_paid",
                "Boarding and other fees paid",
                "58-526(b)(2)e; Wis. Stat. 173.23(1m)(a)4",
                facts.fees_paid,
                "The fees have not been paid.",
            )
        )
    return tuple(reqs)


def hold_ended_requirement(hold: ImpoundHold, at: datetime, profile: Profile) -> Requirement:
    """Whether the animal may go to someone other than its owner at ``at`` (58-526(b)(2)a;
    Wis. Stat. 173.19, 173.13(3)(c)): the owner's claim period has ended, or the owner
    surrendered it. The condition of an adoption and of a transfer (``AFTER_HOLD_KINDS``),
    recorded or corrected."""
    require_aware(at, "at")
    hold_missing = f"Release to anyone else from {format_instant(hold.release_to_others_from, profile, midnight='start')}."
    if hold.hold_days:
        hold_missing = (
            f"The owner may claim until {format_day(hold.last_claim_day)}. " + hold_missing
        )
    return _req(
        "hold_ended",
        "The owner's claim period has ended, or the owner surrendered the animal",
        "58-526(b)(2)a; Wis. Stat. 173.19, 173.13(3)(c)",
        hold.is_over(at),
        hold_missing,
    )


def open_quarantine_block(open_quarantine: bool, evidence: str = "") -> Requirement:
    """No release of any kind during an open bite quarantine (58-527; Wis. Stat. 95.21).

    Overridable by a supervisor with a written reason."""
    return _req(
        "no_open_quarantine",
        "Not in an open bite quarantine",
        "58-527; Wis. Stat. 95.21",
        not open_quarantine,
        "The animal is in an open bite quarantine; it may not be released until the quarantine "
        "is closed. A supervisor may override with a written reason.",
        overridable=True,
    ).with_evidence(evidence)


def vicious_block(
    declared_vicious: bool, recipient_in_city: bool, evidence: str = ""
) -> Requirement:
    """No release of an animal declared vicious to a recipient in the city (58-524(b), (c)(2)).

    58-524(b): no person shall own or keep a vicious animal. RULES.md names the
    owner; the prohibition binds any person, so the block applies to any
    recipient in the city (the owner or not). Overridable by a supervisor with
    a written reason."""
    return _req(
        "not_vicious",
        "Not declared vicious, or going to someone outside the city",
        "58-524(b), (c)(2)",
        not (declared_vicious and recipient_in_city),
        "The animal has been declared vicious and may not be kept in the city. A supervisor "
        "may override with a written reason.",
        overridable=True,
    ).with_evidence(evidence)


def euthanasia_needs_finding(basis: str) -> bool:
    """Whether the basis rests on a veterinarian's or officer's finding (Wis. Stat. 173.23(4)),
    which must then be recorded: who made it, and what they found."""
    return basis in _FINDINGS


def euthanasia_allowed(
    basis: str, hold: ImpoundHold, at: datetime, profile: Profile | None = None
) -> Requirement:
    """Whether humane destruction at ``at`` on ``basis`` is allowed (58-526(c); Wis. Stat. 173.23(4)).

    "hold_ended" only once the hold is over (RULES.md section 2: from 00:00 on
    the day after the owner's last day to claim). "hopelessly_injured" and
    "imminent_threat" at any time, since they rest on a veterinarian's or
    officer's finding. Any other code is not a basis the law knows.
    """
    require_aware(at, "at")
    if basis == "hold_ended":
        ok = hold.is_over(at)
        detail = (
            ""
            if ok
            else (
                f"The hold has not ended: it ends at "
                f"{format_instant(hold.release_to_others_from, profile, midnight='start')}. "
                "Before then, humane destruction needs a veterinarian's or officer's finding that "
                "the animal is hopelessly injured or an imminent threat."
            )
        )
    else:
        ok = basis in _FINDINGS
        detail = "" if ok else "Choose why the animal is humanely destroyed."
    return Requirement(
        code="destruction_allowed",
        label=(
            "The hold has ended, or a veterinarian or officer has recorded that the animal "
            "is hopelessly injured or an imminent threat"
        ),
        section="58-526(c); Wis. Stat. 173.23(4)",
        satisfied=ok,
        detail=detail,
    )
