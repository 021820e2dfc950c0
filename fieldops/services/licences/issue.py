"""Issuing a dog licence, at the counter or at the pound, and renewing one (58-533(c)).

``preview`` tells the operator, while the form is being filled, what the rules make of
it: the quote (rate, half rate, late fee, total, the day it was due, and why) or the
fields that refuse it. ``issue`` checks the same again and writes the licence, the
registry animal's licence number and year (which the pound's release reads as the
dog's licence evidence), and the audit trail in one unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    PAYMENT_METHOD_CODES,
    Animal,
    DogLicence,
    Impoundment,
    Person,
    RabiesVaccination,
)
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import (
    LicenceQuote,
    Profile,
    format_day,
    licence_on_sale,
    licence_quote,
    licensable_on,
    local_date,
    rabies_ok_for_licence,
)
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    now,
    remember_save,
    snapshot,
)
from fieldops.services.licences.views import SNAPSHOT, LicenceView, build_view, load_licence

ENTITY = "dog_licence"


@dataclass(frozen=True)
class LicenceInput:
    """What the operator enters for a licence. Blank rabies facts are taken from the
    registry's latest vaccination; a blank ``altered`` from the registry animal."""

    animal_id: int | None
    licence_year: int | None
    tag_number: str
    owner_id: int | None = None  # blank: the registry animal's owner
    applied_on: date | None = None  # blank: today
    altered: bool | None = None
    rabies_certificate: str = ""
    rabies_vaccinated_on: date | None = None
    rabies_expires_on: date | None = None
    acquired_on: date | None = None
    resident_since: date | None = None
    paid_amount: Decimal | str | None = None  # blank: the quote's total
    payment_method: str = "cash"
    receipt_number: str = ""  # blank: the licence's own number
    impoundment_id: int | None = None  # issued at the pound, for this impoundment
    renews_id: int | None = None  # the licence of an earlier year this one renews
    notes: str = ""


@dataclass(frozen=True)
class Preview:
    """The quote for a form as it stands, or why there is none yet (field -> message)."""

    quote: LicenceQuote | None
    errors: dict[str, str] = field(default_factory=dict)
    animal_name: str = ""
    owner_name: str = ""


@dataclass(frozen=True)
class _Facts:
    animal: Animal
    owner: Person
    year: int
    applied_on: date
    altered: bool
    certificate: str
    vaccinated_on: date | None
    expires_on: date | None
    quote: LicenceQuote
    renews: DogLicence | None


def latest_vaccination(s: Session, animal_id: int, on: date) -> RabiesVaccination | None:
    """The registry's latest vaccination given on or before ``on``."""
    return s.scalars(
        select(RabiesVaccination)
        .where(RabiesVaccination.animal_id == animal_id, RabiesVaccination.vaccinated_on <= on)
        .order_by(RabiesVaccination.vaccinated_on.desc(), RabiesVaccination.id.desc())
        .limit(1)
    ).first()


def _animal(
    s: Session, inp: LicenceInput, c: Collector, renews: DogLicence | None
) -> Animal | None:
    animal_id = inp.animal_id
    if inp.impoundment_id is not None:
        imp = v.row(s, Impoundment, inp.impoundment_id)
        if imp is None:
            c.add("impoundment_id", f"There is no impoundment #{inp.impoundment_id}.")
        elif animal_id is not None and imp.animal_id != animal_id:
            c.add("impoundment_id", f"Impoundment #{imp.id} is of another animal.")
        elif imp.disposed:
            c.add("impoundment_id", f"Impoundment #{imp.id} is closed: the dog has left the pound.")
        else:
            animal_id = imp.animal_id
    if animal_id is None and renews is not None:
        animal_id = renews.animal_id
    if animal_id is None:
        c.add("animal_id", "Choose the dog to license.")
        return None
    animal = v.row(s, Animal, animal_id)
    if animal is None:
        c.add("animal_id", f"There is no animal #{animal_id}.")
        return None
    if animal.species != "dog":
        c.add("animal_id", "Only a dog is licensed (58-533(c)); this animal is not a dog.")
        return None
    if animal.archived_at is not None:
        c.add("animal_id", "This animal's record is archived.")
    if renews is not None and renews.animal_id != animal.id:
        c.add("renews_id", f"Licence #{renews.id} is of another dog.")
    return animal


def _owner(s: Session, inp: LicenceInput, animal: Animal | None, c: Collector) -> Person | None:
    owner_id = inp.owner_id if inp.owner_id is not None else (animal.owner_id if animal else None)
    if owner_id is None:
        c.add("owner_id", "Choose the dog's owner (the licence is issued in the owner's name).")
        return None
    owner = v.row(s, Person, owner_id)
    if owner is None:
        c.add("owner_id", f"There is no person #{owner_id}.")
    return owner


def _year(inp: LicenceInput, today: date, renews: DogLicence | None, c: Collector) -> int | None:
    year = inp.licence_year
    if year is None and renews is not None:
        year = renews.licence_year + 1
    if year is None:
        c.add("licence_year", "Give the licence year, e.g. 2026.")
        return None
    if isinstance(year, bool) or not isinstance(year, int):
        c.add("licence_year", "The licence year must be a year, e.g. 2026.")
        return None
    if not 1990 <= year <= today.year + 1:
        c.add("licence_year", f"The licence year must be between 1990 and {today.year + 1}.")
        return None
    if renews is not None and year <= renews.licence_year:
        c.add(
            "licence_year",
            f"A renewal is for a year after {renews.licence_year}, the year it renews.",
        )
        return None
    return year


def check_tag(
    s: Session, c: Collector, tag: str, year: int | None, label: str = "tag_number"
) -> None:
    """The tag must be new in its year: no two dogs, and no lost tag, share one."""
    if not tag or year is None:
        return
    other = s.scalars(
        select(DogLicence).where(
            DogLicence.licence_year == year,
            DogLicence.tag_number == tag,
        )
    ).first()
    if other is not None:
        c.add(
            label,
            f"Tag {tag} is already licence #{other.id} for {year} "
            f"({'void' if other.status == 'void' else 'issued'}); give the next tag.",
        )


def _rabies(
    s: Session, inp: LicenceInput, animal: Animal, applied_on: date, c: Collector
) -> tuple[str, date, date | None] | None:
    """The certificate the licence rests on (the form's, else the registry's latest), or
    None after naming the field that refuses it (58-533(c)(5))."""
    certificate = v.clean(inp.rabies_certificate)
    vaccinated_on, expires_on = inp.rabies_vaccinated_on, inp.rabies_expires_on
    if vaccinated_on is None and not certificate:
        vacc = latest_vaccination(s, animal.id, applied_on)
        if vacc is not None:
            certificate = vacc.certificate_number
            vaccinated_on, expires_on = vacc.vaccinated_on, vacc.expires_on
    if vaccinated_on is None:
        c.add(
            "rabies_vaccinated_on",
            "No rabies vaccination on record: enter the certificate's date of vaccination "
            "(58-533(c)(5)).",
        )
        return None
    if expires_on is not None and expires_on < vaccinated_on:
        c.add("rabies_expires_on", "The vaccination cannot expire before it was given.")
        return None
    if rabies_ok_for_licence(applied_on, vaccinated_on, expires_on):
        return certificate, vaccinated_on, expires_on
    if expires_on is not None and expires_on < applied_on:
        c.add(
            "rabies_expires_on",
            f"The rabies certificate expired on {format_day(expires_on)}: no licence "
            "until the dog is vaccinated again (58-533(c)(5)).",
        )
    else:
        c.add(
            "rabies_vaccinated_on",
            f"Vaccinated on {format_day(vaccinated_on)}: a licence needs a rabies "
            "vaccination within the three years before the application (58-533(c)(5)).",
        )
    return None


# licence_quote's arguments, as the form's fields
_QUOTE_FIELDS = {
    "year": "licence_year",
    "altered": "altered",
    "acquired_on": "acquired_on",
    "resident_since": "resident_since",
}


def _quote(
    inp: LicenceInput,
    animal: Animal,
    year: int,
    applied_on: date,
    altered: bool,
    profile: Profile,
    c: Collector,
) -> LicenceQuote | None:
    """The rules' quote, or None after naming the field that makes none."""
    if animal.birth_date is not None and animal.birth_date > applied_on:
        c.add("birth_date", "The dog's birth date is after the application day.")
        return None
    try:
        return licence_quote(
            year,
            applied_on,
            profile,
            birth_date=animal.birth_date,
            altered=altered,
            acquired_on=inp.acquired_on,
            resident_since=inp.resident_since,
        )
    except ValueError as e:
        # The rules name the argument they refuse ("applied_on: ..."): blame that field.
        name, _, said = str(e).partition(": ")
        if name == "birth_date" and animal.birth_date is not None:
            c.add(
                "birth_date",
                f"{animal.name or 'The dog'} turns five months old on "
                f"{format_day(licensable_on(animal.birth_date))}: no licence is needed for "
                f"{year}.",
            )
        elif name == "applied_on":
            c.add(
                "applied_on",
                f"A {year} licence is sold from {format_day(licence_on_sale(year))}: the "
                "application day is too early for it.",
            )
        else:
            c.add(_QUOTE_FIELDS.get(name, "licence_year"), said or str(e))
        return None


def _check(s: Session, inp: LicenceInput, profile: Profile, today: date) -> _Facts:
    c = Collector()
    renews = None
    if inp.renews_id is not None:
        renews = v.row(s, DogLicence, inp.renews_id)
        if renews is None:
            c.add("renews_id", f"There is no dog licence #{inp.renews_id}.")
    animal = _animal(s, inp, c, renews)
    owner = _owner(s, inp, animal, c)
    year = _year(inp, today, renews, c)
    col = DogLicence.__table__.c
    tag = v.clean(inp.tag_number).upper()
    v.required(c, "tag_number", tag, "The tag number", col.tag_number)
    check_tag(s, c, tag, year)
    v.optional_len(
        c,
        "rabies_certificate",
        v.clean(inp.rabies_certificate),
        "The certificate",
        col.rabies_certificate,
    )
    v.optional_len(
        c, "receipt_number", v.clean(inp.receipt_number), "The receipt number", col.receipt_number
    )
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    c.check(
        inp.payment_method in PAYMENT_METHOD_CODES,
        "payment_method",
        "Choose how it was paid: cash, check, card or other.",
    )
    days = True
    for name, label in (
        ("applied_on", "The application day"),
        ("rabies_vaccinated_on", "The vaccination date"),
        ("rabies_expires_on", "The expiry date"),
        ("acquired_on", "The day the owner got the dog"),
        ("resident_since", "The day the owner moved to the city"),
    ):
        days &= v.day(c, name, getattr(inp, name), label)
    applied_on = inp.applied_on or today
    if days:
        v.not_future(c, "applied_on", inp.applied_on, "The application day", today)
        v.not_future(
            c, "rabies_vaccinated_on", inp.rabies_vaccinated_on, "The vaccination date", today
        )
        v.not_future(c, "acquired_on", inp.acquired_on, "The day the owner got the dog", today)
        # A day still to come would make it the obligation day: no late fee, due in 2099.
        v.not_future(
            c, "resident_since", inp.resident_since, "The day the owner moved to the city", today
        )
    if animal is not None and year is not None:
        current = s.scalars(
            select(DogLicence).where(
                DogLicence.animal_id == animal.id,
                DogLicence.licence_year == year,
                DogLicence.status == "current",
            )
        ).first()
        if current is not None:
            c.add(
                "animal_id",
                f"{animal.name or 'This dog'} already has licence #{current.id} (tag "
                f"{current.tag_number}) for {year}: replace its tag or transfer it instead.",
            )
    altered = inp.altered if inp.altered is not None else (animal.altered if animal else None)
    if animal is not None and altered is None:
        c.add("altered", "Say whether the dog is spayed or neutered (the rates differ).")
    if not days:
        c.raise_if_any()
    rabies = _rabies(s, inp, animal, applied_on, c) if animal is not None else None
    quote = None
    if animal is not None and year is not None and altered is not None:
        quote = _quote(inp, animal, year, applied_on, altered, profile, c)
    c.raise_if_any()
    assert animal is not None and owner is not None and year is not None and altered is not None
    assert quote is not None and rabies is not None
    certificate, vaccinated_on, expires_on = rabies
    return _Facts(
        animal,
        owner,
        year,
        applied_on,
        altered,
        certificate,
        vaccinated_on,
        expires_on,
        quote,
        renews,
    )


def preview(db: Database, inp: LicenceInput, profile: Profile) -> Preview:
    """The quote for the form as it stands, or the fields that refuse it (the form shows
    these live, before anything is saved)."""
    today = local_date(now(), profile)
    with db.read() as s:
        try:
            f = _check(s, inp, profile, today)
        except ValidationError as exc:
            return Preview(None, exc.by_field())
        return Preview(f.quote, {}, f.animal.name, f.owner.full_name)


def own_receipt(licence_id: int) -> str:
    return f"DL-{licence_id:06d}"


def record_on_animal(s: Session, by: Actor, animal: Animal, lic: DogLicence) -> None:
    """Show the licence on the registry animal (the release reads it), unless the animal
    already shows a later year's; audited on the animal."""
    if animal.licence_year is not None and animal.licence_year > lic.licence_year:
        return
    before = {"licence_number": animal.licence_number, "licence_year": animal.licence_year}
    after = {"licence_number": lic.tag_number, "licence_year": lic.licence_year}
    if before == after:
        return
    animal.licence_number, animal.licence_year = lic.tag_number, lic.licence_year
    # "update" as any change of the animal's fields, so its audit trail replays them.
    audit(
        s,
        by,
        "update",
        "animal",
        animal.id,
        before=before,
        after=after,
        reason=f"Dog licence #{lic.id} ({lic.tag_number}, {lic.licence_year})",
    )


@requires(Permission.LICENCES)
def issue_licence(
    db: Database,
    actor: Actor,
    inp: LicenceInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> LicenceView:
    """Issue (or, with ``renews_id``, renew) a licence; refused naming the fields.

    A retry with the same ``client_key`` returns the licence already issued."""
    with db.write() as s:
        done = existing_save(s, client_key, ENTITY, actor)
        if done is not None:
            return build_view(s, load_licence(s, done))
        at = now()
        f = _check(s, inp, profile, local_date(at, profile))
        c = Collector()
        paid = (
            f.quote.total
            if inp.paid_amount in (None, "")
            else v.money(c, "paid_amount", inp.paid_amount, "The amount paid")
        )
        c.raise_if_any()
        assert paid is not None
        if paid < f.quote.total:
            raise ValidationError(
                {
                    "paid_amount": f"The licence costs ${f.quote.total:,.2f}; ${paid:,.2f} was entered."
                }
            )
        q = f.quote
        lic = DogLicence(
            animal_id=f.animal.id,
            owner_id=f.owner.id,
            licence_year=f.year,
            tag_number=v.clean(inp.tag_number).upper(),
            origin="renewal" if f.renews is not None else "new",
            previous_id=f.renews.id if f.renews is not None else None,
            applied_on=f.applied_on,
            altered=f.altered,
            rate=q.rate,
            half_rate=q.half_rate,
            due_by=q.due_by,
            late=q.late,
            late_fee=q.late_fee,
            total=q.total,
            rabies_certificate=f.certificate,
            rabies_vaccinated_on=f.vaccinated_on,
            rabies_expires_on=f.expires_on,
            paid_amount=paid,
            payment_method=inp.payment_method,
            receipt_number=v.clean(inp.receipt_number),
            issued_at=at,
            issued_place="pound" if inp.impoundment_id is not None else "counter",
            impoundment_id=inp.impoundment_id,
            issued_by=actor.username,
            status="current",
            notes=(inp.notes or "").strip(),
        )
        s.add(lic)
        s.flush()
        if not lic.receipt_number:
            lic.receipt_number = own_receipt(lic.id)
            s.flush()
        record_on_animal(s, actor, f.animal, lic)
        action = "licence_renew" if f.renews is not None else "licence_issue"
        audit(
            s, actor, action, ENTITY, lic.id, after=snapshot(lic, SNAPSHOT) | {"why": dict(q.why)}
        )
        remember_save(s, client_key, ENTITY, lic.id, actor)
        return build_view(s, lic)
