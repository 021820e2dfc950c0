"""The pound as a module: its due items, its demo data and its integrity checks.

The first module on the seam (``fieldops.modules``); it takes its line in
``INSTALLED`` like any later one. Its release requirements are the rules' own
(``fieldops.rules.release``), checked by ``fieldops.services.dispositions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Date,
    Select,
    and_,
    bindparam,
    func,
    not_,
    select,
    text,
)

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Impoundment
from fieldops.db.types import UTCDateTime
from fieldops.later import LaterSequence, later_call
from fieldops.modules import TODAY_EACH_UP_TO, CountedDueItem, Demo, DueItem, Incident, Module
from fieldops.rules import Profile, format_day_short, plural
from fieldops.rules.impound import no_claim_period
from fieldops.selftest_records import POUND_STEPS
from fieldops.services.past_hold import held_past_hold, held_past_hold_params

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


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """The pound's items for ``day`` (local date), in the order an operator works them.
    One item an animal (``fieldops due``).

    None is overdue: the ordinance sets no time for a disposition once the hold
    has ended, so an animal held past its hold is listed for action, not late."""
    return _items(db, day, profile, count_past_hold=False)


def today_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """What Today shows: ``due_items``, except that more than ``TODAY_EACH_UP_TO``
    animals held past their hold are one line with their count.

    Those animals wait for a disposition, not for a day: at a city's size they are
    hundreds of lines repeated every day, among which the holds ending today (whose
    owners must be reached) were lost. An operator works them from the impounds list
    on its "held past the hold" filter, which lists exactly these animals: the line
    opens it (``kind`` "list_past_hold")."""
    return _items(db, day, profile, count_past_hold=True)


def _items(
    db: Database, day: date, profile: Profile, *, count_past_hold: bool
) -> tuple[DueItem, ...]:
    tomorrow = day + timedelta(days=1)
    params = {**held_past_hold_params(day, profile), "through": tomorrow}
    counted: CountedDueItem | None = None
    with db.read() as s:
        # Core rows, through the unit of work's connection: the statement names columns
        # only, and the ORM's loading of each row was a tenth of the pound's items.
        conn = s.connection()
        statements = _statements()
        if count_past_hold:
            n, first = conn.execute(statements.count_past, params).one()
            if n > TODAY_EACH_UP_TO:
                counted = _past_hold_count(n, first)
        # Counted, the animals held past their hold are not read one by one.
        due = statements.not_past if counted else statements.every
        rows = conn.execute(due, params).all()
    # Once, not once a row (thousands at a city's size): the categories' ranks and
    # labels.
    rank = {code: n for n, code in enumerate(CATEGORIES)}
    make = ImpoundDueItem.maker()
    items: list[DueItem] = [counted] if counted else []
    for row in rows:
        imp_id, last, custody, name, species, breed, kennel, surrendered, bit, held_past = row
        animal = f"#{imp_id} {name or '(no name)'} ({species}{', ' + breed if breed else ''})"
        where = f", kennel {kennel}" if kennel else ""
        no_claim = no_claim_period(surrendered=surrendered, bit_person=bit)
        if held_past and no_claim:
            cat = "past_hold"
            text_ = (
                f"{animal}{where}: surrendered {format_day_short(custody)}, "
                f"{plural((day - custody).days, 'day')} ago, no disposition"
            )
        elif held_past:
            cat, text_ = (
                "past_hold",
                (
                    f"{animal}{where}: hold ended {format_day_short(last)}, "
                    f"{plural((day - last).days, 'day')} ago, no disposition"
                ),
            )
        elif no_claim:
            cat = "adoptable_today"
            text_ = f"{animal}{where}: surrendered by the owner; may be adopted or transferred"
        elif last == day:
            cat, text_ = "hold_ends_today", f"{animal}{where}: owner may claim until end of today"
        elif last == tomorrow:
            cat, text_ = (
                "hold_ends_tomorrow",
                (f"{animal}{where}: owner may claim until {format_day_short(last)}"),
            )
        else:  # its claim period ended before today: free to go to others from today
            cat, text_ = (
                "adoptable_today",
                f"{animal}{where}: may be adopted or transferred from today",
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


def _past_hold_count(n: int, first: date) -> CountedDueItem:
    """The one Today line for many animals held past their hold (``today_items``)."""
    code = f"{KEY}.past_hold"
    return CountedDueItem(
        module=KEY,
        kind="list_past_hold",
        record_id=0,  # a list, not a record: the line opens the impounds list
        due=first,
        category=code,
        category_label=CATEGORIES[code],
        text=f"{n:,} animals held past their hold with no disposition; open the impounds list",
        overdue=False,
        sort_key=(list(CATEGORIES).index(code), first, 0),
        count=n,
    )


@dataclass(frozen=True)
class _Statements:
    """Today's statements, built once (parameters ``day``, ``start``, ``start_next`` and
    ``through``, the day after)."""

    every: Select[*tuple[Any, ...]]  # each animal due, with whether it is held past its hold
    not_past: Select[*tuple[Any, ...]]  # those not held past it
    count_past: Select[*tuple[Any, ...]]  # how many are, and the earliest last claim day


@cache
def _statements() -> _Statements:
    """The animals in custody whose claim period ends by ``through``, in the order the
    items list them, with the columns they are worded from; every column but the
    animal's is read from ``ix_impoundment_custody_due`` (migration 0033)."""
    day = bindparam("day", type_=Date())
    start, start_next = (bindparam(n, type_=UTCDateTime()) for n in ("start", "start_next"))
    past = and_(*held_past_hold(day, start, start_next))
    every = (
        select(
            Impoundment.id,
            Impoundment.last_claim_day,
            Impoundment.custody_day,
            Animal.name,
            Animal.species,
            Animal.breed,
            Impoundment.kennel,
            Impoundment.surrendered,
            Impoundment.bit_person,
            past,
        )
        .join(Animal, Animal.id == Impoundment.animal_id)
        .where(
            Impoundment.disposed.is_(False),
            Impoundment.last_claim_day <= bindparam("through", type_=Date()),
        )
        .order_by(Impoundment.last_claim_day, Impoundment.id)
    )
    count = select(func.count(), func.min(Impoundment.last_claim_day)).where(
        Impoundment.disposed.is_(False), past
    )
    return _Statements(every, every.where(not_(past)), count)


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
    from sqlalchemy import func, or_

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
    today_items=today_items,
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
