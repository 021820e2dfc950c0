"""The Today list: what is due on a day. Later modules add their items."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Impoundment
from fieldops.rules import Profile, format_day_short, plural

CATEGORIES = {
    "hold_ends_today": "Hold ends today",
    "hold_ends_tomorrow": "Hold ends tomorrow",
    "adoptable_today": "Became adoptable today",
    "past_hold": "Held past the hold without disposition",
}


@dataclass(frozen=True)
class DueItem:
    category: str
    impoundment_id: int
    animal: str
    last_claim_day: date
    text: str

    @property
    def category_label(self) -> str:
        return CATEGORIES[self.category]

    def as_json(self) -> dict:
        data = asdict(self)
        data["last_claim_day"] = self.last_claim_day.isoformat()
        data["category_label"] = self.category_label
        return data


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """The pound's items for ``day`` (local date), in the order an operator works them."""
    start_next = datetime.combine(day + timedelta(days=1), time(0), profile.timezone)
    with db.read() as s:
        rows = s.execute(
            select(Impoundment.id, Impoundment.last_claim_day, Impoundment.custody_day,
                   Impoundment.release_to_others_from, Animal.name, Animal.species, Animal.breed,
                   Impoundment.kennel, Impoundment.surrendered, Impoundment.bit_person)
            .join(Animal, Animal.id == Impoundment.animal_id)
            .where(Impoundment.disposed.is_(False),
                   Impoundment.last_claim_day <= day + timedelta(days=1))
            .order_by(Impoundment.last_claim_day, Impoundment.id)
        ).all()
    items: list[DueItem] = []
    for imp_id, last, custody, others_from, name, species, breed, kennel, surrendered, bit in rows:
        animal = f"#{imp_id} {name or '(no name)'} ({species}{', ' + breed if breed else ''})"
        where = f", kennel {kennel}" if kennel else ""
        others_day = others_from.astimezone(profile.timezone).date()
        no_claim_period = surrendered and not bit  # unclaimed at once (Wis. Stat. 173.13)
        if no_claim_period:
            cat = "adoptable_today" if others_day == day else "past_hold"
            text = (f"{animal}{where}: surrendered by the owner; may be adopted or transferred"
                    if cat == "adoptable_today" else
                    f"{animal}{where}: surrendered {format_day_short(custody)}, "
                    f"{plural((day - custody).days, 'day')} ago, no disposition")
        elif last == day:
            cat, text = "hold_ends_today", f"{animal}{where}: owner may claim until end of today"
        elif last == day + timedelta(days=1):
            cat, text = "hold_ends_tomorrow", (f"{animal}{where}: owner may claim until "
                                               f"{format_day_short(last)}")
        elif others_day == day or (custody == day and others_from < start_next):
            cat, text = "adoptable_today", f"{animal}{where}: may be adopted or transferred from today"
        else:
            cat, text = "past_hold", (f"{animal}{where}: hold ended {format_day_short(last)}, "
                                      f"{plural((day - last).days, 'day')} ago, no disposition")
        items.append(DueItem(cat, imp_id, animal, last, text))
    order = list(CATEGORIES)
    return tuple(sorted(items, key=lambda i: (order.index(i.category), i.last_claim_day,
                                              i.impoundment_id)))
