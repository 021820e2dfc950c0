"""Fee quotes for the release of an impounded animal (city code 58-526(a); Wis. Stat. 173.15(1)).

Amounts come from the profile (set by council resolution) and are exact
``Decimal`` values; every quote carries receipt lines. RULES.md section 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from fieldops.rules.calendar import to_local, utc

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules.profile import Profile

_ZERO = Decimal("0.00")


@dataclass(frozen=True)
class FeeQuote:
    """What the person taking the animal pays, with receipt lines.

    ``species`` is the species as given (lower-cased); ``fee_class`` the
    profile key used ("dog", "cat" or "other"). ``multiplier_applied`` is the
    factor on the impound fee (1, or the repeat multiplier for an owner's
    repeat impoundment). ``lines`` is a tuple of ``(label, amount)`` for a
    receipt; ``total`` is their sum.
    """

    species: str
    fee_class: str
    to_owner: bool
    repeat: bool
    multiplier_applied: int
    custody_day: date
    release_day: date
    impound_fee: Decimal
    boarding_days: int
    boarding_per_day: Decimal
    boarding_fee: Decimal
    adoption_fee: Decimal
    total: Decimal
    lines: tuple[tuple[str, Decimal], ...]


def boarding_days(impounded_at: datetime, released_at: datetime, profile: Profile) -> int:
    """Days of boarding charged: release local date minus custody local date, at least 1.

    RULES.md section 2 (fees under city code 58-526(a), (b)(1)d, (b)(2)e).
    ``released_at`` before ``impounded_at`` raises ``ValueError``.
    """
    if utc(released_at, "released_at") < utc(impounded_at, "impounded_at"):
        raise ValueError("released_at is before impounded_at")
    days = (to_local(released_at, profile).date() - to_local(impounded_at, profile).date()).days
    return max(1, days)


def _species(species: str) -> str:
    if not isinstance(species, str) or not species.strip():
        raise ValueError("species must be a non-empty string")
    return species.strip().lower()


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"


def redemption_fees(
    species: str,
    impounded_at: datetime,
    released_at: datetime,
    profile: Profile,
    *,
    repeat: bool,
) -> FeeQuote:
    """Fees an owner pays to reclaim an animal (city code 58-526(a), (b)(1)d; Wis. Stat. 173.23(1)(d)).

    The impound fee, multiplied by ``profile.repeat_multiplier`` when
    ``repeat`` (a second impoundment within the window, see
    ``is_repeat_impoundment``), plus boarding per day. Only the impound fee is
    doubled: the ordinance doubles "the fee payable by an animal owner", and
    boarding is a charge for care given, not a penalty.
    """
    kind = _species(species)
    fee_class = profile.fee_class(kind)
    schedule = profile.fees[fee_class]
    days = boarding_days(impounded_at, released_at, profile)
    multiplier = profile.repeat_multiplier if repeat else 1
    impound_fee = schedule.impound * multiplier
    boarding_fee = schedule.boarding_per_day * days
    impound_label = f"Impound fee ({fee_class})"
    if repeat:
        impound_label += (
            f", x{multiplier}: impounded again within {profile.repeat_window_days} days (58-526(a))"
        )
    lines = (
        (impound_label, impound_fee),
        (_boarding_label(days, schedule.boarding_per_day), boarding_fee),
    )
    return _quote(
        kind,
        fee_class,
        True,
        repeat,
        multiplier,
        impounded_at,
        released_at,
        profile,
        impound_fee,
        days,
        schedule.boarding_per_day,
        boarding_fee,
        _ZERO,
        lines,
    )


def adoption_fees(
    species: str,
    impounded_at: datetime,
    released_at: datetime,
    profile: Profile,
    *,
    include_impound_fee: bool = False,
) -> FeeQuote:
    """Fees a person other than the owner pays (city code 58-526(a), (b)(2)e; Wis. Stat. 173.15(1), 173.23(1m)(a)4).

    Boarding per day plus the council's adoption fee; never a repeat
    multiplier (that penalty is the owner's alone). Wis. Stat. 173.15(1) lets
    the city set different fees for owners and non-owners, and RULES.md reads
    the adoption fee as the non-owner's fee. 58-526(b)(2)e literally says "the
    boarding and impoundment fee"; if the council charges adopters the impound
    fee as well, pass ``include_impound_fee=True`` (still never multiplied).
    """
    kind = _species(species)
    fee_class = profile.fee_class(kind)
    schedule = profile.fees[fee_class]
    days = boarding_days(impounded_at, released_at, profile)
    impound_fee = schedule.impound if include_impound_fee else _ZERO
    boarding_fee = schedule.boarding_per_day * days
    lines: list[tuple[str, Decimal]] = []
    if include_impound_fee:
        lines.append((f"Impound fee ({fee_class})", impound_fee))
    lines.append((_boarding_label(days, schedule.boarding_per_day), boarding_fee))
    lines.append((f"Adoption fee ({fee_class})", schedule.adoption))
    return _quote(
        kind,
        fee_class,
        False,
        False,
        1,
        impounded_at,
        released_at,
        profile,
        impound_fee,
        days,
        schedule.boarding_per_day,
        boarding_fee,
        schedule.adoption,
        tuple(lines),
    )


def _boarding_label(days: int, per_day: Decimal) -> str:
    unit = "day" if days == 1 else "days"
    return f"Boarding, {days} {unit} at ${_money(per_day)} a day"


def _quote(
    species: str,
    fee_class: str,
    to_owner: bool,
    repeat: bool,
    multiplier: int,
    impounded_at: datetime,
    released_at: datetime,
    profile: Profile,
    impound_fee: Decimal,
    days: int,
    per_day: Decimal,
    boarding_fee: Decimal,
    adoption_fee: Decimal,
    lines: tuple[tuple[str, Decimal], ...],
) -> FeeQuote:
    return FeeQuote(
        species=species,
        fee_class=fee_class,
        to_owner=to_owner,
        repeat=repeat,
        multiplier_applied=multiplier,
        custody_day=to_local(impounded_at, profile).date(),
        release_day=to_local(released_at, profile).date(),
        impound_fee=impound_fee,
        boarding_days=days,
        boarding_per_day=per_day,
        boarding_fee=boarding_fee,
        adoption_fee=adoption_fee,
        total=sum((amount for _, amount in lines), _ZERO),
        lines=lines,
    )
