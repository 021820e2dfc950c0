"""Correcting a saved impoundment's intake details (58-528: the record must be true).

An intake is a legal record, so a correction is never silent: it names its
reason, and the audit trail keeps every old value beside the new one.

Who may correct what (decided here, as the disposition correction decides in
``dispositions.py``):

- The details that describe the animal and how it came in (where and when it
  was found, the officer, the reason's details, spayed/neutered, condition,
  injuries, and the registry animal's name, breed, colour, sex and markings)
  may be corrected by any staff member with a reason: they fix what was typed
  at the counter and change nobody's deadline, like moving the kennel
  (``move_kennel``, also here).
- What the hold is computed from (the time of impoundment, whether the animal
  bit a person, an owner surrender) moves the owner's claim deadline (58-526,
  ``rules.impound_hold``). Only a supervisor may correct it, as only a
  supervisor corrects a disposition; the hold is recomputed through the rules,
  and the old and new hold are both audited. Once the animal has a final
  disposition the hold has been relied on (a release was checked against it),
  so it can no longer be corrected here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import REASON_CODES, Animal, Impoundment
from fieldops.errors import (
    Collector,
    PermissionDeniedError,
    StaleRecordError,
    UserError,
    ValidationError,
)
from fieldops.permissions import Permission, has_permission, requires
from fieldops.rules import Profile, impound_hold, to_local
from fieldops.rules.impound import surrender_signed_by_owner
from fieldops.services import validate as v
from fieldops.services.animals import FIELDS as ANIMAL_FIELDS
from fieldops.services.animals import AnimalInput, load_animal, validate_animal
from fieldops.services.context import Actor, audit, jsonable, now
from fieldops.services.impound_rows import current_disposition, load_impoundment
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import build_view
from fieldops.services.intake_check import check_born, earlier_in_window, refuse_an_intake

HOLD_FIELDS = ("impounded_at", "bit_person", "reason")  # reason: only to or from a surrender
ANIMAL_DETAILS = ("name", "breed", "colour", "sex", "markings")


@dataclass(frozen=True)
class IntakeDetails:
    """The correctable details of an intake, as the record shows them."""

    impounded_at: datetime
    bit_person: bool
    reason: str
    reason_detail: str
    found_place: str
    found_at: datetime | None
    officer: str
    altered: bool | None
    condition: str
    injuries: str
    name: str
    breed: str
    colour: str
    sex: str
    markings: str

    @classmethod
    def of(cls, view: ImpoundView) -> IntakeDetails:
        a = view.animal
        return cls(
            view.impounded_at,
            view.bit_person,
            view.reason,
            view.reason_detail,
            view.found_place,
            view.found_at,
            view.officer,
            a.altered,
            view.condition,
            view.injuries,
            a.name,
            a.breed,
            a.colour,
            a.sex,
            a.markings,
        )


def _current(imp: Impoundment, animal: Animal) -> IntakeDetails:
    return IntakeDetails(
        imp.impounded_at,
        imp.bit_person,
        imp.reason,
        imp.reason_detail,
        imp.found_place,
        imp.found_at,
        imp.officer,
        animal.altered if imp.altered is None else imp.altered,
        imp.condition,
        imp.injuries,
        animal.name,
        animal.breed,
        animal.colour,
        animal.sex,
        animal.markings,
    )


def _cleaned(d: IntakeDetails) -> IntakeDetails:
    return replace(
        d,
        reason_detail=v.clean(d.reason_detail),
        found_place=v.clean(d.found_place),
        officer=v.clean(d.officer),
        condition=v.clean(d.condition),
        injuries=(d.injuries or "").strip(),
        name=v.clean(d.name),
        breed=v.clean(d.breed),
        colour=v.clean(d.colour),
        sex=(d.sex or "unknown").strip().lower(),
        markings=(d.markings or "").strip(),
    )


def _changes(a: IntakeDetails, b: IntakeDetails) -> list[str]:
    return [f.name for f in fields(IntakeDetails) if getattr(a, f.name) != getattr(b, f.name)]


def _moves_hold(changed: list[str], old: IntakeDetails, new: IntakeDetails) -> list[str]:
    surrender = (old.reason == "owner_surrender") != (new.reason == "owner_surrender")
    return [f for f in changed if f in HOLD_FIELDS and (f != "reason" or surrender)]


def _validate(
    new: IntakeDetails,
    imp: Impoundment,
    animal: Animal,
    reason: str,
    at: datetime,
    profile: Profile,
) -> None:
    c = Collector()
    c.check(bool(v.clean(reason)), "correction_reason", "Say why the intake is corrected.")
    v.optional_len(c, "correction_reason", v.clean(reason), "The reason", 2000)
    times_ok = v.instant(c, "impounded_at", new.impounded_at, "Date and time of impoundment")
    times_ok &= v.instant(c, "found_at", new.found_at, "When the animal was found")
    if new.impounded_at is None:
        c.add("impounded_at", "Date and time of impoundment are required.")
    if not times_ok or new.impounded_at is None:
        c.raise_if_any()  # nothing below can compare them
    c.check(
        new.impounded_at <= at + timedelta(minutes=5),
        "impounded_at",
        "Impoundment cannot be in the future.",
    )
    first_payment = min((p.paid_at for p in imp.payments), default=None)
    if first_payment is not None and new.impounded_at > first_payment:
        c.add("impounded_at", "A payment was recorded before this time.")
    if new.found_at is not None and new.found_at > new.impounded_at:
        c.add("found_at", "The animal cannot be found after it was impounded.")
    col = Impoundment.__table__.c
    v.required(c, "officer", new.officer, "Impounding officer", col.officer)
    v.required(c, "found_place", new.found_place, "Where the animal was found", col.found_place)
    c.check(new.reason in REASON_CODES, "reason", "Choose the reason for impoundment.")
    if new.reason == "other":
        c.check(bool(new.reason_detail), "reason_detail", "Say what the reason was.")
    if new.reason == "owner_surrender":
        c.check(
            imp.owner_id is not None,
            "reason",
            "An owner surrender needs the owner on the record who signed the relinquishment.",
        )
        c.check(
            imp.reason == "owner_surrender"  # as recorded: checked when it was
            or imp.owner_id is None
            or surrender_signed_by_owner(imp.owner_id, animal.owner_id),
            "reason",
            "The owner on this record is not the animal's owner of record, who must sign an "
            "owner surrender.",
        )
    check_born(c, animal.birth_date, new.impounded_at, profile.timezone)
    v.optional_len(c, "reason_detail", new.reason_detail, "Reason details", col.reason_detail)
    v.optional_len(c, "condition", new.condition, "Condition", col.condition)
    v.optional_len(c, "injuries", new.injuries, "Injuries", 4000)
    try:
        validate_animal(_animal_input(animal, new), to_local(at, profile).date())
    except ValidationError as exc:
        for e in exc.errors:
            c.add(f"animal.{e.field}", e.message)
    c.raise_if_any()


def _animal_input(animal: Animal, new: IntakeDetails) -> AnimalInput:
    values: dict[str, Any] = {f: getattr(animal, f) for f in ANIMAL_FIELDS}
    values.update({f: getattr(new, f) for f in ANIMAL_DETAILS})
    values["microchip"] = values["microchip"] or ""
    values["licence_number"] = values["licence_number"] or ""
    return AnimalInput(**values)


def _apply_hold(s: Session, imp: Impoundment, new: IntakeDetails, profile: Profile) -> None:
    surrendered = new.reason == "owner_surrender"
    hold = impound_hold(
        new.impounded_at, profile, bit_person=new.bit_person, surrendered=surrendered
    )
    imp.impounded_at, imp.bit_person, imp.surrendered = (
        new.impounded_at,
        new.bit_person,
        surrendered,
    )
    imp.custody_day, imp.last_claim_day = hold.custody_day, hold.last_claim_day
    imp.release_to_others_from = hold.release_to_others_from
    repeat = earlier_in_window(s, imp.animal_id, new.impounded_at, profile, exclude_id=imp.id)
    imp.repeat_of_id = repeat.impoundment_id if repeat else None


HOLD_RECORD = (
    "custody_day",
    "last_claim_day",
    "release_to_others_from",
    "surrendered",
    "repeat_of_id",
)


@requires(Permission.INTAKE)
def correct_intake(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    original: IntakeDetails,
    corrected: IntakeDetails,
    reason: str,
    profile: Profile,
) -> ImpoundView:
    """Correct an intake's details, with a reason; a changed hold is recomputed by the rules.

    ``original`` is what the form was filled from: if the record changed since
    (another workstation), nothing is saved and the user is told to reopen it.
    """
    at = now()
    with db.write() as s:
        imp = load_impoundment(s, impoundment_id, lock=True)
        animal = load_animal(s, imp.animal_id, lock=True)  # as an intake of it would
        old = _current(imp, animal)
        if _changes(_cleaned(old), _cleaned(original)):
            raise StaleRecordError(
                f"Impoundment #{imp.id} was changed by someone else while you were correcting "
                "it. Reopen it to see the changes; your correction was not saved."
            )
        new = _cleaned(corrected)
        changed = _changes(old, new)
        _validate(new, imp, animal, reason, at, profile)
        if not changed:
            raise UserError("Nothing was corrected: every detail is as recorded.")
        moves = _moves_hold(changed, old, new)
        if moves and not has_permission(s, actor, Permission.CORRECTIONS):
            raise PermissionDeniedError(
                "Correcting the time of impoundment, a bite or an owner surrender moves the "
                f"hold and needs a supervisor; {actor.username} may not."
            )
        if moves and current_disposition(s, imp.id) is not None:
            raise ValidationError(
                dict.fromkeys(
                    moves,
                    "The animal already has a final disposition, which "
                    "relied on this hold: it cannot be changed now.",
                )
            )
        if "impounded_at" in moves:
            name = animal.name or f"Animal #{animal.id}"
            refuse_an_intake(
                s,
                animal.id,
                name,
                new.impounded_at,
                profile.timezone,
                field="impounded_at",
                exclude_id=imp.id,
            )
        before = {f: jsonable(getattr(old, f)) for f in changed}
        after = {f: jsonable(getattr(new, f)) for f in changed}
        if moves:
            before.update({f: jsonable(getattr(imp, f)) for f in HOLD_RECORD})
            _apply_hold(s, imp, new, profile)
            after.update({f: jsonable(getattr(imp, f)) for f in HOLD_RECORD})
        for f in (
            "reason",
            "reason_detail",
            "found_place",
            "found_at",
            "officer",
            "altered",
            "condition",
            "injuries",
        ):
            if f in changed:
                setattr(imp, f, getattr(new, f))
        animal_changed = [f for f in ANIMAL_DETAILS if f in changed]
        if animal_changed:
            for f in animal_changed:
                setattr(animal, f, getattr(new, f))
            audit(
                s,
                actor,
                "update",
                "animal",
                animal.id,
                before={f: before[f] for f in animal_changed},
                after={f: after[f] for f in animal_changed},
                reason=f"Intake of impoundment #{imp.id} corrected: {v.clean(reason)}",
            )
        s.flush()
        audit(
            s,
            actor,
            "correct_intake",
            "impoundment",
            imp.id,
            before=before,
            after=after,
            reason=v.clean(reason),
        )
        return build_view(s, imp, profile, at)


@requires(Permission.INTAKE)
def move_kennel(
    db: Database, actor: Actor, impoundment_id: int, kennel: str, *, expected_version: int
) -> None:
    """Move the animal to another kennel; refused if the record changed since the screen
    loaded ``expected_version``; the kennel it is already in writes nothing."""
    with db.write() as s:
        imp = load_impoundment(s, impoundment_id, lock=True)
        if imp.version != expected_version:
            raise StaleRecordError(
                f"Impoundment #{impoundment_id} was changed by someone else since it was "
                "opened (its kennel may have been moved): the kennel was not changed. "
                "Look at the record again and move it if still needed."
            )
        before = imp.kennel
        kennel = v.one_line("kennel", kennel, "Kennel", Impoundment.__table__.c.kennel)
        if kennel == before:
            return
        imp.kennel = kennel
        audit(
            s,
            actor,
            "update",
            "impoundment",
            imp.id,
            before={"kennel": before},
            after={"kennel": imp.kennel},
        )
