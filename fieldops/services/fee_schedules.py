"""Council fee schedules (58-526(a): fees "established by common council resolution").

A supervisor enters a new schedule with its resolution number and effective
date. A quote uses the schedule in force on the custody day; payments already
made keep their amounts because they are stored, never recomputed. A schedule
never takes effect over an impoundment already paid for or disposed of under
the schedule it replaces (``_repriced``): its record (58-528) would show fees
nobody assessed at the counter.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import SPECIES, Disposition, FeeScheduleEntry, Impoundment, Payment
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.rules import FeeSchedule, Profile, format_day
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save


@dataclass(frozen=True)
class SpeciesFees:
    impound: str | Decimal
    boarding_per_day: str | Decimal
    adoption: str | Decimal


@dataclass(frozen=True)
class FeeScheduleInput:
    resolution: str
    effective_on: date | None
    fees: dict[str, SpeciesFees]


@dataclass(frozen=True)
class FeeScheduleView:
    resolution: str
    effective_on: date
    fees: dict[str, FeeSchedule]
    entered_by: str
    entered_at: datetime


DEFAULT_SCHEDULE = "the city profile's default fees"


def parse_amount(c: Collector, field: str, value: object) -> Decimal | None:
    return v.money(c, field, value)


@requires(Permission.FEE_SCHEDULES)
def enter_fee_schedule(
    db: Database, actor: Actor, inp: FeeScheduleInput, *, client_key: str | None = None
) -> FeeScheduleView:
    """Record a council resolution's fees for every species (supervisors only); a retry
    with the same ``client_key`` returns the schedule already recorded."""
    c = Collector()
    resolution = v.clean(inp.resolution)
    col = FeeScheduleEntry.__table__.c
    v.required(c, "resolution", resolution, "Resolution number", col.resolution)
    c.check(inp.effective_on is not None, "effective_on", "Effective date is required.")
    v.day(c, "effective_on", inp.effective_on, "Effective date")
    parsed: dict[str, FeeSchedule] = {}
    for species in SPECIES:
        fees = inp.fees.get(species)
        if fees is None:
            c.add(f"{species}.impound", f"Fees for {species} are required.")
            continue
        impound, boarding, adoption = (
            parse_amount(c, f"{species}.{f}", getattr(fees, f))
            for f in ("impound", "boarding_per_day", "adoption")
        )
        if impound is not None and boarding is not None and adoption is not None:
            parsed[species] = FeeSchedule(impound, boarding, adoption)
    c.raise_if_any()
    effective_on = inp.effective_on
    assert effective_on is not None  # checked above
    with db.write() as s:
        if (done := existing_save(s, client_key, "fee_schedule", actor)) is not None:
            made = s.get(FeeScheduleEntry, done)
            assert made is not None  # fee schedule entries are never deleted
            return FeeScheduleView(
                made.resolution, made.effective_on, parsed, made.entered_by, made.entered_at
            )
        clash = s.scalar(
            select(FeeScheduleEntry.resolution)
            .where(FeeScheduleEntry.effective_on == effective_on)
            .limit(1)
        )
        if clash:
            c.add("effective_on", f"Resolution {clash} already takes effect on that date.")
            c.raise_if_any()
        if (repriced := _repriced(s, effective_on)) is not None:
            (imp_id, custody_day), earliest = repriced
            c.add(
                "effective_on",
                f"Impoundment #{imp_id} (custody day {format_day(custody_day)}) already has a "
                "payment or a disposition under the fees in force then: a schedule from this "
                "date would change its record. The earliest effective date allowed is "
                f"{format_day(earliest)}.",
            )
            c.raise_if_any()
        at = now()
        for species, schedule in parsed.items():
            entry = FeeScheduleEntry(
                resolution=resolution,
                effective_on=effective_on,
                species=species,
                impound=schedule.impound,
                boarding_per_day=schedule.boarding_per_day,
                adoption=schedule.adoption,
                entered_by=actor.username,
                entered_at=at,
            )
            s.add(entry)
            s.flush()
            audit(
                s,
                actor,
                "create",
                "fee_schedule",
                entry.id,
                after=jsonable(
                    {
                        "resolution": resolution,
                        "effective_on": effective_on,
                        "species": species,
                        **dataclasses.asdict(schedule),
                    }
                ),
            )
        remember_save(s, client_key, "fee_schedule", entry.id, actor)
        return FeeScheduleView(resolution, effective_on, parsed, actor.username, at)


def _settled_between(s: Session, start: date, end: date | None) -> tuple[int, date] | None:
    """The impoundment with the latest custody day in [start, end) that has a payment or a
    disposition, as (id, custody day); None if there is none."""
    imp = Impoundment
    settled = or_(
        exists().where(Payment.impoundment_id == imp.id),
        exists().where(Disposition.impoundment_id == imp.id),
    )
    q = select(imp.id, imp.custody_day).where(imp.custody_day >= start, settled)
    if end is not None:
        q = q.where(imp.custody_day < end)
    row = s.execute(q.order_by(imp.custody_day.desc(), imp.id.desc()).limit(1)).first()
    return None if row is None else (row.id, row.custody_day)


def _repriced(s: Session, effective_on: date) -> tuple[tuple[int, date], date] | None:
    """Whether a schedule from ``effective_on`` would re-price a record already made: an
    impoundment paid for or disposed of whose custody day falls from that date until the
    next schedule's (it is priced by the schedule the new one would replace). Returns one
    such impoundment (id, custody day) and the earliest effective date that re-prices
    none and clashes with no schedule; None when ``effective_on`` is allowed."""
    taken = set(s.scalars(select(FeeScheduleEntry.effective_on).distinct()))
    first: tuple[int, date] | None = None
    day = effective_on
    while True:
        if day in taken and day != effective_on:
            day += timedelta(days=1)
            continue
        end = min((d for d in taken if d > day), default=None)
        hit = _settled_between(s, day, end)
        if hit is None:
            return None if first is None else (first, day)
        first = first or hit
        day = hit[1] + timedelta(days=1)


def fee_schedules(db: Database) -> tuple[FeeScheduleView, ...]:
    """Every schedule entered, newest first."""
    with db.read() as s:
        rows = s.scalars(
            select(FeeScheduleEntry).order_by(
                FeeScheduleEntry.effective_on.desc(), FeeScheduleEntry.species
            )
        ).all()
    grouped: dict[date, FeeScheduleView] = {}
    for r in rows:
        view = grouped.setdefault(
            r.effective_on,
            FeeScheduleView(r.resolution, r.effective_on, {}, r.entered_by, r.entered_at),
        )
        view.fees[r.species] = FeeSchedule(r.impound, r.boarding_per_day, r.adoption)
    return tuple(grouped.values())


def profile_in_force(s: Session, profile: Profile, day: date) -> tuple[Profile, str]:
    """The profile with the fees in force on ``day``, and which resolution set them."""
    rows = s.scalars(
        select(FeeScheduleEntry)
        .where(FeeScheduleEntry.effective_on <= day)
        .order_by(FeeScheduleEntry.effective_on.desc())
    ).all()
    fees = dict(profile.fees)
    source: dict[str, str] = {}
    for r in rows:
        if r.species not in source:
            fees[r.species] = FeeSchedule(r.impound, r.boarding_per_day, r.adoption)
            source[r.species] = (
                f"Resolution {r.resolution}, in force from {format_day(r.effective_on)}"
            )
    if not source:
        return profile, DEFAULT_SCHEDULE
    label = "; ".join(sorted(set(source.values())))
    return dataclasses.replace(profile, fees=fees), label
