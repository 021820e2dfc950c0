"""What the screens, documents and command line read of a licence: frozen values."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Animal, DogLicence, Person
from fieldops.errors import NotFoundError
from fieldops.services.context import fetch, require_row_id
from fieldops.services.people import format_address

STATUS_WORDS = {
    "current": "Current",
    "replaced": "Replaced (tag lost)",
    "transferred": "Transferred to a new owner",
    "void": "Void",
}
ORIGIN_WORDS = {
    "new": "New licence",
    "renewal": "Renewal",
    "replacement": "Replacement tag",
    "transfer": "Transfer",
}

# The fields an audit event keeps of a licence (its history reads them back).
SNAPSHOT = (
    "animal_id",
    "owner_id",
    "licence_year",
    "tag_number",
    "origin",
    "previous_id",
    "applied_on",
    "altered",
    "rate",
    "half_rate",
    "due_by",
    "late",
    "late_fee",
    "total",
    "rabies_certificate",
    "rabies_vaccinated_on",
    "rabies_expires_on",
    "paid_amount",
    "payment_method",
    "receipt_number",
    "issued_at",
    "issued_place",
    "impoundment_id",
    "status",
)


@dataclass(frozen=True)
class LicenceView:
    id: int
    version: int
    animal_id: int
    animal_name: str
    breed: str
    colour: str
    sex: str
    microchip: str
    birth_date: date | None
    owner_id: int
    owner_name: str
    owner_address: str  # one line: "12 Elm St, Madison, WI 53703"
    licence_year: int
    tag_number: str
    origin: str
    previous_id: int | None
    applied_on: date
    altered: bool
    rate: Decimal
    half_rate: bool
    due_by: date
    late: bool
    late_fee: Decimal
    total: Decimal
    rabies_certificate: str
    rabies_vaccinated_on: date | None
    rabies_expires_on: date | None
    paid_amount: Decimal
    payment_method: str
    receipt_number: str
    issued_at: datetime
    issued_place: str
    impoundment_id: int | None
    issued_by: str
    status: str
    ended_at: datetime | None
    void_reason: str
    notes: str

    @property
    def status_words(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)

    @property
    def origin_words(self) -> str:
        return ORIGIN_WORDS.get(self.origin, self.origin)

    @property
    def current(self) -> bool:
        return self.status == "current"


def build_view(s: Session, lic: DogLicence) -> LicenceView:
    animal = fetch(s, Animal, lic.animal_id)
    owner = fetch(s, Person, lic.owner_id)
    return LicenceView(
        id=lic.id,
        version=lic.version,
        animal_id=animal.id,
        animal_name=animal.name or f"Dog #{animal.id}",
        breed=animal.breed,
        colour=animal.colour,
        sex=animal.sex,
        microchip=animal.microchip or "",
        birth_date=animal.birth_date,
        owner_id=owner.id,
        owner_name=owner.full_name,
        owner_address=format_address(owner.address, owner.city, owner.state, owner.postal_code),
        licence_year=lic.licence_year,
        tag_number=lic.tag_number,
        origin=lic.origin,
        previous_id=lic.previous_id,
        applied_on=lic.applied_on,
        altered=lic.altered,
        rate=lic.rate,
        half_rate=lic.half_rate,
        due_by=lic.due_by,
        late=lic.late,
        late_fee=lic.late_fee,
        total=lic.total,
        rabies_certificate=lic.rabies_certificate,
        rabies_vaccinated_on=lic.rabies_vaccinated_on,
        rabies_expires_on=lic.rabies_expires_on,
        paid_amount=lic.paid_amount,
        payment_method=lic.payment_method,
        receipt_number=lic.receipt_number,
        issued_at=lic.issued_at,
        issued_place=lic.issued_place,
        impoundment_id=lic.impoundment_id,
        issued_by=lic.issued_by,
        status=lic.status,
        ended_at=lic.ended_at,
        void_reason=lic.void_reason,
        notes=lic.notes,
    )


def load_licence(s: Session, licence_id: int, *, lock: bool = False) -> DogLicence:
    """The licence; ``lock`` holds its row until commit (FOR UPDATE on PostgreSQL)."""
    require_row_id(DogLicence, licence_id)
    lic = s.get(DogLicence, licence_id, with_for_update=lock)
    if lic is None:
        raise NotFoundError(f"There is no dog licence #{licence_id}.")
    return lic


def get_licence(db: Database, licence_id: int) -> LicenceView:
    """One licence as the screens show it."""
    with db.read() as s:
        return build_view(s, load_licence(s, licence_id))
