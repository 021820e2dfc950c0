"""Impoundment: the hold, repeat impoundments, humane destruction, preservation.

City code 58-526 and 58-522; Wis. Stat. 173.13(3)(c), 173.19, 173.23(4);
RULES.md section 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from fieldops.rules._frozen import FrozenMap
from fieldops.rules.calendar import (
    as_local_day,
    deadline_after_days,
    require_aware,
    start_of_local_day,
    to_local,
    utc,
)
from fieldops.rules.explain import explain_days, format_clock, format_day, format_instant
from fieldops.rules.requirement import Requirement

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

PRESERVE_DAYS = 7
"""58-522: a biting animal that is euthanized is preserved up to seven days."""


@dataclass(frozen=True)
class ImpoundHold:
    """The owner's claim period for one impoundment (city code 58-526).

    ``custody_day`` is the local date of impoundment. ``last_claim_day`` is the
    owner's last day to claim (extended past a Sunday or holiday); from
    ``release_to_others_from`` (00:00 local the day after) the animal may go to
    someone else or be humanely destroyed. After a written owner surrender of
    an animal that bit no one there is no claim period: ``hold_days`` is 0,
    ``last_claim_day`` is the custody day and ``release_to_others_from`` is the
    moment of impoundment. ``why`` maps attribute names to one-sentence
    explanations for the UI.
    """

    impounded_at: datetime
    custody_day: date
    bit_person: bool
    surrendered: bool
    hold_days: int
    last_claim_day: date
    release_to_others_from: datetime
    why: Mapping[str, str]

    @property
    def no_claim_period(self) -> bool:
        """Whether the owner has no claim period at all (``no_claim_period``; Wis. Stat.
        173.13(3)(c))."""
        return no_claim_period(surrendered=self.surrendered, bit_person=self.bit_person)

    def is_over(self, at: datetime) -> bool:
        """Whether at ``at`` the hold has ended (58-526(b)(2)a, (c); Wis. Stat. 173.19)."""
        return utc(at, "at") >= utc(self.release_to_others_from)


def no_claim_period(*, surrendered: bool, bit_person: bool) -> bool:
    """Whether the owner has no claim period: a written surrender of an animal that bit no one
    makes it unclaimed at once (Wis. Stat. 173.13(3)(c)); a biting animal still serves its
    bite hold, surrendered or not (city code 58-526(c))."""
    return bool(surrendered) and not bit_person


def impound_hold(
    impounded_at: datetime,
    profile: Profile,
    *,
    bit_person: bool = False,
    surrendered: bool = False,
) -> ImpoundHold:
    """The hold on an impounded animal (city code 58-526(a), (b)(2)a, (c); Wis. Stat. 173.19).

    With custody date D (local date of ``impounded_at``) the owner may claim
    until ``D + hold_days`` (7), or ``D + bite_hold_days`` (10) if the animal bit
    a person, extended past a Sunday or holiday (Wis. Stat. 990.001(4)). An
    owner's written surrender makes the animal unclaimed at once (Wis. Stat.
    173.13(3)(c)), except that a biting animal still serves its bite hold.
    """
    local = to_local(impounded_at, profile)
    custody = local.date()
    why: dict[str, str] = {}
    if no_claim_period(surrendered=surrendered, bit_person=bit_person):
        when = format_instant(local, profile, midnight="start")
        why["last_claim_day"] = (
            f"No claim period: the owner surrendered the animal in writing on "
            f"{format_day(custody)}, so it is unclaimed at once (Wis. Stat. 173.13(3)(c), 173.23(1m))."
        )
        why["release_to_others_from"] = (
            f"May go to a new owner or be humanely destroyed from {when}, when the owner "
            "surrendered it in writing (Wis. Stat. 173.13(3)(c), 173.23(1m))."
        )
        return ImpoundHold(
            impounded_at=local,
            custody_day=custody,
            bit_person=False,
            surrendered=True,
            hold_days=0,
            last_claim_day=custody,
            release_to_others_from=local,
            why=FrozenMap(why),
        )

    days = profile.bite_hold_days if bit_person else profile.hold_days
    last = deadline_after_days(custody, days, profile)
    free_from = start_of_local_day(last + timedelta(days=1), profile)
    if bit_person:
        source = "city code 58-526(c); Wis. Stat. 990.001(4)"
        note = f" The hold is {days} days, not {profile.hold_days}, because the animal bit a person"
        note += "; the owner's surrender does not shorten it." if surrendered else "."
    else:
        source = "city code 58-526(a), (b)(2)a; Wis. Stat. 173.19, 990.001(4)"
        note = ""
    why["last_claim_day"] = (
        explain_days(
            "Owner may claim until", custody, days, profile, after="impoundment", source=source
        )
        + note
    )
    why["release_to_others_from"] = (
        f"May be adopted by someone else or humanely destroyed from the start of "
        f"{format_day(free_from.date())} ({format_clock(free_from)}), the day after the owner's "
        f"last day to claim (city code 58-526(b)(2)a, (c))."
    )
    return ImpoundHold(
        impounded_at=local,
        custody_day=custody,
        bit_person=bit_person,
        surrendered=surrendered,
        hold_days=days,
        last_claim_day=last,
        release_to_others_from=free_from,
        why=FrozenMap(why),
    )


def is_repeat_impoundment(
    custody_day: date,
    earlier_custody_days: Iterable[date],
    profile: Profile,
) -> bool:
    """Whether this is the same animal's second impoundment within any 60-day period.

    City code 58-526(a): the owner's fee is doubled "for any animal impounded a
    second time within any 60-day period". Read narrowly, as a penalty: both
    custody dates fall inside one window of ``repeat_window_days`` days, i.e.
    ``0 <= custody_day - earlier <= repeat_window_days - 1``. An earlier
    impoundment on the same day counts. ``earlier_custody_days`` must NOT
    include this impoundment itself. Days are local dates (aware datetimes are
    converted; naive ones raise ``ValueError``).
    """
    day = as_local_day(custody_day, profile, "custody_day")
    window = profile.repeat_window_days
    for earlier in earlier_custody_days:
        gap = (day - as_local_day(earlier, profile, "earlier_custody_days")).days
        if 0 <= gap <= window - 1:
            return True
    return False


def surrender_signed_by_owner(signed_by: int | None, owner_of_record: int | None) -> bool:
    """Whether an owner surrender signed by person ``signed_by`` stands as the owner's written
    relinquishment (Wis. Stat. 173.13(3)(c); RULES.md section 2), which ends the owner's
    claim period at once.

    An animal with an owner of record is relinquished only by that owner: anyone else's
    signature would take the owner's days to claim away. An animal with no owner on
    record is relinquished by the person who says they own it."""
    if signed_by is None:
        return False
    return owner_of_record is None or signed_by == owner_of_record


def may_destroy(hold: ImpoundHold, at: datetime, *, hopeless_or_threat: bool) -> Requirement:
    """Whether the animal may be humanely destroyed at ``at`` (city code 58-526(c); Wis. Stat. 173.23(4)).

    Only after the hold has ended, unless a veterinarian or officer records
    that the animal is hopelessly injured or an imminent threat (to public
    health or safety, or to itself or its custodian).
    """
    require_aware(at, "at")
    over = hold.is_over(at)
    satisfied = over or bool(hopeless_or_threat)
    detail = ""
    if not satisfied:
        detail = (
            f"The hold ends at {format_instant(hold.release_to_others_from)}. "
            "Before then, humane destruction needs a veterinarian's or officer's record that the "
            "animal is hopelessly injured or an imminent threat."
        )
    return Requirement(
        code="destruction_allowed",
        label=(
            "The hold has ended, or a veterinarian or officer has recorded that the animal is "
            "hopelessly injured or an imminent threat"
        ),
        section="58-526(c); Wis. Stat. 173.23(4)",
        satisfied=satisfied,
        detail=detail,
    )


def preserve_until(destroyed_at: datetime, profile: Profile) -> date:
    """Last day a euthanized biting animal is preserved for a necropsy (city code 58-522).

    "Preserved up to seven days": the local date of euthanasia plus 7. This
    is a limit on keeping the body, not a time in which a person must act, so
    it is not extended for a Sunday or holiday.
    """
    return to_local(destroyed_at, profile).date() + timedelta(days=PRESERVE_DAYS)


def explain_preserve_until(destroyed_at: datetime, profile: Profile) -> str:
    """ "Why this date?" for ``preserve_until`` (city code 58-522)."""
    return explain_days(
        "Preserve for a necropsy until",
        to_local(destroyed_at, profile).date(),
        PRESERVE_DAYS,
        profile,
        after="euthanasia",
        source="city code 58-522; a limit on keeping, not extended",
        extended=False,
    )
