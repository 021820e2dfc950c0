"""The register of veterinary clinics (Wis. Stat. 95.21; city code 58-527(c), (e)).

A clinic quarantine may be ordered only at a licensed clinic; the pound may be
registered as one. Entering or changing a clinic is a supervisor's task.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Clinic
from fieldops.errors import Collector, StaleRecordError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    changed_only,
    existing_save,
    fetch,
    remember_save,
    snapshot,
)

FIELDS = ("name", "address", "phone", "licensed", "is_pound")


@dataclass(frozen=True)
class ClinicInput:
    name: str
    address: str = ""
    phone: str = ""
    licensed: bool = True
    is_pound: bool = False  # the pound itself: a quarantine there is paid at its counter


@dataclass(frozen=True)
class ClinicView:
    id: int
    version: int
    name: str
    address: str
    phone: str
    licensed: bool
    archived: bool
    is_pound: bool = False

    @property
    def label(self) -> str:
        return self.name + ("" if self.licensed else " (not licensed)")


def _view(c: Clinic) -> ClinicView:
    return ClinicView(
        c.id,
        c.version,
        c.name,
        c.address,
        c.phone,
        c.licensed,
        c.archived_at is not None,
        c.is_pound,
    )


def _validate(s: Session, inp: ClinicInput, clinic_id: int | None) -> ClinicInput:
    c = Collector()
    name = v.clean(inp.name)
    col = Clinic.__table__.c
    v.required(c, "name", name, "Clinic name", col.name)
    v.optional_len(c, "address", v.clean(inp.address), "Address", col.address)
    if v.text(c, "phone", v.clean(inp.phone), "Phone", col.phone):
        v.phone(c, "phone", v.clean(inp.phone))
    if name and v.storable(name, col.name):
        other = s.scalar(
            select(Clinic.id).where(
                func.lower(Clinic.name) == name.lower(), Clinic.id != (clinic_id or -1)
            )
        )
        c.check(other is None, "name", f"A clinic named {name} is already registered.")
    c.raise_if_any()
    return ClinicInput(
        name, v.clean(inp.address), v.clean(inp.phone), bool(inp.licensed), bool(inp.is_pound)
    )


@requires(Permission.CLINICS)
def create_clinic(
    db: Database, actor: Actor, inp: ClinicInput, *, client_key: str | None = None
) -> ClinicView:
    """Register a clinic (a supervisor's task); a retry with the same ``client_key``
    returns the clinic already registered."""
    with db.write() as s:
        if (done := existing_save(s, client_key, "clinic", actor)) is not None:
            return _view(fetch(s, Clinic, done))
        inp = _validate(s, inp, None)
        clinic = Clinic(
            name=inp.name,
            address=inp.address,
            phone=inp.phone,
            licensed=inp.licensed,
            is_pound=inp.is_pound,
        )
        s.add(clinic)
        s.flush()
        audit(s, actor, "create", "clinic", clinic.id, after=snapshot(clinic, FIELDS))
        remember_save(s, client_key, "clinic", clinic.id, actor)
        return _view(clinic)


@requires(Permission.CLINICS)
def update_clinic(
    db: Database, actor: Actor, clinic_id: int, version: int, inp: ClinicInput
) -> ClinicView:
    """Change a clinic's details or licence status (a supervisor's task); the old values
    stay in the audit trail. Quarantines already ordered there keep their clinic."""
    with db.write() as s:
        clinic = fetch(s, Clinic, clinic_id)
        if clinic.version != version:
            raise StaleRecordError(
                f"{clinic.name} was changed by someone else since you "
                "opened it; open it again to see the change."
            )
        inp = _validate(s, inp, clinic_id)
        before = snapshot(clinic, FIELDS)
        clinic.name, clinic.address, clinic.phone = inp.name, inp.address, inp.phone
        clinic.licensed, clinic.is_pound = inp.licensed, inp.is_pound
        s.flush()
        b, a = changed_only(before, snapshot(clinic, FIELDS))
        if a:
            audit(s, actor, "update", "clinic", clinic.id, before=b, after=a)
        return _view(clinic)


def list_clinics(db: Database, *, licensed_only: bool = False) -> tuple[ClinicView, ...]:
    with db.read() as s:
        q = select(Clinic).where(Clinic.archived_at.is_(None)).order_by(Clinic.name)
        if licensed_only:
            q = q.where(Clinic.licensed.is_(True))
        return tuple(_view(c) for c in s.scalars(q))


def licensed_clinic(s: Session, clinic_id: int | None, field: str) -> Clinic:
    """The clinic a quarantine is placed at: registered and licensed, or a field error."""
    if clinic_id is None:
        raise ValidationError({field: "Choose the licensed veterinary clinic."})
    clinic = v.row(s, Clinic, clinic_id)
    if clinic is None or clinic.archived_at is not None:
        raise ValidationError({field: "That clinic is not in the register."})
    if not clinic.licensed:
        raise ValidationError(
            {
                field: f"{clinic.name} is not a licensed veterinary clinic: a "
                "quarantine can only be held at a licensed one "
                "(city code 58-527(c), (e))."
            }
        )
    return clinic
