"""Impoundment records (58-526, 58-528): intake, payments, dispositions, fee schedules.

A disposition is final. A correction adds a new disposition row that names the
one it corrects; no row here is ever updated in place after it is written,
except the impoundment itself: its kennel, notes and intake details (corrected
with a reason; the old values are kept in the audit trail).
"""

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from fieldops.db.models.base import Base, Timestamped
from fieldops.db.types import Money, UTCDateTime

REASON_CODES = ("at_large", "owner_surrender", "bite", "seizure", "other")
DISPOSITION_CODES = ("reclaimed", "adopted", "transferred", "euthanized", "died", "escaped")
PAYMENT_KIND_CODES = ("impound", "boarding", "adoption", "licence", "rabies_prepayment", "other")
PAYMENT_METHOD_CODES = ("cash", "check", "card", "other")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


# The impounds list's sort keys on the impoundment row, copies included.
LIST_KEYS = (
    "impounded_at",
    "last_claim_day",
    "kennel",
    "animal_name",
    "animal_species",
    "owner_sort_name",
)


class Impoundment(Timestamped, Base):
    __tablename__ = "impoundment"
    __table_args__ = (
        CheckConstraint(_in("reason", REASON_CODES), name="reason"),
        Index("ix_impoundment_animal_custody", "animal_id", "custody_day"),
        Index("ix_impoundment_owner_id", "owner_id"),
        # The impounds list: every (status, sort) pair walks an index in its order
        # (migration 0004). "All" walks (key, id); every status filter starts with
        # ``disposed``. impounded_at and last_claim_day already have (key) indexes,
        # which carry the id on SQLite and end in an incremental sort on PostgreSQL.
        *(
            Index(f"ix_impoundment_status_{key}", "disposed", key, "id")
            for key in LIST_KEYS
            if key != "last_claim_day"
        ),
        # The status and last claim day's order, with every column Today's pound items
        # read from the impoundment (fieldops.services.pound): those rows and the count
        # of animals held past their hold come from the index alone (migration 0033).
        Index(
            "ix_impoundment_custody_due",
            "disposed",
            "last_claim_day",
            "id",
            "custody_day",
            "release_to_others_from",
            "surrendered",
            "bit_person",
            "kennel",
            "animal_id",
        ),
        *(Index(f"ix_impoundment_order_{key}", key, "id") for key in LIST_KEYS[2:]),
        Index("ix_impoundment_disposition_kind", "disposition_kind"),  # counts by kind
        # The 58-528 register reads a period of custody days (migration 0008).
        Index("ix_impoundment_custody_day", "custody_day"),
        # A period of the list in time order (0016).
        Index("ix_impoundment_custody_day_order", "custody_day", "impounded_at", "id"),
        # The activity summary's intakes and dispositions, read from the index alone (0026).
        Index(
            "ix_impoundment_custody_activity",
            "custody_day",
            "animal_species",
            "reason",
            "repeat_of_id",
        ),
        Index(
            "ix_impoundment_disposition_activity",
            "disposition_at",
            "disposition_kind",
            "custody_day",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"))
    impounded_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    # Local custody date and the hold the rules computed at intake: the legal
    # record of what the operator was told, and what lists sort and filter on.
    custody_day: Mapped[date]
    last_claim_day: Mapped[date] = mapped_column(index=True)
    release_to_others_from: Mapped[datetime] = mapped_column(UTCDateTime)
    found_place: Mapped[str] = mapped_column(String(300), default="")
    found_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    officer: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(String(20))
    reason_detail: Mapped[str] = mapped_column(String(300), default="")
    bit_person: Mapped[bool] = mapped_column(default=False)
    surrendered: Mapped[bool] = mapped_column(default=False)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    kennel: Mapped[str] = mapped_column(String(50), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    # Seen at intake: spayed/neutered (None: not known), condition, injuries.
    altered: Mapped[bool | None] = mapped_column(default=None)
    condition: Mapped[str] = mapped_column(String(200), default="", server_default="")
    injuries: Mapped[str] = mapped_column(Text, default="", server_default="")
    repeat_of_id: Mapped[int | None] = mapped_column(ForeignKey("impoundment.id"), default=None)
    recorded_by: Mapped[str] = mapped_column(String(100))
    # Denormalised "has a final disposition" flag for list filters; set once.
    disposed: Mapped[bool] = mapped_column(default=False, index=True)
    # Copies for the list's filters and sorts, kept by database triggers whenever
    # the impoundment, its animal, its owner or its dispositions change (migration
    # 0004): a list sorted by a joined column cannot walk an index. Never set them.
    animal_name: Mapped[str] = mapped_column(String(100), default="", server_default="")
    animal_species: Mapped[str] = mapped_column(String(10), default="", server_default="")
    owner_sort_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    # The current disposition (the newest row; a correction is always newest).
    disposition_kind: Mapped[str | None] = mapped_column(String(20), default=None)
    disposition_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)

    payments: Mapped[list["Payment"]] = relationship(
        back_populates="impoundment", order_by="Payment.paid_at"
    )


class ImpoundPhoto(Base):
    __tablename__ = "impound_photo"

    id: Mapped[int] = mapped_column(primary_key=True)
    impoundment_id: Mapped[int] = mapped_column(ForeignKey("impoundment.id"), index=True)
    filename: Mapped[str] = mapped_column(String(200))
    media_type: Mapped[str] = mapped_column(String(50))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Payment(Base):
    __tablename__ = "payment"
    __table_args__ = (
        CheckConstraint(_in("method", PAYMENT_METHOD_CODES), name="method"),
        Index("ix_payment_paid_at", "paid_at"),  # the activity summary's fees (0026)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    impoundment_id: Mapped[int] = mapped_column(ForeignKey("impoundment.id"), index=True)
    paid_at: Mapped[datetime] = mapped_column(UTCDateTime)
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    method: Mapped[str] = mapped_column(String(10))
    receipt_number: Mapped[str] = mapped_column(String(50), default="")
    recorded_by: Mapped[str] = mapped_column(String(100))

    impoundment: Mapped[Impoundment] = relationship(back_populates="payments")
    lines: Mapped[list["PaymentLine"]] = relationship(order_by="PaymentLine.id")


class PaymentLine(Base):
    __tablename__ = "payment_line"
    __table_args__ = (
        CheckConstraint(_in("kind", PAYMENT_KIND_CODES), name="kind"),
        CheckConstraint("amount > 0", name="positive"),
        # A payment's lines, with the kind and amount the fees by kind read (0026).
        Index("ix_payment_line_payment_id", "payment_id", "kind", "amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(ForeignKey("payment.id"))
    kind: Mapped[str] = mapped_column(String(20))
    description: Mapped[str] = mapped_column(String(200), default="")
    amount: Mapped[Decimal] = mapped_column(Money)
    # The module charge it settles (fieldops.modules.ChargeLine.code); "" for the pound's own.
    # Indexed (0024): a quarantine's record finds its payments by the code's prefix.
    charge: Mapped[str] = mapped_column(String(80), default="", server_default="", index=True)


class Disposition(Base):
    __tablename__ = "disposition"
    __table_args__ = (
        CheckConstraint(_in("kind", DISPOSITION_CODES), name="kind"),
        UniqueConstraint("corrects_id", name="uq_disposition_corrects_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    impoundment_id: Mapped[int] = mapped_column(ForeignKey("impoundment.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    recipient_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    to_owner: Mapped[bool] = mapped_column(default=False)
    transfer_to: Mapped[str] = mapped_column(String(300), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    hopeless_or_threat: Mapped[bool] = mapped_column(default=False)
    # Humane destruction only: why (a code of fieldops.rules.EUTHANASIA_BASES) and who
    # decided it, as the operator recorded them (name, and role: veterinarian or officer).
    # Blank on the other kinds and on euthanasias recorded before FieldOps asked.
    euthanasia_basis: Mapped[str] = mapped_column(String(30), default="", server_default="")
    decided_by: Mapped[str] = mapped_column(String(200), default="", server_default="")
    preserve_until: Mapped[date | None] = mapped_column(default=None)
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    corrects_id: Mapped[int | None] = mapped_column(ForeignKey("disposition.id"), default=None)
    correction_reason: Mapped[str] = mapped_column(Text, default="")

    evidence: Mapped[list["ReleaseEvidence"]] = relationship(order_by="ReleaseEvidence.id")


class ReleaseEvidence(Base):
    """What satisfied each legal requirement of a release, or who overrode it and why."""

    __tablename__ = "release_evidence"

    id: Mapped[int] = mapped_column(primary_key=True)
    disposition_id: Mapped[int] = mapped_column(ForeignKey("disposition.id"), index=True)
    code: Mapped[str] = mapped_column(String(40))
    label: Mapped[str] = mapped_column(String(300))
    evidence: Mapped[str] = mapped_column(Text, default="")
    overridden: Mapped[bool] = mapped_column(default=False)
    override_reason: Mapped[str] = mapped_column(Text, default="")
    override_by: Mapped[str] = mapped_column(String(100), default="")


class FeeScheduleEntry(Base):
    """One species' fees under a council resolution, in force from a date."""

    __tablename__ = "fee_schedule"
    __table_args__ = (
        UniqueConstraint("effective_on", "species", name="uq_fee_schedule_effective_species"),
        CheckConstraint("species IN ('dog', 'cat', 'other')", name="species"),
        CheckConstraint(
            "impound >= 0 AND boarding_per_day >= 0 AND adoption >= 0", name="not_negative"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    resolution: Mapped[str] = mapped_column(String(100))
    effective_on: Mapped[date]
    species: Mapped[str] = mapped_column(String(10))
    impound: Mapped[Decimal] = mapped_column(Money)
    boarding_per_day: Mapped[Decimal] = mapped_column(Money)
    adoption: Mapped[Decimal] = mapped_column(Money)
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime)
