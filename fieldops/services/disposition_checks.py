"""The rules a disposition must meet at its time, recorded or corrected (58-526(b)(2)a, (c)).

``dispositions`` records a disposition and ``disposition_corrections`` corrects one;
both ask here, so a correction is held to exactly the conditions the counter was: an
adoption or a transfer only once the owner's claim period has ended, a humane
destruction only on a basis the rules allow at that moment, named by who decided.
The answers are the rules' (``fieldops.rules.release``); this file gathers the facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from fieldops.db.models import Disposition, Impoundment
from fieldops.errors import Collector
from fieldops.rules import ImpoundHold, Profile, Requirement, impound_hold
from fieldops.rules.release import (
    AFTER_HOLD_KINDS,
    EUTHANASIA_BASES,
    euthanasia_allowed,
    euthanasia_needs_finding,
    hold_ended_requirement,
)
from fieldops.services import validate as v

# The reason of the registry's owner change an adoption writes (the animal's audit trail);
# a correction of the adoption finds the owner before it by this.
ADOPTION_OWNER_REASON = "adopted from impoundment #{}"


@dataclass(frozen=True)
class Destruction:
    """What the operator records for a humane destruction (58-526(c); Wis. Stat. 173.23(4))."""

    basis: str = ""  # a code of fieldops.rules.EUTHANASIA_BASES
    decided_by: str = ""  # the staff member, veterinarian or officer who decided, with role


def hold_of(imp: Impoundment, profile: Profile) -> ImpoundHold:
    """The impoundment's hold, from what it is computed from (58-526; ``rules.impound_hold``)."""
    return impound_hold(
        imp.impounded_at, profile, bit_person=imp.bit_person, surrendered=imp.surrendered
    )


def after_hold_block(
    imp: Impoundment, kind: str, at: datetime, profile: Profile
) -> Requirement | None:
    """The hold's condition on ending ``imp`` with ``kind`` at ``at`` when it is not met
    (an adoption or a transfer inside the owner's claim period); None otherwise."""
    if kind not in AFTER_HOLD_KINDS:
        return None
    hold = hold_ended_requirement(hold_of(imp, profile), at, profile)
    return None if hold.satisfied else hold


def check_destruction(
    c: Collector, d: Destruction, finding: str, hold: ImpoundHold, at: datetime, profile: Profile
) -> None:
    """Add to ``c``, on "basis", "decided_by" or "notes", why a humane destruction at ``at``
    on ``d`` is not allowed; ``finding`` is the notes that record the veterinarian's or
    officer's finding, when the basis rests on one (Wis. Stat. 173.23(4))."""
    if d.basis not in EUTHANASIA_BASES:
        c.add("basis", "Choose why the animal is humanely destroyed.")
    else:
        allowed = euthanasia_allowed(d.basis, hold, at, profile)
        if not allowed.satisfied:
            c.add("basis", allowed.detail)
    if not v.clean(d.decided_by):
        c.add(
            "decided_by",
            "Record who decided: the name, and whether a veterinarian, an officer or staff.",
        )
    decided_by = Disposition.__table__.c.decided_by
    v.optional_len(c, "decided_by", v.clean(d.decided_by), "Who decided", decided_by)
    if euthanasia_needs_finding(d.basis):
        c.check(
            bool(v.clean(finding)),
            "notes",
            "Record what the veterinarian or officer found (Wis. Stat. 173.23(4)).",
        )
