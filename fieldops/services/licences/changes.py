"""What happens to a licence after it is issued: a lost tag replaced, the licence
transferred to the dog's new owner, or the licence voided with a reason.

Each is one audited unit of work that refuses a stale licence (``version``, the one
the form opened). A replacement or a transfer is a new licence row naming the one it
follows; the old one is kept, marked "replaced" or "transferred".
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import PAYMENT_METHOD_CODES, Animal, DogLicence, Person
from fieldops.errors import Collector, StaleRecordError, UserError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, local_date
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    fetch,
    now,
    remember_save,
    snapshot,
)
from fieldops.services.licences.issue import (
    ENTITY,
    check_tag,
    own_receipt,
    record_on_animal,
)
from fieldops.services.licences.views import SNAPSHOT, LicenceView, build_view, load_licence


def replacement_fee(profile: Profile) -> Decimal:
    """The fee for a replacement tag: the profile's ``licence_replacement_fee`` when the
    jurisdiction sets one; the city's ordinance sets none, so nothing."""
    fee = getattr(profile, "licence_replacement_fee", None)
    return fee if isinstance(fee, Decimal) else Decimal("0.00")


def _open(s: Session, licence_id: int, version: int | None, doing: str) -> DogLicence:
    lic = load_licence(s, licence_id, lock=True)
    if version is not None and lic.version != version:
        raise StaleRecordError(
            f"Dog licence #{lic.id} was changed by someone else since it was opened: "
            f"nothing was {doing}. Open it again to see what changed."
        )
    if lic.status != "current":
        raise UserError(
            f"Dog licence #{lic.id} is {lic.status}: only a current licence can be {doing}."
        )
    return lic


def _follow(old: DogLicence, origin: str, actor: Actor, **values: object) -> DogLicence:
    """A new licence row continuing ``old``: same dog, year and quote, unless given."""
    data = {k: getattr(old, k) for k in SNAPSHOT}
    data.update(
        origin=origin,
        previous_id=old.id,
        issued_by=actor.username,
        status="current",
        impoundment_id=None,
        issued_place="counter",
        notes="",
    )
    data.update(values)
    return DogLicence(**data)


@requires(Permission.LICENCES)
def replace_tag(
    db: Database,
    actor: Actor,
    licence_id: int,
    new_tag: str,
    profile: Profile,
    *,
    version: int | None = None,
    paid_amount: Decimal | str | None = None,
    payment_method: str = "cash",
    receipt_number: str = "",
    client_key: str | None = None,
) -> LicenceView:
    """A lost tag replaced: a new tag for the same licence year; the old tag is never
    issued again that year."""
    with db.write() as s:
        done = existing_save(s, client_key, ENTITY, actor)
        if done is not None:
            return build_view(s, load_licence(s, done))
        old = _open(s, licence_id, version, "replaced")
        c = Collector()
        col = DogLicence.__table__.c
        tag = v.clean(new_tag).upper()
        v.required(c, "tag_number", tag, "The new tag number", col.tag_number)
        check_tag(s, c, tag, old.licence_year)
        v.optional_len(
            c, "receipt_number", v.clean(receipt_number), "The receipt", col.receipt_number
        )
        c.check(
            payment_method in PAYMENT_METHOD_CODES,
            "payment_method",
            "Choose how it was paid: cash, check, card or other.",
        )
        fee = replacement_fee(profile)
        paid = (
            fee
            if paid_amount in (None, "")
            else v.money(c, "paid_amount", paid_amount, "The amount paid")
        )
        c.raise_if_any()
        assert paid is not None
        if paid < fee:
            raise ValidationError(
                {"paid_amount": f"A replacement tag costs ${fee:,.2f}; ${paid:,.2f} was entered."}
            )
        at = now()
        new = _follow(
            old,
            "replacement",
            actor,
            tag_number=tag,
            applied_on=local_date(at, profile),
            late=False,
            late_fee=Decimal("0.00"),
            total=fee,
            paid_amount=paid,
            payment_method=payment_method,
            receipt_number=v.clean(receipt_number),
            issued_at=at,
        )
        before = snapshot(old, ("status",))
        old.status, old.ended_at = "replaced", at
        s.add(new)
        s.flush()
        if not new.receipt_number:
            new.receipt_number = own_receipt(new.id)
        audit(
            s,
            actor,
            "licence_replaced",
            ENTITY,
            old.id,
            before=before,
            after={"status": "replaced", "replaced_by": new.id, "tag_number": tag},
        )
        audit(s, actor, "licence_replacement", ENTITY, new.id, after=snapshot(new, SNAPSHOT))
        animal = fetch(s, Animal, old.animal_id)
        if animal.licence_number == old.tag_number and animal.licence_year == old.licence_year:
            record_on_animal(s, actor, animal, new)
        remember_save(s, client_key, ENTITY, new.id, actor)
        return build_view(s, new)


@requires(Permission.LICENCES)
def transfer_licence(
    db: Database,
    actor: Actor,
    licence_id: int,
    new_owner_id: int | None,
    profile: Profile,
    *,
    version: int | None = None,
    on: date | None = None,
    client_key: str | None = None,
) -> LicenceView:
    """The licence follows the dog to its new owner: the same tag and year, in the new
    owner's name, and the registry animal's owner becomes the new owner."""
    with db.write() as s:
        done = existing_save(s, client_key, ENTITY, actor)
        if done is not None:
            return build_view(s, load_licence(s, done))
        old = _open(s, licence_id, version, "transferred")
        c = Collector()
        owner = None
        if new_owner_id is None:
            c.add("owner_id", "Choose the new owner.")
        else:
            owner = v.row(s, Person, new_owner_id)
            if owner is None:
                c.add("owner_id", f"There is no person #{new_owner_id}.")
            elif owner.id == old.owner_id:
                c.add("owner_id", "This person already holds the licence.")
        at = now()
        today = local_date(at, profile)
        if v.day(c, "on", on, "The day of the change of owner"):
            v.not_future(c, "on", on, "The day of the change of owner", today)
            # The licence follows the dog from its application on, never before it.
            c.check(
                (on or today) >= old.applied_on,
                "on",
                f"The licence was applied for on {format_day(old.applied_on)}: it cannot "
                "pass to a new owner before that day.",
            )
        c.raise_if_any()
        assert owner is not None
        new = _follow(
            old,
            "transfer",
            actor,
            owner_id=owner.id,
            applied_on=on or today,
            late=False,
            late_fee=Decimal("0.00"),
            total=Decimal("0.00"),
            paid_amount=Decimal("0.00"),
            receipt_number="",
            issued_at=at,
        )
        before = snapshot(old, ("status",))
        old.status, old.ended_at = "transferred", at
        s.add(new)
        s.flush()
        new.receipt_number = own_receipt(new.id)
        audit(
            s,
            actor,
            "licence_transferred",
            ENTITY,
            old.id,
            before=before,
            after={"status": "transferred", "transferred_to": new.id, "owner_id": owner.id},
        )
        audit(s, actor, "licence_transfer", ENTITY, new.id, after=snapshot(new, SNAPSHOT))
        animal = fetch(s, Animal, old.animal_id)
        if animal.owner_id != owner.id:
            audit(
                s,
                actor,
                "update",
                "animal",
                animal.id,
                before={"owner_id": animal.owner_id},
                after={"owner_id": owner.id},
                reason=f"Dog licence #{old.id} transferred to the new owner",
            )
            animal.owner_id = owner.id
        remember_save(s, client_key, ENTITY, new.id, actor)
        return build_view(s, new)


@requires(Permission.CORRECTIONS)
def void_licence(
    db: Database,
    actor: Actor,
    licence_id: int,
    reason: str,
    *,
    version: int | None = None,
) -> LicenceView:
    """Void a licence issued in error (a supervisor's task), with the reason; the dog no
    longer shows it as its licence."""
    with db.write() as s:
        lic = _open(s, licence_id, version, "voided")
        c = Collector()
        why = (reason or "").strip()
        v.required(c, "reason", why, "The reason", 2000)
        c.raise_if_any()
        at = now()
        lic.status, lic.ended_at, lic.void_reason = "void", at, why
        audit(
            s,
            actor,
            "licence_void",
            ENTITY,
            lic.id,
            before={"status": "current"},
            after={"status": "void"},
            reason=why,
        )
        animal = fetch(s, Animal, lic.animal_id)
        if animal.licence_number == lic.tag_number and animal.licence_year == lic.licence_year:
            after = s.scalars(
                select(DogLicence)
                .where(DogLicence.animal_id == animal.id, DogLicence.status == "current")
                .order_by(DogLicence.licence_year.desc(), DogLicence.id.desc())
                .limit(1)
            ).first()
            before = {"licence_number": animal.licence_number, "licence_year": animal.licence_year}
            animal.licence_number = after.tag_number if after else None
            animal.licence_year = after.licence_year if after else None
            audit(
                s,
                actor,
                "update",
                "animal",
                animal.id,
                before=before,
                after={
                    "licence_number": animal.licence_number,
                    "licence_year": animal.licence_year,
                },
                reason=f"Dog licence #{lic.id} voided",
            )
        s.flush()
        return build_view(s, lic)
