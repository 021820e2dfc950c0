"""What the permit screens and documents show: frozen views, never ORM objects."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from fieldops.rules.permits import COUNTED_INCIDENT_ENDINGS

KIND_LABELS = {"chicken": "Chicken permit", "fancier": "Animal fancier's permit"}
KIND_SECTIONS = {"chicken": "58-533(b)", "fancier": "58-533(a)"}

STATUS_LABELS = {
    "applied": "Applied: to issue",
    "issued": "Issued",
    "refused": "Refused",
    "revoked": "Revoked",
    "not_renewed": "Not renewed",
    "appeal_pending": "Appeal pending: enforcement stayed",
}

INCIDENT_LABELS = {
    "attack": "Attack",
    "noise": "Noise",
    "at_large": "At large",
    "waste": "Waste",
    "licensing": "Licensing",
    "number": "Number of animals",
    "other": "Other nuisance",
}
ENDING_LABELS = {"warning": "Warning", "citation": "Citation", "none": "No action"}
PURPOSE_LABELS = {"renewal": "Review before renewal", "revocation": "Review to revoke"}
OUTCOME_LABELS = {"upheld": "Decision upheld", "reversed": "Decision reversed"}


@dataclass(frozen=True)
class ProblemView:
    code: str
    field: str  # the form field the problem is about
    message: str


@dataclass(frozen=True)
class ApplicationView:
    id: int
    first: bool
    year: int
    applied_on: date
    hoa_exists: bool | None
    hoa_consent: bool | None
    hoa_consent_on: date | None
    hens: int | None
    roosters: int | None
    setback_feet: int | None
    neighbour_consent: bool | None
    residence_setback_feet: int | None  # asked where the profile sets a distance (village)
    state_registered_on: date | None  # asked where the profile sets a state registration
    application_fee: Decimal
    annual_fee: Decimal
    late_fee: Decimal
    total: Decimal
    late: bool
    due_by: date | None
    fee_why: tuple[tuple[str, str], ...]  # (what, why) as the rules explained the quote
    refused: bool
    problems: tuple[ProblemView, ...]
    notes: str
    issued: bool  # an issue rests on it
    recorded_by: str


@dataclass(frozen=True)
class IssueView:
    year: int
    issued_on: date
    expires_on: date
    renewal: bool
    recorded_by: str
    paid_amount: Decimal | None = None  # None: issued before payments were recorded
    payment_method: str | None = None
    receipt_number: str | None = None


@dataclass(frozen=True)
class AnimalLine:
    species: str
    count: int
    names: str = ""


@dataclass(frozen=True)
class ListEntryView:
    id: int
    kind: str  # "change" (noted, list due) or "update" (the whole list)
    changed_on: date
    updated_on: date | None
    due_by: date
    animals: tuple[AnimalLine, ...]
    note: str
    late: bool  # an update made after its due day
    due_why: str  # "Why this date?"
    recorded_by: str


@dataclass(frozen=True)
class IncidentView:
    id: int
    occurred_on: date
    kind: str
    kind_label: str
    ending: str
    ending_label: str
    citation_number: str
    description: str
    recorded_by: str
    distance_feet: int | None = None  # a neighbour's complaint: feet from their property

    @property
    def counts(self) -> bool:
        """Whether the annual review counts it (it ended in a warning or a citation)."""
        return self.ending in COUNTED_INCIDENT_ENDINGS


@dataclass(frozen=True)
class DecisionView:
    decided_on: date
    outcome: str
    outcome_label: str
    authority: str
    reason: str
    recorded_by: str


@dataclass(frozen=True)
class AppealView:
    id: int
    filed_on: date
    grounds: str
    decision: DecisionView | None
    recorded_by: str


@dataclass(frozen=True)
class NoticeView:
    id: int
    mailed_on: date
    article_number: str
    appeal_by: date
    appeal_why: str  # "Why this date?"
    recorded_by: str


@dataclass(frozen=True)
class ReviewView:
    id: int
    year: int
    review_day: date
    purpose: str
    purpose_label: str
    renew: bool
    counted: tuple[date, ...]
    incidents: tuple[IncidentView, ...]  # the ones it counted
    notes: str
    notice: NoticeView | None
    appeal: AppealView | None
    recorded_by: str
    may_reapply_on: date | None = None  # a chicken permit's ban on a new one, where set


@dataclass(frozen=True)
class RevocationView:
    revoked_on: date
    reason: str
    recorded_by: str


@dataclass(frozen=True)
class PermitView:
    id: int
    kind: str
    kind_label: str
    section: str
    holder_id: int
    holder: str
    address: str
    status: str
    status_label: str
    year: int
    first_year: int | None
    issued_on: date | None
    expires_on: date | None
    list_update_due: date | None
    appeal_by: date | None
    applications: tuple[ApplicationView, ...]  # oldest first
    issues: tuple[IssueView, ...]  # oldest first
    animals: tuple[AnimalLine, ...]  # a fancier's list as last updated
    list_entries: tuple[ListEntryView, ...]  # oldest first
    incidents: tuple[IncidentView, ...]  # oldest first
    reviews: tuple[ReviewView, ...]  # oldest first
    revocation: RevocationView | None
    version: int
    source: str = ""  # the text the permit rests on, from the profile ("Dodgeville code 12.16")

    @property
    def application(self) -> ApplicationView | None:
        return self.applications[-1] if self.applications else None

    @property
    def pending_application(self) -> ApplicationView | None:
        """The accepted application not yet issued (a first permit or a renewal)."""
        a = self.application
        return a if a is not None and not a.refused and not a.issued else None

    @property
    def review(self) -> ReviewView | None:
        return self.reviews[-1] if self.reviews else None

    @property
    def adverse_review(self) -> ReviewView | None:
        """The latest review that decided against the holder, if it is the latest."""
        r = self.review
        return r if r is not None and not r.renew else None

    @property
    def renewed(self) -> bool:
        return len(self.issues) > 1

    @property
    def stayed(self) -> bool:
        """A decision against the holder is appealed: it does not take effect yet."""
        return self.status == "appeal_pending"

    def in_force(self, day: date) -> bool:
        """Whether the permit may be relied on on ``day`` (an appeal stays a decision)."""
        if self.status == "appeal_pending":
            return self.issued_on is not None
        return (
            self.status == "issued"
            and self.issued_on is not None
            and self.expires_on is not None
            and self.issued_on <= day <= self.expires_on
        )

    @property
    def can_issue(self) -> bool:
        return self.status in ("applied", "issued") and self.pending_application is not None

    @property
    def can_renew(self) -> bool:
        return self.status == "issued" and self.pending_application is None

    @property
    def can_revoke(self) -> bool:
        return self.kind == "chicken" and self.status == "issued"

    @property
    def can_review(self) -> bool:
        return self.status == "issued"

    @property
    def can_mail_notice(self) -> bool:
        r = self.adverse_review
        return r is not None and r.notice is None and self.status in ("not_renewed", "revoked")

    @property
    def can_appeal(self) -> bool:
        r = self.adverse_review
        return (
            r is not None
            and r.notice is not None
            and r.appeal is None
            and self.status in ("not_renewed", "revoked")
        )

    @property
    def can_decide_appeal(self) -> bool:
        return self.status == "appeal_pending"


def status_text(status: str, renewed: bool) -> str:
    """The status in words: an issued permit renewed at least once reads "Renewed"."""
    if status == "issued" and renewed:
        return "Renewed"
    return STATUS_LABELS.get(status, status.replace("_", " "))
