"""What the vicious-animal screens and documents show: frozen views, never ORM objects."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from fieldops.rules import vicious as rules

STATUS_LABELS = {
    "refused": "Refused: an exception applies",
    "declared": "Declared: notice to serve",
    "served": "Notice served",
    "removed": "Complied: removed from the city",
    "destroyed": "Complied: destroyed",
    "not_complied": "Not complied: next steps",
    "withdrawn": "Declaration withdrawn",
    "overturned": "Declaration overturned",
}


@dataclass(frozen=True)
class FindingView:
    code: str
    section: str
    text: str  # the ordinance's words
    applies: bool
    why: str


@dataclass(frozen=True)
class IncidentView:
    id: int
    occurred_at: datetime
    place: str
    what: str
    # The record it is linked to on the seam (module, kind, id), or None if described here.
    linked: tuple[str, str, int] | None = None


@dataclass(frozen=True)
class NoticeView:
    id: int
    method: str
    method_label: str
    served_at: datetime
    served_by: str
    place: str
    deadline: datetime
    deadline_text: str  # weekday, date and time
    deadline_why: str  # "Why this date?"
    notes: str
    recorded_by: str


@dataclass(frozen=True)
class OutcomeView:
    kind: str
    label: str
    at: datetime
    by_whom: str
    proof: str
    removed_to: str
    confirmed_how: str
    notes: str
    recorded_by: str


@dataclass(frozen=True)
class StepView:
    id: int
    kind: str
    label: str
    section: str
    due_on: date
    what: str
    done_on: date | None
    result: str


@dataclass(frozen=True)
class EndingView:
    kind: str
    label: str
    decided_on: date
    authority: str
    reason: str
    recorded_by: str


@dataclass(frozen=True)
class CaseView:
    id: int
    status: str
    status_label: str
    declared: bool  # the animal stands declared vicious now
    animal_id: int
    animal: str  # "Rex (dog, Beagle, brown)"
    owner_id: int | None
    owner: str
    owner_address: str  # as at the declaration
    decided_at: datetime
    officer: str
    grounds: tuple[tuple[str, str, str], ...]  # (code, section, ordinance text)
    findings: tuple[FindingView, ...]
    refusal_reasons: tuple[str, ...]
    notes: str
    incidents: tuple[IncidentView, ...]
    notices: tuple[NoticeView, ...]  # oldest first; the last is in force
    outcome: OutcomeView | None
    steps: tuple[StepView, ...]
    ending: EndingView | None
    recorded_by: str
    version: int
    # The notice's period in the jurisdiction's profile (58-524(c)(2): 48 in the city).
    notice_hours: int = 48

    @property
    def notice(self) -> NoticeView | None:
        return self.notices[-1] if self.notices else None

    @property
    def can_serve(self) -> bool:
        return self.status in ("declared", "served")

    @property
    def can_record_outcome(self) -> bool:
        return self.status == "served"

    @property
    def can_add_step(self) -> bool:
        return self.status == "not_complied"

    @property
    def can_end(self) -> bool:
        return self.declared


def ground_rows(codes: Iterable[str]) -> tuple[tuple[str, str, str], ...]:
    return tuple((c, rules.GROUND_SECTIONS.get(c, ""), rules.GROUND_TEXT.get(c, c)) for c in codes)
