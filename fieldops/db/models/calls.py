"""Field calls, dispatches, complaints, petitions, citations and caution flags (58-534).

A call and what follows from it are edited through the services (audited, the
version column refusing a stale screen). A petition is written once, accepted
or refused, and never changed (append-only, migration 0019). The call row
carries copies of its state (status, outcome, officer, follow-up) for the
list's filters and the due items; the services rewrite them after each
dispatch change and ``fieldops check`` compares them.
"""

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, Timestamped, partial_index
from fieldops.db.types import Money, UTCDateTime
from fieldops.rules.calls import (
    ANIMAL_ROLES,
    CALL_KINDS,
    NOTIFY_METHODS,
    OUTCOMES,
    PERSON_ROLES,
    RECEIVED_HOW,
    REFERRALS,
)

CALL_STATUSES = ("open", "dispatched", "closed")
# The calls list's first key, open calls before closed ones: its indexes are on this
# expression, and the list's query must spell it the same (migration 0025).
# Laid out as PostgreSQL prints it back, so that the schema's comparison with these models
# (tests/db/test_migrations.py) reads the same expression on both sides.
OPEN_FIRST = "(\nCASE\n    WHEN status = 'closed' THEN 1\n    ELSE 0\nEND)"


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class FieldCall(Timestamped, Base):
    """One call for service: who called, how, where, what kind, how urgent."""

    __tablename__ = "field_call"
    __table_args__ = (
        CheckConstraint(_in("received_how", tuple(RECEIVED_HOW)), name="received_how"),
        CheckConstraint(_in("kind", tuple(CALL_KINDS)), name="kind"),
        CheckConstraint(_in("status", CALL_STATUSES), name="status"),
        CheckConstraint("priority BETWEEN 1 AND 3", name="priority"),
        Index("ix_field_call_status_priority", "status", "priority", "received_at"),
        Index("ix_field_call_address_key", "address_key"),
        Index("ix_field_call_follow_up_on", "follow_up_on"),
        # Today's follow-ups still to do, never the calls followed up long ago (0027).
        # Partial: an index of every call would be nearly all NULLs, which SQLite's
        # statistics (ANALYZE) then count as a few values of thousands of rows each.
        partial_index(
            "ix_field_call_follow_up_due_on",
            "follow_up_due_on",
            where="follow_up_due_on IS NOT NULL",
        ),
        # The list's order walked on an index, for all calls and for each kind (0025).
        Index("ix_field_call_open_first", text(OPEN_FIRST), "priority", "received_at", "id"),
        Index(
            "ix_field_call_kind_open_first",
            "kind",
            text(OPEN_FIRST),
            "priority",
            "received_at",
            "id",
        ),
        # The activity summary's calls of a period, read from the index alone (0026).
        Index(
            "ix_field_call_received_activity",
            "received_at",
            "kind",
            "received_how",
            "outcome",
            "status",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    received_how: Mapped[str] = mapped_column(String(12))
    anonymous: Mapped[bool] = mapped_column(default=False)
    caller_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    caller_name: Mapped[str] = mapped_column(String(200), default="")
    caller_phone: Mapped[str] = mapped_column(String(50), default="")
    address: Mapped[str] = mapped_column(String(300))
    address_key: Mapped[str] = mapped_column(String(300))
    place: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(12))
    section: Mapped[str] = mapped_column(String(20), default="")
    priority: Mapped[int] = mapped_column(default=3)
    description: Mapped[str] = mapped_column(Text, default="")
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None, index=True)
    owner_description: Mapped[str] = mapped_column(String(300), default="")
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), default=None, index=True)
    animal_description: Mapped[str] = mapped_column(String(300), default="")
    recheck_of_id: Mapped[int | None] = mapped_column(
        ForeignKey("field_call.id"), default=None, index=True
    )
    # Copies of the state, rewritten by the services from the dispatches.
    status: Mapped[str] = mapped_column(String(12), default="open")
    officer: Mapped[str] = mapped_column(String(100), default="")
    outcome: Mapped[str | None] = mapped_column(String(20), default=None)
    follow_up_on: Mapped[date | None] = mapped_column(default=None)
    # ``follow_up_on`` while its follow-up is still to do (no recheck opened from the
    # call, no follow-up of that date recorded done), NULL otherwise: kept by triggers
    # whenever the call, a recheck of it or a follow-up done is written (migration 0027).
    # Never set it.
    follow_up_due_on: Mapped[date | None] = mapped_column(default=None)
    search_text: Mapped[str] = mapped_column(String(1000), default="")
    recorded_by: Mapped[str] = mapped_column(String(100))


class CallParty(Base):
    """A person or an animal involved in a call beyond its caller and its main owner and
    animal (which stay on the call): a registry record or described, in a role.

    Rewritten by the call's services with the call itself (the call's version guards
    them); ``position`` keeps the order they were listed in."""

    __tablename__ = "call_party"
    __table_args__ = (
        UniqueConstraint("call_id", "position", name="uq_call_party_call_position"),
        CheckConstraint(
            f"(kind = 'person' AND animal_id IS NULL AND {_in('role', tuple(PERSON_ROLES))})"
            f" OR (kind = 'animal' AND person_id IS NULL AND {_in('role', tuple(ANIMAL_ROLES))})",
            name="kind_role",
        ),
        CheckConstraint(
            "person_id IS NOT NULL OR animal_id IS NOT NULL OR description <> ''",
            name="registry_or_described",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"))
    position: Mapped[int]
    kind: Mapped[str] = mapped_column(String(6))
    role: Mapped[str] = mapped_column(String(12))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None, index=True)
    animal_id: Mapped[int | None] = mapped_column(ForeignKey("animal.id"), default=None, index=True)
    description: Mapped[str] = mapped_column(String(300), default="")
    notes: Mapped[str] = mapped_column(String(500), default="")


class CallDispatch(Timestamped, Base):
    """An officer sent to a call: when sent, arrived, cleared; the outcome."""

    __tablename__ = "call_dispatch"
    __table_args__ = (
        CheckConstraint("outcome IS NULL OR " + _in("outcome", tuple(OUTCOMES)), name="outcome"),
        # A call's first arrival (the activity summary's minutes to arrive), 0026.
        Index("ix_call_dispatch_call_arrived", "call_id", "arrived_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"), index=True)
    officer: Mapped[str] = mapped_column(String(100))
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)
    arrived_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    cleared_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    outcome: Mapped[str | None] = mapped_column(String(20), default=None)
    follow_up_on: Mapped[date | None] = mapped_column(default=None)
    impoundment_id: Mapped[int | None] = mapped_column(ForeignKey("impoundment.id"), default=None)
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))


class CallComplaint(Timestamped, Base):
    """A complaint logged under 58-534(a), and the owner's notification of it."""

    __tablename__ = "call_complaint"
    __table_args__ = (
        CheckConstraint(
            "notified_how IS NULL OR " + _in("notified_how", tuple(NOTIFY_METHODS)),
            name="notified_how",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"), index=True)
    complainant: Mapped[str] = mapped_column(String(200))
    complainant_adult: Mapped[bool] = mapped_column(default=True)
    alleged: Mapped[str] = mapped_column(Text)
    logged_at: Mapped[datetime] = mapped_column(UTCDateTime)
    notified_how: Mapped[str | None] = mapped_column(String(20), default=None)
    notified_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    notified_by: Mapped[str] = mapped_column(String(100), default="")
    recorded_by: Mapped[str] = mapped_column(String(100))


class CallPetition(Base):
    """A written petition after a later violation (58-534(a)): accepted and referred, or
    refused naming the parts it lacks. Append-only."""

    __tablename__ = "call_petition"
    __table_args__ = (
        CheckConstraint(_in("status", ("accepted", "refused")), name="status"),
        CheckConstraint(
            "referred_to IS NULL OR " + _in("referred_to", tuple(REFERRALS)), name="referred_to"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    complaint_id: Mapped[int] = mapped_column(ForeignKey("call_complaint.id"), index=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"), index=True)
    received_on: Mapped[date]
    petitioners: Mapped[str] = mapped_column(Text, default="")
    animal: Mapped[str] = mapped_column(Text, default="")
    violations: Mapped[str] = mapped_column(Text, default="")
    reported_on: Mapped[str] = mapped_column(Text, default="")
    will_testify: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(10))
    missing: Mapped[list[str]] = mapped_column(JSON, default=list)
    referred_to: Mapped[str | None] = mapped_column(String(30), default=None)
    referred_on: Mapped[date | None] = mapped_column(default=None)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))


class CallCitation(Timestamped, Base):
    """One offence cited: one section, one person, one day (58-534(b))."""

    __tablename__ = "call_citation"
    __table_args__ = (
        UniqueConstraint(
            "person_id", "section", "offence_on", name="uq_call_citation_one_offence_a_day"
        ),
        CheckConstraint("offence_number >= 1", name="offence_number"),
        CheckConstraint("forfeiture IS NULL OR forfeiture >= 0", name="forfeiture"),
        Index("ix_call_citation_court_on", "court_on"),
        # Today: the citations unpaid past their court date, never the paid ones (0027).
        partial_index(
            "ix_call_citation_unpaid_court_on",
            "court_on",
            where="(paid_on IS NULL) AND (voided_at IS NULL)",  # as PostgreSQL prints it
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int | None] = mapped_column(
        ForeignKey("field_call.id"), default=None, index=True
    )
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    section: Mapped[str] = mapped_column(String(20))
    offence_on: Mapped[date]
    offence_number: Mapped[int]
    forfeiture: Mapped[Decimal | None] = mapped_column(Money, default=None)
    warning: Mapped[bool] = mapped_column(default=False)
    plus_court_costs: Mapped[bool] = mapped_column(default=False)
    penalty_why: Mapped[str] = mapped_column(Text, default="")
    address: Mapped[str] = mapped_column(String(300), default="")
    address_key: Mapped[str] = mapped_column(String(300), default="", index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    court_on: Mapped[date | None] = mapped_column(default=None)
    paid_on: Mapped[date | None] = mapped_column(default=None)
    issued_by: Mapped[str] = mapped_column(String(200))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))
    # Voided by a supervisor (migration 0023): kept on record, counted by no ladder.
    voided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    voided_by: Mapped[str] = mapped_column(String(100), default="", server_default="")
    void_reason: Mapped[str] = mapped_column(Text, default="", server_default="")


class CallFollowUp(Base):
    """A dispatch's follow-up done (migration 0023): when, by whom, a note, an outcome.
    Append-only: the follow-up due on ``due_on`` is done once, and never changed."""

    __tablename__ = "call_follow_up"
    __table_args__ = (
        UniqueConstraint("dispatch_id", "due_on", name="uq_call_follow_up_once"),
        CheckConstraint("outcome IS NULL OR " + _in("outcome", tuple(OUTCOMES)), name="outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"), index=True)
    dispatch_id: Mapped[int] = mapped_column(ForeignKey("call_dispatch.id"))
    due_on: Mapped[date]
    done_at: Mapped[datetime] = mapped_column(UTCDateTime)
    done_by: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text, default="")
    outcome: Mapped[str | None] = mapped_column(String(20), default=None)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    recorded_by: Mapped[str] = mapped_column(String(100))


class CallLink(Base):
    """Another module's record opened from a call (a bite report, a vicious case), by the
    seam's (module, kind, id). Append-only (migration 0023)."""

    __tablename__ = "call_link"
    __table_args__ = (
        UniqueConstraint("call_id", "module", "kind", "record_id", name="uq_call_link_once"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    call_id: Mapped[int] = mapped_column(ForeignKey("field_call.id"))
    module: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    record_id: Mapped[int]
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    linked_by: Mapped[str] = mapped_column(String(100))


class CautionFlag(Timestamped, Base):
    """A caution for officers on a person or an address, set and cleared by a supervisor."""

    __tablename__ = "caution_flag"
    __table_args__ = (
        CheckConstraint("person_id IS NOT NULL OR address_key <> ''", name="on_something"),
        Index("ix_caution_flag_address_key", "address_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None, index=True)
    address: Mapped[str] = mapped_column(String(300), default="")
    address_key: Mapped[str] = mapped_column(String(300), default="")
    reason: Mapped[str] = mapped_column(Text)
    set_at: Mapped[datetime] = mapped_column(UTCDateTime)
    set_by: Mapped[str] = mapped_column(String(100))
    cleared_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    cleared_by: Mapped[str] = mapped_column(String(100), default="")
    clear_reason: Mapped[str] = mapped_column(Text, default="")
