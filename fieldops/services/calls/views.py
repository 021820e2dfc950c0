"""What the call screens and documents read: frozen values, never ORM rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal


@dataclass(frozen=True)
class FlagView:
    id: int
    person_id: int | None
    person: str
    address: str
    reason: str
    set_at: datetime
    set_by: str
    cleared_at: datetime | None
    cleared_by: str
    clear_reason: str
    version: int

    @property
    def active(self) -> bool:
        return self.cleared_at is None

    def words(self) -> str:
        on = self.person or self.address
        return f"CAUTION ({on}): {self.reason}"


@dataclass(frozen=True)
class DispatchView:
    id: int
    officer: str
    sent_at: datetime
    arrived_at: datetime | None
    cleared_at: datetime | None
    outcome: str | None
    outcome_label: str
    follow_up_on: date | None
    impoundment_id: int | None
    notes: str
    version: int


@dataclass(frozen=True)
class PetitionView:
    id: int
    complaint_id: int
    received_on: date
    petitioners: str
    animal: str
    violations: str
    reported_on: str
    will_testify: bool
    status: str
    missing: tuple[str, ...]
    referred_to: str | None
    referred_to_label: str
    referred_on: date | None
    recorded_by: str


@dataclass(frozen=True)
class ComplaintView:
    id: int
    call_id: int
    complainant: str
    complainant_adult: bool
    alleged: str
    logged_at: datetime
    notified_how: str | None
    notified_how_label: str
    notified_at: datetime | None
    notified_by: str
    petitions: tuple[PetitionView, ...]
    version: int


@dataclass(frozen=True)
class CitationView:
    id: int
    call_id: int | None
    person_id: int
    person: str
    person_address: str
    section: str
    offence_on: date
    offence_number: int
    forfeiture: Decimal | None
    warning: bool
    plus_court_costs: bool
    penalty_why: str
    address: str
    description: str
    court_on: date | None
    paid_on: date | None
    issued_by: str
    issued_at: datetime
    version: int
    # A supervisor's void (migration 0023): the citation stays on record, counted by no ladder.
    voided_at: datetime | None = None
    voided_by: str = ""
    void_reason: str = ""
    recorded_by: str = ""

    @property
    def voided(self) -> bool:
        return self.voided_at is not None


@dataclass(frozen=True)
class PartyView:
    """A person or an animal involved in a call beyond its caller and main owner/animal."""

    position: int
    kind: str  # "person" or "animal"
    role: str
    role_label: str
    person_id: int | None
    animal_id: int | None
    name: str  # the registry record in words, else the description
    description: str
    notes: str

    def words(self) -> str:
        ref = self.person_id or self.animal_id
        text = f"{self.role_label}: {self.name}" + (f" (#{ref})" if ref else "")
        return text + (f" — {self.notes}" if self.notes else "")


@dataclass(frozen=True)
class CallView:
    id: int
    received_at: datetime
    received_how: str
    anonymous: bool
    caller_id: int | None
    caller_name: str
    caller_phone: str
    address: str
    place: str
    kind: str
    kind_label: str
    section: str
    priority: int
    priority_label: str
    description: str
    owner_id: int | None
    owner: str
    animal_id: int | None
    animal: str
    recheck_of_id: int | None
    rechecks: tuple[int, ...]
    status: str
    officer: str
    outcome: str | None
    follow_up_on: date | None
    dispatches: tuple[DispatchView, ...]
    complaints: tuple[ComplaintView, ...]
    citations: tuple[CitationView, ...]
    flags: tuple[FlagView, ...]  # active cautions on the address or anyone involved
    recorded_by: str
    version: int
    parties: tuple[PartyView, ...] = ()  # the others involved, in their order
    owner_address: str = ""  # the registry owner's own address ("" when none is known)


@dataclass(frozen=True)
class CallRow:
    """One line of the calls list."""

    id: int
    received_at: datetime
    kind_label: str
    priority: int
    priority_label: str
    address: str
    status: str
    officer: str
    outcome_label: str
    follow_up_on: date | None
    flagged: bool


@dataclass(frozen=True)
class PlaceRecord:
    """One record at an address or of a person, from any module (the address history)."""

    module: str
    kind: str
    record_id: int
    when: datetime
    what: str
