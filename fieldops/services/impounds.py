"""Impoundment intake and the pound's records (city code 58-526, 58-528)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    REASON_CODES,
    Animal,
    Disposition,
    Impoundment,
    ImpoundPhoto,
    Person,
)
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires, roles_with
from fieldops.rules import Profile, impound_hold, to_local
from fieldops.rules.impound import surrender_signed_by_owner
from fieldops.services import validate as v
from fieldops.services.animals import (
    AnimalInput,
    add_animal,
    approximate_age,
    load_animal,
    validate_animal,
)
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    fetch,
    jsonable,
    now,
    remember_save,
    snapshot,
)
from fieldops.services.impound_rows import current_of, load_impoundment
from fieldops.services.impound_views import (
    AnimalDescription,
    DispositionView,
    EvidenceView,
    ImpoundView,
    PartyView,
    PaymentLineView,
    PaymentView,
)
from fieldops.services.intake_check import (
    check_born,
    earlier_in_window,
    refuse_an_intake,
)
from fieldops.services.payments import record_fees
from fieldops.services.people import format_address
from fieldops.services.staff import list_staff

MAX_PHOTO_BYTES = 8 * 1024 * 1024
PHOTO_TYPES = {"image/jpeg", "image/png"}


@dataclass(frozen=True)
class Photo:
    filename: str
    media_type: str
    content: bytes


@dataclass(frozen=True)
class IntakeInput:
    impounded_at: datetime | None
    officer: str
    reason: str
    animal_id: int | None = None
    new_animal: AnimalInput | None = None
    found_place: str = ""
    found_at: datetime | None = None
    reason_detail: str = ""
    bit_person: bool = False
    owner_id: int | None = None
    kennel: str = ""
    notes: str = ""
    photo: Photo | None = None
    # What the officer saw: spayed/neutered (None: not known), condition, injuries.
    altered: bool | None = None
    condition: str = ""
    injuries: str = ""


def registered_chip_message(chip: str, animal_id: int, name: str) -> str:
    return (
        f"Microchip {chip} is already registered to animal #{animal_id}"
        f"{' ' + name if name else ''}: choose it in the list below with "
        "\u201cUse this animal\u201d instead of describing a new one."
    )


def _has_description(a: AnimalInput) -> bool:
    """A description someone could recognise the animal by (58-528): breed, colour or markings."""
    return any(v.clean(x) for x in (a.breed, a.colour, a.markings))


def validate_intake(
    inp: IntakeInput, at: datetime, profile: Profile, *, registered: tuple[int, str] | None = None
) -> IntakeInput:
    """Check an intake; ``registered`` is the active registry animal (id, name) that
    already has the new animal's microchip, if any."""
    c = Collector()
    col = Impoundment.__table__.c
    when_ok = v.instant(c, "impounded_at", inp.impounded_at, "Date and time of impoundment")
    found_ok = v.instant(c, "found_at", inp.found_at, "When the animal was found")
    if inp.impounded_at is None:
        c.add("impounded_at", "Date and time of impoundment are required.")
    elif when_ok and inp.impounded_at > at + timedelta(minutes=5):
        c.add("impounded_at", "Impoundment cannot be in the future.")
    if (
        inp.found_at is not None
        and inp.impounded_at is not None
        and when_ok
        and found_ok
        and inp.found_at > inp.impounded_at
    ):
        c.add("found_at", "The animal cannot be found after it was impounded.")
    v.required(c, "officer", v.clean(inp.officer), "Impounding officer", col.officer)
    c.check(inp.reason in REASON_CODES, "reason", "Choose the reason for impoundment.")
    if inp.reason == "other":
        c.check(bool(v.clean(inp.reason_detail)), "reason_detail", "Say what the reason was.")
    v.optional_len(
        c, "reason_detail", v.clean(inp.reason_detail), "Reason details", col.reason_detail
    )
    if inp.reason == "owner_surrender":
        c.check(
            inp.owner_id is not None,
            "owner_id",
            "An owner surrender needs the owner who signed the relinquishment.",
        )
    c.check(
        (inp.animal_id is None) != (inp.new_animal is None),
        "animal",
        "Choose an animal from the registry or describe a new one.",
    )
    v.optional_len(c, "kennel", v.clean(inp.kennel), "Kennel", col.kennel)
    v.required(
        c, "found_place", v.clean(inp.found_place), "Where the animal was found", col.found_place
    )
    v.optional_len(c, "condition", v.clean(inp.condition), "Condition", col.condition)
    v.optional_len(c, "injuries", (inp.injuries or "").strip(), "Injuries", 4000)
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    if inp.photo is not None:
        c.check(inp.photo.media_type in PHOTO_TYPES, "photo", "The photo must be a JPEG or PNG.")
        c.check(
            0 < len(inp.photo.content) <= MAX_PHOTO_BYTES,
            "photo",
            "The photo must be smaller than 8 MB.",
        )
    if inp.new_animal is not None:
        try:
            validate_animal(inp.new_animal, to_local(at, profile).date())
        except ValidationError as exc:  # re-key animal errors under "animal." for the form
            for e in exc.errors:
                c.add(f"animal.{e.field}", e.message)
        birth = inp.new_animal.birth_date
        if when_ok and inp.impounded_at is not None and isinstance(birth, date):
            check_born(c, birth, inp.impounded_at, profile.timezone)
        if registered is not None:
            c.add(
                "animal.microchip",
                registered_chip_message(
                    v.clean(inp.new_animal.microchip).replace(" ", ""), *registered
                ),
            )
        elif not _has_description(inp.new_animal):
            c.add(
                "animal.breed",
                "Describe the animal (breed, colour or markings), or use "
                "a registry animal from the list below.",
            )
    c.raise_if_any()
    return inp


def _chip_holder(s: Session, chip: str) -> tuple[int, str] | None:
    chip = v.clean(chip).replace(" ", "")
    if not chip:
        return None
    row = s.execute(
        select(Animal.id, Animal.name)
        .where(Animal.microchip == chip, Animal.archived_at.is_(None))
        .limit(1)
    ).first()
    return (row.id, row.name) if row else None


def _check_ids(s: Session, inp: IntakeInput) -> None:
    """The animal and owner named must be on file, in the unit of work that saves."""
    c = Collector()
    v.exists(c, s, Animal, inp.animal_id, "animal_id", "The animal")
    v.exists(c, s, Person, inp.owner_id, "owner_id", "The owner")
    c.raise_if_any()


def _check_registry_animal(
    animal: Animal, inp: IntakeInput, impounded_at: datetime, profile: Profile
) -> None:
    """What the registry says of the animal chosen: it was born by then, and a surrender of
    an animal with an owner of record is signed by that owner (Wis. Stat. 173.13(3)(c))."""
    c = Collector()
    check_born(c, animal.birth_date, impounded_at, profile.timezone)
    if inp.reason == "owner_surrender" and not surrender_signed_by_owner(
        inp.owner_id, animal.owner_id
    ):
        c.add(
            "owner_id",
            "The animal's owner of record must sign an owner surrender. Choose that owner, "
            "or log the intake with another reason.",
        )
    c.raise_if_any()


@requires(Permission.INTAKE)
def intake(
    db: Database,
    actor: Actor,
    inp: IntakeInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> ImpoundView:
    """Log an animal into the pound; computes and records its hold (58-526).

    A retry with the same ``client_key`` returns the intake already logged (asked
    before validating: the retried form's new microchip is on file by then)."""
    at = now()
    if client_key is not None:
        with db.read() as s:
            if (done := existing_save(s, client_key, "impoundment", actor)) is not None:
                return build_view(s, load_impoundment(s, done), profile, at)
    registered = None
    if inp.new_animal is not None and inp.new_animal.microchip.strip():
        with db.read() as s:
            registered = _chip_holder(s, inp.new_animal.microchip)
    inp = validate_intake(inp, at, profile, registered=registered)
    impounded_at = inp.impounded_at
    assert impounded_at is not None  # validate_intake refuses a missing time
    hold = impound_hold(
        impounded_at,
        profile,
        bit_person=inp.bit_person,
        surrendered=inp.reason == "owner_surrender",
    )
    with db.write() as s:
        if (done := existing_save(s, client_key, "impoundment", actor)) is not None:
            return build_view(s, load_impoundment(s, done), profile, at)
        _check_ids(s, inp)
        if inp.new_animal is not None:
            holder = _chip_holder(s, inp.new_animal.microchip)  # registered meanwhile?
            if holder is not None:
                raise ValidationError(
                    {
                        "animal.microchip": registered_chip_message(
                            v.clean(inp.new_animal.microchip).replace(" ", ""), *holder
                        )
                    }
                )
            new = inp.new_animal
            if new.altered is None:
                new = replace(new, altered=inp.altered)
            animal = add_animal(s, actor, new, to_local(at, profile).date())
        else:
            assert inp.animal_id is not None  # validate_intake: one or the other
            animal = load_animal(s, inp.animal_id, lock=True)
            _check_registry_animal(animal, inp, impounded_at, profile)
            name = animal.name or f"Animal #{animal.id}"
            refuse_an_intake(s, animal.id, name, impounded_at, profile.timezone)
        repeat = earlier_in_window(s, animal.id, impounded_at, profile)
        imp = Impoundment(
            animal_id=animal.id,
            impounded_at=inp.impounded_at,
            custody_day=hold.custody_day,
            last_claim_day=hold.last_claim_day,
            release_to_others_from=hold.release_to_others_from,
            found_place=v.clean(inp.found_place),
            found_at=inp.found_at,
            officer=v.clean(inp.officer),
            reason=inp.reason,
            reason_detail=v.clean(inp.reason_detail),
            bit_person=inp.bit_person,
            surrendered=inp.reason == "owner_surrender",
            owner_id=inp.owner_id if inp.owner_id is not None else animal.owner_id,
            kennel=v.clean(inp.kennel),
            notes=(inp.notes or "").strip(),
            altered=inp.altered,
            condition=v.clean(inp.condition),
            injuries=(inp.injuries or "").strip(),
            repeat_of_id=repeat.impoundment_id if repeat else None,
            recorded_by=actor.username,
        )
        s.add(imp)
        s.flush()
        if inp.photo is not None:
            s.add(
                ImpoundPhoto(
                    impoundment_id=imp.id,
                    filename=inp.photo.filename[:200],
                    media_type=inp.photo.media_type,
                    content=inp.photo.content,
                    added_at=at,
                )
            )
        after = snapshot(
            imp,
            (
                "animal_id",
                "impounded_at",
                "officer",
                "reason",
                "reason_detail",
                "bit_person",
                "owner_id",
                "kennel",
                "last_claim_day",
                "repeat_of_id",
                "found_place",
                "found_at",
                "altered",
                "condition",
                "injuries",
            ),
        )
        audit(s, actor, "intake", "impoundment", imp.id, after=after)
        audit(
            s,
            actor,
            "impounded",
            "animal",
            animal.id,
            after={"impoundment": imp.id, "impounded_at": jsonable(inp.impounded_at)},
        )
        remember_save(s, client_key, "impoundment", imp.id, actor)
        return build_view(s, imp, profile, at)


@dataclass(frozen=True)
class OfficerChoices:
    """Who the intake form offers as the impounding officer."""

    names: tuple[str, ...]  # active staff who go out on calls, officers first
    last: str  # the officer on this user's latest intake, "" if none


OFFICER_ROLES = roles_with(Permission.CALLS)  # officers first (the table's order)


@requires(Permission.INTAKE)
def officer_choices(db: Database, actor: Actor) -> OfficerChoices:
    """Staff to choose the officer from, and the one this user named last time.

    The last officer comes from the database (this user's latest intake), not
    from one workstation's settings: a clerk at another desk gets the same."""
    staff = [x for x in list_staff(db) if x.active and x.role in OFFICER_ROLES]
    staff.sort(key=lambda x: (OFFICER_ROLES.index(x.role), (x.full_name or x.username).lower()))
    names = tuple(dict.fromkeys(x.full_name or x.username for x in staff))
    with db.read() as s:
        last = s.scalar(
            select(Impoundment.officer)
            .where(Impoundment.recorded_by == actor.username)
            .order_by(Impoundment.id.desc())
            .limit(1)
        )
    return OfficerChoices(names, last or "")


def party_view(
    person_id: int,
    full_name: str,
    address: str,
    city: str,
    state: str,
    postal_code: str,
    phone: str,
) -> PartyView:
    """A person as the records show them, from the person's columns: the one place a
    view's party is made, whether the person was read as an object or a column row."""
    return PartyView(person_id, full_name, format_address(address, city, state, postal_code), phone)


def _party(s: Session, person_id: int | None) -> PartyView | None:
    if person_id is None:
        return None
    p = fetch(s, Person, person_id)
    return party_view(p.id, p.full_name, p.address, p.city, p.state, p.postal_code, p.phone)


def animal_description(
    *,
    animal_id: int,
    name: str,
    species: str,
    species_detail: str,
    breed: str,
    colour: str,
    sex: str,
    altered: bool | None,
    birth_date: date | None,
    markings: str,
    microchip: str | None,
    licence_number: str | None,
    licence_year: int | None,
    on: date,
    seen_altered: bool | None = None,
) -> AnimalDescription:
    """``describe_animal`` from the animal's columns (a column row, no ORM object):
    ``altered`` is the registry's, ``seen_altered`` the officer's at intake."""
    licence = f"{licence_number} ({licence_year})" if licence_number else ""
    return AnimalDescription(
        animal_id,
        name,
        species,
        species_detail,
        breed,
        colour,
        sex,
        altered if seen_altered is None else seen_altered,
        approximate_age(birth_date, on),
        markings,
        microchip or "",
        licence,
    )


def describe_animal(a: Animal, on: date, altered: bool | None = None) -> AnimalDescription:
    """The animal as it was impounded: its age on the custody day ``on``, and spayed or
    neutered as the officer saw it at intake (``altered``), else as the registry says."""
    return animal_description(
        animal_id=a.id,
        name=a.name,
        species=a.species,
        species_detail=a.species_detail,
        breed=a.breed,
        colour=a.colour,
        sex=a.sex,
        altered=a.altered,
        birth_date=a.birth_date,
        markings=a.markings,
        microchip=a.microchip,
        licence_number=a.licence_number,
        licence_year=a.licence_year,
        on=on,
        seen_altered=altered,
    )


def _disposition_view(s: Session, d: Disposition) -> DispositionView:
    return DispositionView(
        id=d.id,
        kind=d.kind,
        at=d.at,
        recipient=_party(s, d.recipient_id),
        to_owner=d.to_owner,
        transfer_to=d.transfer_to,
        notes=d.notes,
        recorded_by=d.recorded_by,
        preserve_until=d.preserve_until,
        hopeless_or_threat=d.hopeless_or_threat,
        evidence=tuple(
            EvidenceView(
                e.code, e.label, e.evidence, e.overridden, e.override_reason, e.override_by
            )
            for e in d.evidence
        ),
        corrects_id=d.corrects_id,
        correction_reason=d.correction_reason,
        euthanasia_basis=d.euthanasia_basis,
        decided_by=d.decided_by,
    )


def build_view(s: Session, imp: Impoundment, profile: Profile, at: datetime) -> ImpoundView:
    animal = fetch(s, Animal, imp.animal_id)
    hold = impound_hold(
        imp.impounded_at, profile, bit_person=imp.bit_person, surrendered=imp.surrendered
    )
    all_disp = s.scalars(
        select(Disposition).where(Disposition.impoundment_id == imp.id).order_by(Disposition.id)
    ).all()
    current = current_of(all_disp)  # the same rows: not read twice
    repeat_day = fetch(s, Impoundment, imp.repeat_of_id).custody_day if imp.repeat_of_id else None
    payments = tuple(
        PaymentView(
            p.id,
            p.paid_at,
            _party(s, p.payer_id),
            p.method,
            p.receipt_number,
            p.recorded_by,
            tuple(PaymentLineView(x.kind, x.description, x.amount) for x in p.lines),
        )
        for p in imp.payments
    )
    has_photo = (
        s.scalar(select(ImpoundPhoto.id).where(ImpoundPhoto.impoundment_id == imp.id).limit(1))
        is not None
    )
    return ImpoundView(
        id=imp.id,
        animal=describe_animal(animal, imp.custody_day, imp.altered),
        impounded_at=imp.impounded_at,
        custody_day=imp.custody_day,
        found_place=imp.found_place,
        found_at=imp.found_at,
        officer=imp.officer,
        reason=imp.reason,
        reason_detail=imp.reason_detail,
        bit_person=imp.bit_person,
        surrendered=imp.surrendered,
        owner=_party(s, imp.owner_id),
        kennel=imp.kennel,
        notes=imp.notes,
        last_claim_day=imp.last_claim_day,
        release_to_others_from=imp.release_to_others_from,
        hold_why=dict(hold.why),
        repeat_of=imp.repeat_of_id,
        repeat_custody_day=repeat_day,
        disposition=_disposition_view(s, current) if current else None,
        payments=payments,
        fees=record_fees(s, imp, current, max(at, imp.impounded_at), profile),
        has_photo=has_photo,
        recorded_by=imp.recorded_by,
        corrections=tuple(
            _disposition_view(s, d) for d in all_disp if current and d.id != current.id
        ),
        condition=imp.condition,
        injuries=imp.injuries,
        hold_days=hold.hold_days,
        no_claim_period=hold.no_claim_period,
        version=imp.version,
    )


def get_impoundment(
    db: Database, impoundment_id: int, profile: Profile, at: datetime | None = None
) -> ImpoundView:
    with db.read() as s:
        return build_view(s, load_impoundment(s, impoundment_id), profile, at or now())


def get_photo(db: Database, impoundment_id: int) -> Photo | None:
    with db.read() as s:
        p = s.scalars(
            select(ImpoundPhoto)
            .where(ImpoundPhoto.impoundment_id == impoundment_id)
            .order_by(ImpoundPhoto.id.desc())
            .limit(1)
        ).first()
        return Photo(p.filename, p.media_type, p.content) if p else None


def impoundment_ids_for_animal(db: Database, animal_id: int) -> tuple[int, ...]:
    with db.read() as s:
        return tuple(
            s.scalars(
                select(Impoundment.id)
                .where(Impoundment.animal_id == animal_id)
                .order_by(Impoundment.impounded_at.desc())
            )
        )
