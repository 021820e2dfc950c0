"""Vicious-animal cases (city code 58-524; RULES.md section 4).

A case is one proposed declaration about one animal. What was decided and
what was done are append-only rows (the declaration with its grounds and
findings, the incidents it rests on, each notice served, the outcome, each
next step and its completion, a withdrawal or overturning): the database
refuses to change or delete them (migration 0010). Only the case row itself
changes, and only its working summary (status, current deadline, next step
due), each change audited, so the list can sort and filter in SQL.
"""

from datetime import date, datetime
from typing import TypedDict

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, Timestamped
from fieldops.db.types import UTCDateTime

# refused: an exception applied (58-524(a)(2)); declared: no notice yet; served: notice
# served, waiting for the owner; removed/destroyed: complied; not_complied: next steps;
# withdrawn/overturned: no longer declared (a new event, with its reason).
CASE_STATUSES = (
    "refused",
    "declared",
    "served",
    "removed",
    "destroyed",
    "not_complied",
    "withdrawn",
    "overturned",
)
# The statuses in which the animal stands declared vicious (the release block).
DECLARED_STATUSES = ("declared", "served", "removed", "destroyed", "not_complied")
NOTICE_METHODS = ("in_person", "posted")
OUTCOME_KINDS = ("destroyed", "removed", "not_complied")
STEP_KINDS = ("court_action", "seizure", "immediate_action")
ENDING_KINDS = ("withdrawn", "overturned")

APPEND_ONLY = (
    "vicious_declaration",
    "vicious_incident",
    "vicious_notice",
    "vicious_outcome",
    "vicious_step",
    "vicious_step_done",
    "vicious_ending",
)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class ViciousCase(Timestamped, Base):
    __tablename__ = "vicious_case"
    __table_args__ = (
        CheckConstraint(_in("status", CASE_STATUSES), name="status"),
        Index("ix_vicious_case_animal_id", "animal_id"),
        # The list: status filter with either sort, and the deadline across statuses.
        Index("ix_vicious_case_status_deadline", "status", "notice_deadline", "id"),
        Index("ix_vicious_case_deadline", "notice_deadline", "id"),
        Index("ix_vicious_case_opened", "opened_at", "id"),
        Index("ix_vicious_case_step_due", "next_step_due"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None)
    status: Mapped[str] = mapped_column(String(20))
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)  # when it was decided
    # The deadline of the notice in force (None before a notice), and the earliest next
    # step not yet taken: copies of the append-only rows, for the list and Today.
    notice_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    next_step_due: Mapped[date | None] = mapped_column(default=None)
    # Lower-case animal name, owner name and address, for the list's search.
    search_text: Mapped[str] = mapped_column(String(800), default="")


class ExceptionFinding(TypedDict):
    """An exception's finding as the declaration stores it (JSON)."""

    applies: bool
    why: str


class ViciousDeclaration(Base):
    """The officer's decision: grounds, a finding on every exception, allowed or refused."""

    __tablename__ = "vicious_declaration"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), unique=True)
    decided_at: Mapped[datetime] = mapped_column(UTCDateTime)
    officer: Mapped[str] = mapped_column(String(200))
    allowed: Mapped[bool]
    grounds: Mapped[list[str]] = mapped_column(JSON)  # codes of rules.vicious.GROUNDS
    # one for every rules.vicious.EXCEPTIONS code
    findings: Mapped[dict[str, ExceptionFinding]] = mapped_column(JSON)
    refusal_reasons: Mapped[list[str]] = mapped_column(JSON)  # the rules' reasons when refused
    owner_address: Mapped[str] = mapped_column(String(400), default="")  # as declared
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ViciousIncident(Base):
    """What the animal did, with date and place: described by the officer, or linked to a
    record another module offers on the seam (a bite report), named by (module, kind, id).

    The link has no foreign key, by design: this module reads no other module's tables, a
    declaration stays readable with that module uninstalled, and any module's incidents
    (a field call, later) link without a migration. The service checks the link through the
    seam when the declaration is made, and the date, place and summary it rests on are
    copied onto this row as they stood then (both rows are append-only)."""

    __tablename__ = "vicious_incident"
    __table_args__ = (
        Index("ix_vicious_incident_source", "source_module", "source_kind", "source_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), index=True)
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    place: Mapped[str] = mapped_column(String(300))
    what: Mapped[str] = mapped_column(Text)
    # The linked record on the seam, or all three None for an incident described here.
    source_module: Mapped[str | None] = mapped_column(String(40), default=None)
    source_kind: Mapped[str | None] = mapped_column(String(40), default=None)
    source_id: Mapped[int | None] = mapped_column(default=None)


class ViciousNotice(Base):
    """The written notice to destroy or remove the animal (58-524(c)(2))."""

    __tablename__ = "vicious_notice"
    __table_args__ = (CheckConstraint(_in("method", NOTICE_METHODS), name="method"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), index=True)
    method: Mapped[str] = mapped_column(String(20))
    served_at: Mapped[datetime] = mapped_column(UTCDateTime)  # when handed over, or posted
    served_by: Mapped[str] = mapped_column(String(200))
    place: Mapped[str] = mapped_column(String(400))  # where (the front door's address)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)  # from the rules, at service
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ViciousOutcome(Base):
    """What became of the notice: destroyed, removed from the city, or not complied."""

    __tablename__ = "vicious_outcome"
    __table_args__ = (CheckConstraint(_in("kind", OUTCOME_KINDS), name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    by_whom: Mapped[str] = mapped_column(String(200), default="")  # destroyed by
    proof: Mapped[str] = mapped_column(Text, default="")  # destroyed: the proof seen
    removed_to: Mapped[str] = mapped_column(String(400), default="")
    confirmed_how: Mapped[str] = mapped_column(Text, default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ViciousStep(Base):
    """A next step after the owner did not comply, with the day it is due."""

    __tablename__ = "vicious_step"
    __table_args__ = (CheckConstraint(_in("kind", STEP_KINDS), name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    due_on: Mapped[date]
    what: Mapped[str] = mapped_column(Text, default="")
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ViciousStepDone(Base):
    """A next step taken: when, and what came of it."""

    __tablename__ = "vicious_step_done"

    id: Mapped[int] = mapped_column(primary_key=True)
    step_id: Mapped[int] = mapped_column(ForeignKey("vicious_step.id"), unique=True)
    done_on: Mapped[date]
    result: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ViciousEnding(Base):
    """A declaration withdrawn or overturned (a court, an appeal): a new event, never an edit."""

    __tablename__ = "vicious_ending"
    __table_args__ = (CheckConstraint(_in("kind", ENDING_KINDS), name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("vicious_case.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    decided_on: Mapped[date]
    authority: Mapped[str] = mapped_column(String(300))  # who decided: the court, the appeal
    reason: Mapped[str] = mapped_column(Text)
    recorded_by: Mapped[str] = mapped_column(String(100))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
