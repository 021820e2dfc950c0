"""Bite reports and quarantines (city code 58-527; RULES.md section 3).

A bite report and its quarantine order are written once. What happens next
(exams, a broken home quarantine, an extension, signs of rabies, a death, a
specimen, an escape, the certificate, the release) is a new row in the
append-only ``quarantine_exam`` and ``quarantine_event`` tables, which the
database refuses to change or delete (migration 0009). The ``quarantine`` row
carries copies of the current state (placement, last day, next exam, status)
for the list's filters and sorts; the services rewrite them from the events
after each one, and ``fieldops check`` compares them.
"""

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, Timestamped, partial_index
from fieldops.db.types import Money, UTCDateTime

QUARANTINE_STATUSES = ("open", "certified", "died", "euthanized", "escaped")
PLACEMENTS = ("home", "clinic")
EXAM_FINDING_CODES = ("no_signs", "signs_of_rabies", "died")
EVENT_KIND_CODES = (
    "delivered",
    "broken_home",
    "extended",
    "signs_of_rabies",
    "died",
    "euthanized",
    "specimen_sent",
    "escaped",
    "certificate_received",
    "released",
    "referral_sent",
)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class BiteReport(Base):
    """A bite of a person, as reported (58-527(a)); never changed once written."""

    __tablename__ = "bite_report"
    __table_args__ = (
        CheckConstraint("species IN ('dog', 'cat', 'other')", name="species"),
        Index("ix_bite_report_bitten_at", "bitten_at"),
        Index("ix_bite_report_referral", "referral", "id"),  # Today: referrals not sent
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bitten_at: Mapped[datetime] = mapped_column(UTCDateTime)
    place: Mapped[str] = mapped_column(String(300))
    victim_name: Mapped[str] = mapped_column(String(200))
    # Private to the case: shown on its record only, never in lists or documents.
    victim_contact: Mapped[str] = mapped_column(Text, default="")
    species: Mapped[str] = mapped_column(String(10))
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), default=None, index=True)
    animal_description: Mapped[str] = mapped_column(String(300), default="")
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    owner_unknown: Mapped[bool] = mapped_column(default=False)
    impoundment_id: Mapped[int | None] = mapped_column(ForeignKey("impoundment.id"), default=None)
    reported_by: Mapped[str] = mapped_column(String(200))
    reported_at: Mapped[datetime] = mapped_column(UTCDateTime)
    rabies_certificate: Mapped[str] = mapped_column(String(50), default="")
    rabies_vaccinated_on: Mapped[date | None] = mapped_column(default=None)
    rabies_expires_on: Mapped[date | None] = mapped_column(default=None)
    rabies_proof: Mapped[bool] = mapped_column(default=False)  # current on the bite day
    officer: Mapped[str] = mapped_column(String(200))
    referral: Mapped[bool] = mapped_column(default=False)  # neither dog nor cat
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))


class Quarantine(Timestamped, Base):
    """The quarantine order for one bite; its columns after ``ordered_at`` are copies of
    the current state, rewritten by the services from the events."""

    __tablename__ = "quarantine"
    __table_args__ = (
        CheckConstraint(_in("status", QUARANTINE_STATUSES), name="status"),
        CheckConstraint(_in("placement", PLACEMENTS), name="placement"),
        Index("ix_quarantine_animal_status", "animal_id", "status"),
        Index("ix_quarantine_status_last_day", "status", "last_day", "id"),
        # Today: the certified still without their certificate, and the dead with the
        # bite their specimen's event names, read from an index alone (0027).
        Index("ix_quarantine_status_certificate", "status", "certificate_received_on"),
        Index("ix_quarantine_status_bite", "status", "bite_report_id"),
        Index("ix_quarantine_next_exam_by", "next_exam_by"),
        Index("ix_quarantine_certificate_due", "certificate_due"),
        Index("ix_quarantine_deliver_by", "deliver_by"),
        # The list's sorts across statuses, and the certificates not received (0016).
        Index("ix_quarantine_order_first_exam_day", "first_exam_day", "id"),
        Index("ix_quarantine_order_animal_name", "animal_name", "id"),
        Index("ix_quarantine_order_owner_name", "owner_name", "id"),
        Index("ix_quarantine_order_last_day", "last_day", "id"),
        Index("ix_quarantine_order_status", "status", "id"),
        Index("ix_quarantine_certificate_received", "certificate_received_on", "certificate_due"),
        # The activity summary's orders of a period by placement and status (0026).
        Index("ix_quarantine_ordered_activity", "ordered_at", "ordered_placement", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bite_report_id: Mapped[int] = mapped_column(ForeignKey("bite_report.id"), unique=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), default=None)
    ordered_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ordered_placement: Mapped[str] = mapped_column(String(10))
    ordered_clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    # Current state (copies).
    status: Mapped[str] = mapped_column(String(12), default="open")
    placement: Mapped[str] = mapped_column(String(10))
    clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    deliver_by: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    first_exam_day: Mapped[date]
    last_day: Mapped[date]
    certificate_due: Mapped[date]
    certificate_received_on: Mapped[date | None] = mapped_column(default=None)
    next_exam_due: Mapped[date | None] = mapped_column(default=None)  # first day of the window
    next_exam_by: Mapped[date | None] = mapped_column(default=None)  # its last day
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # For the list: sorts and search without joins.
    animal_name: Mapped[str] = mapped_column(String(300), default="")
    owner_name: Mapped[str] = mapped_column(String(200), default="")
    recorded_by: Mapped[str] = mapped_column(String(100))


class QuarantineExam(Base):
    """One examination by a veterinarian (58-527(b)); append-only."""

    __tablename__ = "quarantine_exam"
    __table_args__ = (
        CheckConstraint(_in("finding", EXAM_FINDING_CODES), name="finding"),
        CheckConstraint("fee >= 0", name="fee"),
        Index("ix_quarantine_exam_finding", "finding", "quarantine_id"),  # Today: signs
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    quarantine_id: Mapped[int] = mapped_column(ForeignKey("quarantine.id"), index=True)
    examined_on: Mapped[date]
    veterinarian: Mapped[str] = mapped_column(String(200))
    clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    finding: Mapped[str] = mapped_column(String(20))
    fee: Mapped[Decimal] = mapped_column(Money)
    slot: Mapped[str | None] = mapped_column(String(12), default=None)  # None: extra exam
    warning: Mapped[str] = mapped_column(Text, default="")
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))


class QuarantineEvent(Base):
    """One thing that happened in a bite case after the report; append-only."""

    __tablename__ = "quarantine_event"
    __table_args__ = (
        CheckConstraint(_in("kind", EVENT_KIND_CODES), name="kind"),
        # Today asks "was a referral / specimen / signs report recorded for this bite".
        Index("ix_quarantine_event_bite_kind", "bite_report_id", "kind"),
        # For every referred bite and every dead animal it asks of one kind only: these
        # hold that kind's events alone, a few thousand at a city's size instead of
        # every event of every bite (migration 0029).
        partial_index(
            "ix_quarantine_event_referral_sent",
            "bite_report_id",
            "kind",
            where="kind = 'referral_sent'",
        ),
        partial_index(
            "ix_quarantine_event_specimen_sent",
            "bite_report_id",
            "kind",
            where="kind = 'specimen_sent'",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bite_report_id: Mapped[int] = mapped_column(ForeignKey("bite_report.id"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    who: Mapped[str] = mapped_column(String(200), default="")  # notified / sent by / vet
    clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    new_last_day: Mapped[date | None] = mapped_column(default=None)
    received_on: Mapped[date | None] = mapped_column(default=None)
    citation: Mapped[str] = mapped_column(String(100), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))


class BiteToSend(Base):
    """What a bite still has to send, named by the event that ends it: ``referral_sent``
    (a referred bite, no referral on record) or ``specimen_sent`` (its quarantined animal
    died or was euthanized, no specimen on record). Today reads the few open cases here,
    not the whole history. Triggers keep it in the transaction of every bite report,
    quarantine and event written (migration 0032). Never write it."""

    __tablename__ = "bite_to_send"
    __table_args__ = ({"sqlite_with_rowid": False},)

    kind: Mapped[str] = mapped_column(String(24), primary_key=True)
    bite_report_id: Mapped[int] = mapped_column(ForeignKey("bite_report.id"), primary_key=True)


CORRECTION_TARGETS = ("bite_report", "exam", "event")


class QuarantineCorrection(Base):
    """A correction of one field of a bite report, an exam or an event: the new value and
    why, by a supervisor (the record itself is never changed); append-only (migration 0011).
    The latest correction of a field is the value shown; the history keeps both."""

    __tablename__ = "quarantine_correction"
    __table_args__ = (
        CheckConstraint(_in("target", CORRECTION_TARGETS), name="target"),
        Index("ix_quarantine_correction_bite", "bite_report_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bite_report_id: Mapped[int] = mapped_column(ForeignKey("bite_report.id"))
    target: Mapped[str] = mapped_column(String(12))
    target_id: Mapped[int]
    field: Mapped[str] = mapped_column(String(40))
    old_value: Mapped[str] = mapped_column(Text, default="")
    new_value: Mapped[str] = mapped_column(Text, default="")
    reason: Mapped[str] = mapped_column(Text)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))
