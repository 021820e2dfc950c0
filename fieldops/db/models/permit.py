"""Chicken permits and animal fancier's permits (city code 58-533(a),(b); RULES.md section 7).

A permit is one holder's permit of one kind at one address, across its years.
What was applied for, issued, observed and decided are append-only rows (each
application with its fee quote and any refusal, each year's issue, the
fancier's animal list and its changes, incidents, the annual review with the
incidents it counted, the certified-mail notice, the appeal and its decision, a
revocation): the database refuses to change or delete them (migration 0018).
Only the permit row itself changes, and only its working summary (status, the
year in force, the dates the list and Today sort by), each change audited.
"""

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, Timestamped
from fieldops.db.types import Money, UTCDateTime

PERMIT_KINDS = ("chicken", "fancier")
# applied: waiting to be issued; issued: in force for its year (renewed when its year is
# later than its first); refused: the application failed the rules; revoked / not_renewed:
# a decision against the holder (a fancier's may be appealed); appeal_pending: the
# decision is appealed and stayed until the appeal is decided.
PERMIT_STATUSES = ("applied", "issued", "refused", "revoked", "not_renewed", "appeal_pending")
# The list's "no expiry last", as PostgreSQL prints it back (migration 0030's index).
NO_EXPIRY = "(expires_on IS NULL)"
INCIDENT_KINDS = ("attack", "noise", "at_large", "waste", "licensing", "number", "other")
INCIDENT_ENDINGS = ("warning", "citation", "none")
LIST_ENTRY_KINDS = ("change", "update")
REVIEW_PURPOSES = ("renewal", "revocation")
APPEAL_OUTCOMES = ("upheld", "reversed")

APPEND_ONLY = (
    "permit_application",
    "permit_issue",
    "permit_animal_list",
    "permit_incident",
    "permit_review",
    "permit_notice",
    "permit_appeal",
    "permit_appeal_decision",
    "permit_revocation",
)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Permit(Timestamped, Base):
    __tablename__ = "permit"
    __table_args__ = (
        CheckConstraint(_in("kind", PERMIT_KINDS), name="kind"),
        CheckConstraint(_in("status", PERMIT_STATUSES), name="status"),
        Index("ix_permit_holder_id", "holder_id"),
        # The list: kind and status filters with the expiry sort; Today's dates.
        Index("ix_permit_kind_status_expires", "kind", "status", "expires_on", "id"),
        Index("ix_permit_expires", "expires_on", "id"),
        # The list's expiry order, "no expiry" last, with the status its filters read (0030).
        Index("ix_permit_list_expiry", text(NO_EXPIRY), "expires_on", "id", "status"),
        Index("ix_permit_list_update_due", "list_update_due"),
        Index("ix_permit_appeal_by", "appeal_by"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    holder_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    address: Mapped[str] = mapped_column(String(400))  # where the animals are kept
    status: Mapped[str] = mapped_column(String(20))
    year: Mapped[int]  # the permit year last applied for
    first_year: Mapped[int | None] = mapped_column(default=None)  # of the first issue
    issued_on: Mapped[date | None] = mapped_column(default=None)  # the year in force
    expires_on: Mapped[date | None] = mapped_column(default=None)
    # A fancier's: the day the animal list must be updated by (a change not yet listed).
    list_update_due: Mapped[date | None] = mapped_column(default=None)
    # The day an appeal of the decision in force is due by (after the notice is mailed).
    appeal_by: Mapped[date | None] = mapped_column(default=None)
    # Lower-case holder's name and address, for the list's search.
    search_text: Mapped[str] = mapped_column(String(800), default="")


class PermitApplication(Base):
    """An application for a year (the first permit or a renewal), as checked by the rules:
    the chicken facts, the fee quote, and the problems that refused it (none: accepted)."""

    __tablename__ = "permit_application"

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    first: Mapped[bool]
    year: Mapped[int]
    applied_on: Mapped[date]
    # Chicken permits only (None for a fancier's).
    hoa_exists: Mapped[bool | None] = mapped_column(default=None)
    hoa_consent: Mapped[bool | None] = mapped_column(default=None)
    hoa_consent_on: Mapped[date | None] = mapped_column(default=None)
    hens: Mapped[int | None] = mapped_column(default=None)
    roosters: Mapped[int | None] = mapped_column(default=None)
    setback_feet: Mapped[int | None] = mapped_column(default=None)
    neighbour_consent: Mapped[bool | None] = mapped_column(default=None)
    # Asked only where the profile sets them (the village's ch. 12): None elsewhere.
    residence_setback_feet: Mapped[int | None] = mapped_column(default=None)
    state_registered_on: Mapped[date | None] = mapped_column(default=None)
    # The quote (rules.permit_quote) as it stood on the application day.
    application_fee: Mapped[Decimal] = mapped_column(Money)
    annual_fee: Mapped[Decimal] = mapped_column(Money)
    late_fee: Mapped[Decimal] = mapped_column(Money)
    total: Mapped[Decimal] = mapped_column(Money)
    late: Mapped[bool]
    due_by: Mapped[date | None] = mapped_column(default=None)
    fee_why: Mapped[dict[str, str]] = mapped_column(JSON)
    refused: Mapped[bool]
    problems: Mapped[list[dict[str, str]]] = mapped_column(JSON)  # code, field, message
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitIssue(Base):
    """An accepted application issued for its year: the first issue, or a renewal, with the
    fee paid (``paid_amount`` at least the application's total, ``payment_method``,
    ``receipt_number``; NULL on issues recorded before payments were)."""

    __tablename__ = "permit_issue"
    __table_args__ = (Index("ix_permit_issue_receipt_number", "receipt_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    application_id: Mapped[int] = mapped_column(ForeignKey("permit_application.id"), unique=True)
    year: Mapped[int]
    issued_on: Mapped[date]
    expires_on: Mapped[date]
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    paid_amount: Mapped[Decimal | None] = mapped_column(Money, default=None)
    payment_method: Mapped[str | None] = mapped_column(String(10), default=None)
    receipt_number: Mapped[str | None] = mapped_column(String(30), default=None)


class PermitAnimalList(Base):
    """A fancier's animal list: a change in the animals noted (``change``: the list is due
    by its day), or the list updated (``update``: the whole list, which settles the
    changes noted before it). ``animals`` is a list of {species, count, names}."""

    __tablename__ = "permit_animal_list"
    __table_args__ = (CheckConstraint(_in("kind", LIST_ENTRY_KINDS), name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    changed_on: Mapped[date]  # the day the animals changed
    updated_on: Mapped[date | None] = mapped_column(default=None)  # an update's day
    due_by: Mapped[date]  # rules.fancier_list_update_due(changed_on)
    animals: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitIncident(Base):
    """Something the holder's animals did, or a neighbour's complaint, and how it ended (a
    warning or a citation: a violation found; or none)."""

    __tablename__ = "permit_incident"
    __table_args__ = (
        CheckConstraint(_in("kind", INCIDENT_KINDS), name="kind"),
        CheckConstraint(_in("ending", INCIDENT_ENDINGS), name="ending"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    occurred_on: Mapped[date]
    kind: Mapped[str] = mapped_column(String(20))
    ending: Mapped[str] = mapped_column(String(10))
    citation_number: Mapped[str] = mapped_column(String(40), default="")
    # A neighbour's complaint: how far the complaining owner's property is, in feet (the
    # village's renewal test counts those within its radius); None when not a complaint.
    distance_feet: Mapped[int | None] = mapped_column(default=None)
    description: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitReview(Base):
    """The treasurer's review of incidents (before renewal, or to revoke), decided by
    rules.fancier_renewal: the incidents it counted and whether the permit is renewed."""

    __tablename__ = "permit_review"
    __table_args__ = (CheckConstraint(_in("purpose", REVIEW_PURPOSES), name="purpose"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    year: Mapped[int]  # the permit year reviewed
    review_day: Mapped[date]
    purpose: Mapped[str] = mapped_column(String(12))
    renew: Mapped[bool]
    counted: Mapped[list[str]] = mapped_column(JSON)  # ISO days inside the window
    incident_ids: Mapped[list[int]] = mapped_column(JSON)  # the incidents counted
    # A chicken permit not renewed where the profile bans a new one for some years.
    may_reapply_on: Mapped[date | None] = mapped_column(default=None)
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitNotice(Base):
    """The decision's notice by certified mail, with the day an appeal is due by."""

    __tablename__ = "permit_notice"

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    review_id: Mapped[int] = mapped_column(ForeignKey("permit_review.id"), unique=True)
    mailed_on: Mapped[date]
    article_number: Mapped[str] = mapped_column(String(40))
    appeal_by: Mapped[date]
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitAppeal(Base):
    """An appeal of a noticed decision: enforcement waits until it is decided."""

    __tablename__ = "permit_appeal"

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    notice_id: Mapped[int] = mapped_column(ForeignKey("permit_notice.id"), unique=True)
    filed_on: Mapped[date]
    grounds: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitAppealDecision(Base):
    """The appeal decided: the decision upheld (it takes effect) or reversed."""

    __tablename__ = "permit_appeal_decision"
    __table_args__ = (CheckConstraint(_in("outcome", APPEAL_OUTCOMES), name="outcome"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    appeal_id: Mapped[int] = mapped_column(ForeignKey("permit_appeal.id"), unique=True)
    decided_on: Mapped[date]
    outcome: Mapped[str] = mapped_column(String(10))
    authority: Mapped[str] = mapped_column(String(300))
    reason: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PermitRevocation(Base):
    """A chicken permit revoked for a violation (58-533(b)): the reason and the day."""

    __tablename__ = "permit_revocation"

    id: Mapped[int] = mapped_column(primary_key=True)
    permit_id: Mapped[int] = mapped_column(ForeignKey("permit.id"), index=True)
    revoked_on: Mapped[date]
    reason: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
