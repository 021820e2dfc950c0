"""Frozen data the impoundment services return to the UI and the reports.

Nothing here is an ORM object: a screen or a PDF gets plain values that stay
true after the session that read them has closed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from fieldops.rules.release import EUTHANASIA_BASES

REASONS = {
    "at_large": "At large",
    "owner_surrender": "Owner surrender",
    "bite": "Bite",
    "seizure": "Seizure",
    "other": "Other",
}

DISPOSITIONS = {
    "reclaimed": "Reclaimed by owner",
    "adopted": "Adopted",
    "transferred": "Transferred",
    "euthanized": "Euthanized",
    "died": "Died",
    "escaped": "Escaped",
}

PAYMENT_KINDS = {
    "impound": "Impound fee",
    "boarding": "Boarding",
    "adoption": "Adoption fee",
    "licence": "Dog licence",
    "rabies_prepayment": "Rabies vaccination (prepaid)",
    "other": "Other",
}

PAYMENT_METHODS = {"cash": "Cash", "check": "Check", "card": "Card", "other": "Other"}

# An animal in custody (``ImpoundView.status_code``): programs read the code, people the label.
IN_CUSTODY_STATUS = {"on_hold": "On hold", "adoptable": "Adoptable"}


@dataclass(frozen=True)
class PartyView:
    """A person as the record needs them: name and address."""

    id: int
    full_name: str
    address: str
    phone: str = ""

    @property
    def has_name_and_address(self) -> bool:
        return bool(self.full_name.strip()) and bool(self.address.strip())


@dataclass(frozen=True)
class AnimalDescription:
    """What 58-528 calls "a description of the impounded animal"."""

    id: int
    name: str
    species: str
    species_detail: str
    breed: str
    colour: str
    sex: str
    altered: bool | None
    approximate_age: str
    markings: str
    microchip: str
    licence: str

    @property
    def summary(self) -> str:
        kind = (
            self.species_detail if self.species == "other" and self.species_detail else self.species
        )
        bits = [self.name or "(no name)", kind, self.breed, self.colour, self.sex]
        return ", ".join(b for b in bits if b and b != "unknown")


@dataclass(frozen=True)
class PaymentLineView:
    kind: str
    description: str
    amount: Decimal

    @property
    def label(self) -> str:
        return self.description or PAYMENT_KINDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class PaymentView:
    id: int
    paid_at: datetime
    payer: PartyView | None
    method: str
    receipt_number: str
    recorded_by: str
    lines: tuple[PaymentLineView, ...]

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0.00"))


@dataclass(frozen=True)
class EvidenceView:
    code: str
    label: str
    evidence: str
    overridden: bool = False
    override_reason: str = ""
    override_by: str = ""


@dataclass(frozen=True)
class DispositionView:
    id: int
    kind: str
    at: datetime
    recipient: PartyView | None
    to_owner: bool
    transfer_to: str
    notes: str
    recorded_by: str
    preserve_until: date | None
    hopeless_or_threat: bool
    evidence: tuple[EvidenceView, ...] = ()
    corrects_id: int | None = None
    correction_reason: str = ""
    euthanasia_basis: str = ""  # a code of fieldops.rules.EUTHANASIA_BASES; "" when not recorded
    decided_by: str = ""  # who decided a humane destruction

    @property
    def label(self) -> str:
        return DISPOSITIONS.get(self.kind, self.kind)

    @property
    def euthanasia_basis_label(self) -> str:
        """Why the animal was humanely destroyed, as the operator chose it."""
        if not self.euthanasia_basis:
            return "Not recorded"
        return EUTHANASIA_BASES.get(self.euthanasia_basis, self.euthanasia_basis)


@dataclass(frozen=True)
class FeeLine:
    label: str
    amount: Decimal
    kind: str = "other"  # the payment kind that settles it: "impound", "boarding", "adoption"
    charge: str = ""  # a module's charge code (fieldops.modules.ChargeLine); "" for the pound's
    paid: Decimal = Decimal("0.00")  # paid against ``charge`` (module charges only)


@dataclass(frozen=True)
class FeeSummary:
    """The fee quote as of a moment, with what has been paid against it."""

    as_of: datetime
    to_owner: bool
    lines: tuple[FeeLine, ...]
    total: Decimal
    paid: Decimal
    repeat_of: int | None  # id of the earlier impoundment that doubled the fee
    repeat_note: str
    schedule: str  # which council resolution's fees apply

    @property
    def balance(self) -> Decimal:
        return max(self.total - self.paid, Decimal("0.00"))


@dataclass(frozen=True)
class ImpoundView:
    """Everything the impoundment screen and the 58-528 record sheet show."""

    id: int
    animal: AnimalDescription
    impounded_at: datetime
    custody_day: date
    found_place: str
    found_at: datetime | None
    officer: str
    reason: str
    reason_detail: str
    bit_person: bool
    surrendered: bool
    owner: PartyView | None
    kennel: str
    notes: str
    last_claim_day: date
    release_to_others_from: datetime
    hold_why: dict[str, str]
    repeat_of: int | None
    repeat_custody_day: date | None
    disposition: DispositionView | None
    payments: tuple[PaymentView, ...]
    fees: FeeSummary | None
    has_photo: bool
    recorded_by: str
    corrections: tuple[DispositionView, ...] = field(default=())
    condition: str = ""  # as seen at intake
    injuries: str = ""
    hold_days: int = 0  # the hold's length in days (the rules' ImpoundHold.hold_days)
    no_claim_period: bool = False  # the rules' ImpoundHold.no_claim_period: a surrender
    version: int = 0  # the record's version as read: an edit sends it back (stale check)
    # What the action that returned this view asks the user to know ("": nothing), as a
    # correction that could not give the animal back to its owner in the registry.
    notice: str = ""

    @property
    def reason_label(self) -> str:
        return REASONS.get(self.reason, self.reason)

    @property
    def in_custody(self) -> bool:
        return self.disposition is None

    @property
    def fees_paid_total(self) -> Decimal:
        return sum((p.total for p in self.payments), Decimal("0.00"))

    def status_code(self, at: datetime) -> str:
        """ "closed" (a final disposition), "adoptable" (the hold has ended) or "on_hold"."""
        if self.disposition is not None:
            return "closed"
        return "adoptable" if at >= self.release_to_others_from else "on_hold"

    def status(self, at: datetime) -> str:
        if self.disposition is not None:
            return self.disposition.label
        return IN_CUSTODY_STATUS[self.status_code(at)]


@dataclass(frozen=True)
class ImpoundRow:
    """A row of the impounds list."""

    id: int
    status: str
    animal: str
    species: str
    impounded_at: datetime
    days_held: int
    last_claim_day: date
    owner: str
    kennel: str
    # "on_hold", "adoptable", or the disposition's kind: programs read the code,
    # people the status beside it.
    status_code: str = ""
