"""One animal's impoundments do not overlap, and none begins after its death.

Whether a registry animal may be logged in at a time, and whether that intake is a
repeat impoundment (58-526(a)): asked by ``impounds.intake`` in the unit of work that
saves, by an intake's correction, and by the intake form as soon as an animal is chosen.
An animal is not taken in again while it is in the pound (a second open impoundment
would hold it twice and charge it twice), nor at a time it was already in the pound
under another impoundment, nor after it was recorded dead. Each refusal is a
``ValidationError`` on the form's field (``field``) naming the record to look at.

The same holds from the other end (``check_custody_end``): a disposition, recorded or
corrected, cannot end an impoundment after the animal was impounded again (a late
paper record's release dated into the next stay), and an animal impounded again later
cannot have died or been euthanized in this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Impoundment
from fieldops.errors import Collector, ValidationError
from fieldops.rules import Profile, format_day, is_repeat_impoundment, to_local
from fieldops.services.animal_record import DEAD


@dataclass(frozen=True)
class RepeatInfo:
    """An earlier impoundment of the same animal inside the repeat window."""

    impoundment_id: int
    custody_day: date
    days_before: int


@dataclass(frozen=True)
class IntakeCheck:
    """What the intake form shows once an animal and a time are chosen: why the intake
    would be refused ("" when it would not), else the repeat that doubles the fee."""

    refusal: str
    repeat: RepeatInfo | None


def earlier_in_window(
    s: Session,
    animal_id: int,
    impounded_at: datetime,
    profile: Profile,
    exclude_id: int | None = None,
) -> RepeatInfo | None:
    """The latest earlier impoundment that makes one at ``impounded_at`` a repeat."""
    custody = to_local(impounded_at, profile).date()
    window_start = custody - timedelta(days=profile.repeat_window_days)
    rows = s.execute(
        select(Impoundment.id, Impoundment.custody_day)
        .where(
            Impoundment.animal_id == animal_id,
            Impoundment.custody_day >= window_start,
            Impoundment.custody_day <= custody,
            Impoundment.id != (exclude_id or -1),
        )
        .order_by(Impoundment.custody_day.desc(), Impoundment.id.desc())
    ).all()
    for imp_id, day in rows:
        if is_repeat_impoundment(custody, [day], profile):
            return RepeatInfo(imp_id, day, (custody - day).days)
    return None


def refuse_an_intake(
    s: Session,
    animal_id: int,
    name: str,
    impounded_at: datetime,
    zone: tzinfo,
    *,
    field: str = "animal",
    exclude_id: int | None = None,
) -> None:
    """Raise a ``ValidationError`` on ``field`` when the animal may not be impounded at
    ``impounded_at`` (``exclude_id``: the impoundment whose time is being corrected).

    The caller holds the animal's row (``load_animal(..., lock=True)``), so two
    workstations logging the same animal in at once cannot both find it outside."""
    imp = Impoundment
    others = imp.animal_id == animal_id, imp.id != (exclude_id or -1)
    hint = (
        "Choose the animal that was brought in"
        if field == "animal"
        else "Check the date and time of impoundment"
    )

    def day(at: datetime) -> str:
        return format_day(at.astimezone(zone).date())

    open_now = s.execute(
        select(imp.id, imp.impounded_at)
        .where(*others, imp.disposition_kind.is_(None))
        .order_by(imp.id)
        .limit(1)
    ).first()
    if open_now is not None:
        raise ValidationError(
            {
                field: f"{name} is in the pound now (impoundment #{open_now.id}, since "
                f"{day(open_now.impounded_at)}). Open that record instead of logging a "
                "new intake."
            }
        )
    died = s.execute(
        select(imp.id, imp.disposition_kind, imp.disposition_at)
        .where(*others, imp.disposition_kind.in_(DEAD), imp.disposition_at <= impounded_at)
        .limit(1)
    ).first()
    if died is not None:
        how = "euthanized" if died.disposition_kind == "euthanized" else "having died in the pound"
        raise ValidationError(
            {
                field: f"{name} is recorded as {how} on {day(died.disposition_at)} "
                f"(impoundment #{died.id}), before this time of impoundment. {hint}; if "
                "that record is wrong, a supervisor corrects its disposition first."
            }
        )
    held = s.execute(
        select(imp.id, imp.impounded_at, imp.disposition_at)
        .where(
            *others,
            imp.impounded_at <= impounded_at,
            or_(imp.disposition_at.is_(None), imp.disposition_at > impounded_at),
        )
        .order_by(imp.impounded_at)
        .limit(1)
    ).first()
    if held is not None:
        raise ValidationError(
            {
                field: f"{name} was in the pound at that time (impoundment #{held.id}, "
                f"{day(held.impounded_at)} to {day(held.disposition_at)}). {hint}."
            }
        )


def check_born(
    c: Collector,
    birth_date: date | None,
    impounded_at: datetime,
    zone: tzinfo,
    field: str = "impounded_at",
) -> None:
    """Add to ``c`` (on ``field``) that ``impounded_at`` is before the animal's recorded
    birth date: such a record cannot be true (a mistyped year, or the wrong animal chosen)."""
    if birth_date is None or impounded_at.astimezone(zone).date() >= birth_date:
        return
    c.add(
        field,
        f"This is before the animal's recorded birth date, {format_day(birth_date)}. "
        "Check the date and time of impoundment, or the animal chosen.",
    )


def check_custody_end(
    c: Collector, s: Session, imp: Impoundment, kind: str, at: datetime, zone: tzinfo
) -> None:
    """Add to ``c`` (on "at", or "kind" for a death) why ``imp`` cannot end with ``kind`` at
    ``at``: the animal was impounded again before then, or after a death recorded here."""
    other = Impoundment
    later = s.execute(
        select(other.id, other.impounded_at)
        .where(
            other.animal_id == imp.animal_id,
            other.id != imp.id,
            other.impounded_at >= imp.impounded_at,
        )
        .order_by(other.impounded_at, other.id)
        .limit(1)
    ).first()
    if later is None:
        return
    again = (
        f"The animal was impounded again on {format_day(later.impounded_at.astimezone(zone).date())}"
        f" (impoundment #{later.id})"
    )
    if kind in DEAD:
        c.add("kind", f"{again}: it did not die in this impoundment. Check the record chosen.")
    elif at > later.impounded_at:
        c.add("at", f"{again}: this impoundment ended before that.")


def intake_check(
    db: Database, animal_id: int, impounded_at: datetime, profile: Profile
) -> IntakeCheck:
    """For the intake form: would this animal be refused at this time, and if not, would
    it be a repeat impoundment? Save asks again in its own unit of work."""
    with db.read() as s:
        name = s.scalar(select(Animal.name).where(Animal.id == animal_id))
        try:
            refuse_an_intake(
                s, animal_id, name or f"Animal #{animal_id}", impounded_at, profile.timezone
            )
        except ValidationError as refused:
            return IntakeCheck(refused.by_field()["animal"], None)
        return IntakeCheck("", earlier_in_window(s, animal_id, impounded_at, profile))


__all__ = [
    "IntakeCheck",
    "RepeatInfo",
    "check_born",
    "check_custody_end",
    "earlier_in_window",
    "intake_check",
    "refuse_an_intake",
]
