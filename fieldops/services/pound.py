"""The pound as a module: its due items, its demo data and its integrity checks.

The first module on the seam (``fieldops.modules``); it takes its line in
``INSTALLED`` like any later one. Its release requirements are the rules' own
(``fieldops.rules.release``), checked by ``fieldops.services.dispositions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, Date, Select, bindparam, select, text

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Impoundment
from fieldops.later import LaterSequence, later_call
from fieldops.modules import Demo, DueItem, Incident, Module
from fieldops.rules import Profile, format_day_short, plural
from fieldops.rules.impound import no_claim_period
from fieldops.selftest_records import POUND_STEPS

KEY = "impound"

CATEGORIES = {
    f"{KEY}.hold_ends_today": "Hold ends today",
    f"{KEY}.hold_ends_tomorrow": "Hold ends tomorrow",
    f"{KEY}.adoptable_today": "Became adoptable today",
    f"{KEY}.past_hold": "Held past the hold without disposition",
}


@dataclass(frozen=True)
class ImpoundDueItem(DueItem):
    """A pound item: also the animal, and the owner's last day to claim."""

    animal: str = ""
    last_claim_day: date | None = None

    @property
    def impoundment_id(self) -> int:
        return self.record_id

    def as_json(self) -> dict[str, Any]:
        data = super().as_json()
        data.update(
            impoundment_id=self.record_id,
            animal=self.animal,
            last_claim_day=self.last_claim_day.isoformat() if self.last_claim_day else None,
        )
        return data


def due_items(db: Database, day: date, profile: Profile) -> tuple[ImpoundDueItem, ...]:
    """The pound's items for ``day`` (local date), in the order an operator works them.

    None is overdue: the ordinance sets no time for a disposition once the hold
    has ended, so an animal held past its hold is listed for action, not late."""
    # The day's bounds as instants: "released to others from a time on ``day``" is
    # compared with them, not by converting each of thousands of instants to local time.
    start = datetime.combine(day, time(0), profile.timezone)
    start_next = datetime.combine(day + timedelta(days=1), time(0), profile.timezone)
    with db.read() as s:
        # Core rows, through the unit of work's connection: the statement names columns
        # only, and the ORM's loading of each row was a tenth of the pound's items.
        through = day + timedelta(days=1)
        rows = s.connection().execute(_due_statement(), {"through": through}).all()
    # Once, not once a row (thousands at a city's size): the categories' ranks and
    # labels, tomorrow.
    rank = {code: n for n, code in enumerate(CATEGORIES)}
    tomorrow = day + timedelta(days=1)
    make = ImpoundDueItem.maker()
    items: list[ImpoundDueItem] = []
    for imp_id, last, custody, others_from, name, species, breed, kennel, surrendered, bit in rows:
        animal = f"#{imp_id} {name or '(no name)'} ({species}{', ' + breed if breed else ''})"
        where = f", kennel {kennel}" if kennel else ""
        if no_claim_period(surrendered=surrendered, bit_person=bit):
            if start <= others_from < start_next:
                cat = "adoptable_today"
                text_ = f"{animal}{where}: surrendered by the owner; may be adopted or transferred"
            else:
                cat = "past_hold"
                text_ = (
                    f"{animal}{where}: surrendered {format_day_short(custody)}, "
                    f"{plural((day - custody).days, 'day')} ago, no disposition"
                )
        elif last == day:
            cat, text_ = "hold_ends_today", f"{animal}{where}: owner may claim until end of today"
        elif last == tomorrow:
            cat, text_ = (
                "hold_ends_tomorrow",
                (f"{animal}{where}: owner may claim until {format_day_short(last)}"),
            )
        elif start <= others_from < start_next or (custody == day and others_from < start_next):
            cat, text_ = (
                "adoptable_today",
                f"{animal}{where}: may be adopted or transferred from today",
            )
        else:
            cat, text_ = (
                "past_hold",
                (
                    f"{animal}{where}: hold ended {format_day_short(last)}, "
                    f"{plural((day - last).days, 'day')} ago, no disposition"
                ),
            )
        code = f"{KEY}.{cat}"
        items.append(
            make(
                module=KEY,
                kind="impoundment",
                record_id=imp_id,
                due=last,
                category=code,
                category_label=CATEGORIES[code],
                text=text_,
                overdue=False,
                sort_key=(rank[code], last, imp_id),
                animal=animal,
                last_claim_day=last,
            )
        )
    return tuple(sorted(items, key=lambda i: i.sort_key))


@cache
def _due_statement() -> Select[*tuple[Any, ...]]:
    """The animals in custody whose claim period ends by ``through`` (a parameter), in
    the order the items list them, with the columns they are worded from. Built once."""
    return (
        select(
            Impoundment.id,
            Impoundment.last_claim_day,
            Impoundment.custody_day,
            Impoundment.release_to_others_from,
            Animal.name,
            Animal.species,
            Animal.breed,
            Impoundment.kennel,
            Impoundment.surrendered,
            Impoundment.bit_person,
        )
        .join(Animal, Animal.id == Impoundment.animal_id)
        .where(
            Impoundment.disposed.is_(False),
            Impoundment.last_claim_day <= bindparam("through", type_=Date()),
        )
        .order_by(Impoundment.last_claim_day, Impoundment.id)
    )


def demo(d: Demo) -> str:
    from fieldops.services.pound_demo import impoundments as _demo_impoundments

    n = _demo_impoundments(
        d.db, d.actor, d.rng, list(d.animals), list(d.people), d.anchor, d.profile
    )
    return f"{n} impoundments"


def checks(conn: Connection) -> list[str]:
    """Impoundments written past the services, dispositions out of step, and list copies
    out of step with their sources (``stale_list_copies``)."""
    from fieldops.services.impound_list import stale_list_copies

    out = stale_list_copies(conn)
    n = conn.execute(
        text(
            "SELECT count(*) FROM impoundment t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'impoundment' AND e.entity_id = t.id AND e.action = 'intake')"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} impoundment record(s) have no audit trail of their intake")
    n = conn.execute(
        text(
            "SELECT count(*) FROM impoundment t WHERE t.disposed AND NOT EXISTS "
            "(SELECT 1 FROM disposition d WHERE d.impoundment_id = t.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} impoundment(s) are marked disposed but have no disposition")
    n = conn.execute(
        text(
            "SELECT count(*) FROM impoundment t WHERE NOT t.disposed AND EXISTS "
            "(SELECT 1 FROM disposition d WHERE d.impoundment_id = t.id)"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} impoundment(s) have a disposition but are listed as in custody")
    return out


def places(session: Any, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """Impoundments of these people's animals, or found at this address (the calls
    module's history by address and by owner), newest first."""
    from sqlalchemy import ColumnElement, func, or_

    from fieldops.rules.calls import street_part

    part = street_part(address)
    where: list[ColumnElement[bool]] = [Impoundment.owner_id.in_(person_ids)] if person_ids else []
    if part:
        where.append(func.lower(Impoundment.found_place).contains(part, autoescape=True))
    if not where:
        return []
    rows = session.execute(
        select(Impoundment, Animal.name, Animal.species)
        .join(Animal, Animal.id == Impoundment.animal_id)
        .where(or_(*where))
        .order_by(Impoundment.impounded_at.desc())
        .limit(200)
    )
    return [
        Incident(
            KEY,
            "impoundment",
            imp.id,
            imp.impounded_at,
            imp.found_place,
            f"Impounded {name or '(no name)'} ({species}), {imp.reason.replace('_', ' ')}",
        )
        for imp, name, species in rows
    ]


MODULE = Module(
    KEY,
    "Pound",
    due_items=due_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    append_only=("disposition", "release_evidence", "payment", "payment_line"),
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    reports=LaterSequence(items=("fieldops.services.registers:IMPOUND_REGISTER",)),  # 58-528
    activity=later_call("fieldops.services.pound_activity:activity"),
    places=places,
    self_test=POUND_STEPS,  # fieldops --self-test (fieldops/selftest_records.py)
)
