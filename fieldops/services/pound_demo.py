"""The pound's demo data: impoundments in every state, relative to the anchor day.

In custody: on hold, hold ending today and tomorrow, adoptable, held past the
hold, a biting animal, an owner surrender; disposed: reclaimed (one with a
doubled fee), adopted, transferred, euthanized, died, escaped. Everything goes
through the services, audited.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from fieldops.demo import STREETS
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile
from fieldops.services.context import now

if TYPE_CHECKING:
    from fieldops.db.engine import Database
    from fieldops.services.animals import AnimalView
    from fieldops.services.context import Actor
    from fieldops.services.impound_views import ImpoundView
    from fieldops.services.people import PersonView

OFFICERS = ("Off. Dana Lee", "Off. Marco Vang", "Off. Greta Hansen")


def _at(day: date, hour: int, profile: Profile) -> datetime:
    return datetime.combine(day, time(hour, 15), profile.timezone).astimezone(UTC)


# How many animals the impoundments below take from the pool: 10 in custody, the
# surrendered one, and 6 with a disposition (the repeat impoundment reuses one).
ANIMALS_TAKEN = 17


@requires(Permission.INTAKE)
def impoundments(
    db: Database,
    actor: Actor,
    rng: random.Random,
    animals: Sequence[AnimalView],
    persons: Sequence[PersonView],
    anchor: date,
    profile: Profile,
) -> int:
    """Impoundments in every state, placed relative to ``anchor``; returns how many."""
    from fieldops.services.dispositions import (
        ReleaseRequest,
        destroy,
        record_death,
        record_escape,
        release,
        transfer,
    )
    from fieldops.services.impounds import IntakeInput, intake
    from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment

    if len(animals) < ANIMALS_TAKEN:  # a small demo (--people 20): no pound records
        return 0
    pool = list(animals)
    rng.shuffle(pool)
    count = 0

    def take(days_ago: int, **kw: Any) -> tuple[AnimalView, ImpoundView]:
        nonlocal count
        animal = kw.pop("animal", None) or pool.pop()
        at = min(_at(anchor - timedelta(days=days_ago), rng.randint(8, 16), profile), now())
        count += 1
        data: dict[str, Any] = {
            "officer": rng.choice(OFFICERS),
            "reason": "at_large",
            "found_place": f"{rng.randint(1, 3000)} {rng.choice(STREETS)}",
            "kennel": f"K-{count:02d}",
        }
        data.update(kw)
        return animal, intake(
            db, actor, IntakeInput(impounded_at=at, animal_id=animal.id, **data), profile
        )

    def pay_all(view: ImpoundView, at: datetime, to_owner: bool, payer: int | None) -> None:
        fees = quote(db, view.id, at, to_owner, profile)
        lines = tuple(LineInput(f.kind, f.amount, f.label) for f in fees.lines if f.amount > 0)
        record_payment(
            db,
            actor,
            view.id,
            PaymentInput(lines, "card", f"R-{view.id:05d}", payer_id=payer, paid_at=at),
            profile,
        )

    # In custody: on hold, ending today / tomorrow, adoptable, past the hold, biting, surrender.
    for days in (1, 2, 3, 5):
        take(days)
    take(7)  # ends today (unless extended past a Sunday/holiday)
    take(6)  # ends tomorrow
    take(8, kennel="")  # adoptable from today
    take(12)
    take(20)  # held well past the hold
    take(4, reason="bite", bit_person=True, kennel="ISO-1")
    surrendered = pool.pop()
    take(1, reason="owner_surrender", owner_id=surrendered.owner_id, animal=surrendered)
    # Dispositions.
    a, first = take(50)
    pay_all(first, _at(anchor - timedelta(days=48), 11, profile), True, a.owner_id)
    release(
        db,
        actor,
        first.id,
        ReleaseRequest(
            True,
            a.owner_id,
            at=_at(anchor - timedelta(days=48), 11, profile),
            rabies_certificate="RV shown at counter",
            licence_receipt="L-demo",
        ),
        profile,
    )
    _, repeat = take(9, animal=a)  # same animal again within 60 days: doubled fee
    rel_at = min(_at(anchor - timedelta(days=7), 15, profile), now())
    pay_all(repeat, rel_at, True, a.owner_id)
    release(
        db,
        actor,
        repeat.id,
        ReleaseRequest(
            True, a.owner_id, at=rel_at, rabies_certificate="RV shown", licence_receipt="L-demo-2"
        ),
        profile,
    )
    _, adopt = take(30)
    adopter = persons[-1]
    ad_at = _at(anchor - timedelta(days=15), 13, profile)
    pay_all(adopt, ad_at, False, adopter.id)
    release(
        db,
        actor,
        adopt.id,
        ReleaseRequest(
            False,
            adopter.id,
            at=ad_at,
            rabies_prepaid_receipt="Vet receipt 4471",
            licence_agreement=True,
        ),
        profile,
    )
    _, tr = take(25)
    transfer(
        db,
        actor,
        tr.id,
        "Dane County Humane Society",
        profile,
        at=_at(anchor - timedelta(days=12), 10, profile),
    )
    _, eu = take(40, reason="bite", bit_person=True)
    destroy(
        db,
        actor,
        eu.id,
        profile,
        at=_at(anchor - timedelta(days=26), 10, profile),
        basis="hold_ended",
        decided_by="Off. Dana Lee (officer)",
        notes="Owner unknown after bite hold; head preserved for State Lab",
    )
    _, died = take(14)
    record_death(
        db,
        actor,
        died.id,
        profile,
        at=_at(anchor - timedelta(days=13), 7, profile),
        notes="Found dead in kennel; vet notified",
    )
    _, esc = take(11)
    record_escape(
        db,
        actor,
        esc.id,
        profile,
        at=_at(anchor - timedelta(days=10), 17, profile),
        notes="Slipped the lead in the yard",
    )
    return count
