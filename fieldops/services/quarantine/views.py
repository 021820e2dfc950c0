"""What the screens and documents read about a bite case: frozen data, never ORM rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from fieldops.db.models import (
    Animal,
    BiteReport,
    Clinic,
    Impoundment,
    Person,
    Quarantine,
    QuarantineEvent,
    QuarantineExam,
)
from fieldops.rules import Profile, to_local
from fieldops.rules.quarantine import (
    EXAM_FINDINGS,
    EXAM_SLOTS,
    SPECIMEN_NOTE,
    observation_day,
    observation_length,
    rabies_proof_on,
    referral_why,
    required_exams,
)
from fieldops.services.context import fetch
from fieldops.services.quarantine.fixes import (
    Key,
    bitten_at_of,
    corrected,
    corrected_fee,
    corrections_of,
    rabies_proof_of,
)
from fieldops.services.quarantine.plan import State, events_of, exams_of, state_of

STATUS_LABELS = {
    "open": "Open",
    "certified": "Certified, released",
    "died": "Died",
    "euthanized": "Euthanized",
    "escaped": "Escaped",
}
PLACEMENT_LABELS = {"home": "Home", "clinic": "Clinic"}
EVENT_LABELS = {
    "delivered": "Delivered to the clinic",
    "broken_home": "Home quarantine broken",
    "extended": "Observation extended",
    "signs_of_rabies": "Signs of rabies",
    "died": "Died",
    "euthanized": "Euthanized",
    "specimen_sent": "Specimen sent",
    "escaped": "Escaped",
    "certificate_received": "Certificate received",
    "released": "Released, certified by the veterinarian",
    "referral_sent": "Referred",
}


@dataclass(frozen=True)
class ExamView:
    id: int
    examined_on: date
    veterinarian: str
    clinic: str
    finding: str
    finding_label: str
    fee: Decimal
    counts_as: str  # "first examination", ..., or "" (on no required day)
    warning: str
    recorded_by: str


@dataclass(frozen=True)
class RequiredExam:
    """One required exam on the timeline: "done", "due" (its day/window is today),
    "overdue", or "upcoming"; "not_needed" once the quarantine closed without it."""

    slot: str
    label: str
    start: date
    end: date
    state: str
    exam_id: int | None = None


@dataclass(frozen=True)
class EventView:
    id: int
    kind: str
    label: str
    at: datetime
    who: str
    clinic: str
    new_last_day: date | None
    received_on: date | None
    citation: str
    notes: str
    recorded_by: str


@dataclass(frozen=True)
class BiteView:
    id: int
    bitten_at: datetime
    place: str
    victim_name: str
    # The contact itself is private to the case: read only with ``bite_victim_contact``.
    has_victim_contact: bool
    species: str
    animal_id: int | None
    animal: str
    owner_id: int | None
    owner: str
    owner_address: str
    impoundment_id: int | None
    reported_by: str
    reported_at: datetime
    rabies_certificate: str
    rabies_vaccinated_on: date | None
    rabies_expires_on: date | None
    rabies_proof: bool
    rabies_why: str
    officer: str
    referral: bool
    referral_why: str
    notes: str
    quarantine_id: int | None
    events: tuple[EventView, ...] = ()

    @property
    def referral_sent(self) -> EventView | None:
        return next((e for e in self.events if e.kind == "referral_sent"), None)


@dataclass(frozen=True)
class QuarantineView:
    id: int
    version: int
    bite: BiteView
    status: str
    status_label: str
    placement: str
    placement_label: str
    clinic_id: int | None
    clinic: str
    clinic_address: str
    ordered_at: datetime
    deliver_by: datetime | None
    delivered_at: datetime | None
    first_exam_day: date
    window: tuple[date, date] | None
    last_day: date
    certificate_due: date
    certificate_received_on: date | None
    closed_at: datetime | None
    why: dict[str, str]
    notes: tuple[str, ...]
    day_n: int
    length: int
    required: tuple[RequiredExam, ...]
    exams: tuple[ExamView, ...]
    events: tuple[EventView, ...]
    exam_fees: Decimal
    specimen_note: str = SPECIMEN_NOTE
    warnings: tuple[str, ...] = field(default=())
    # What is owed and paid (exams, boarding at the pound): ``fees.Fees``, read with the view.
    fees: Any = None

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def day_label(self) -> str:
        return f"day {self.day_n} of {self.length}"


def _animal_label(a: Animal | None, description: str, species: str) -> str:
    if a is None:
        return description or f"unidentified {species}"
    return f"{a.name or '(no name)'} ({a.species}{', ' + a.breed if a.breed else ''})"


def _clinic_name(s: Session, clinic_id: int | None) -> str:
    c = s.get(Clinic, clinic_id) if clinic_id is not None else None
    return c.name if c else ""


def event_view(s: Session, e: QuarantineEvent, fixes: dict[Key, str] | None = None) -> EventView:
    f = fixes or {}
    return EventView(
        e.id,
        e.kind,
        EVENT_LABELS[e.kind],
        e.at,
        corrected(f, "event", e.id, "who", e.who),
        _clinic_name(s, e.clinic_id),
        e.new_last_day,
        e.received_on,
        corrected(f, "event", e.id, "citation", e.citation),
        corrected(f, "event", e.id, "notes", e.notes),
        e.recorded_by,
    )


def bite_view(
    s: Session,
    bite: BiteReport,
    profile: Profile,
    events: Sequence[QuarantineEvent] | None = None,
    fixes: dict[Key, str] | None = None,
    quarantine_id: int | None = None,
) -> BiteView:
    """``events``, ``fixes`` and ``quarantine_id``: the case's events, corrections and
    quarantine where the caller has read them already (the record view), not read twice."""
    animal = s.get(Animal, bite.animal_id) if bite.animal_id is not None else None
    owner = s.get(Person, bite.owner_id) if bite.owner_id is not None else None
    q_id = (
        quarantine_id
        if quarantine_id is not None
        else s.query(Quarantine.id).filter_by(bite_report_id=bite.id).scalar()
    )
    events = events if events is not None else events_of(s, bite.id)
    fixes = fixes if fixes is not None else corrections_of(s, bite.id)

    def fixed(field: str) -> str:
        return corrected(fixes, "bite_report", bite.id, field, getattr(bite, field))

    bitten_at = bitten_at_of(fixes, bite)
    day = to_local(bitten_at, profile).date()
    proof = rabies_proof_on(day, bite.rabies_vaccinated_on, bite.rabies_expires_on)
    from fieldops.services.people import format_address

    return BiteView(
        bite.id,
        bitten_at,
        fixed("place"),
        fixed("victim_name"),
        bool(bite.victim_contact),
        bite.species,
        bite.animal_id,
        _animal_label(animal, fixed("animal_description"), bite.species),
        bite.owner_id,
        owner.full_name if owner else "unknown",
        format_address(owner.address, owner.city, owner.state, owner.postal_code) if owner else "",
        bite.impoundment_id,
        fixed("reported_by"),
        bite.reported_at,
        fixed("rabies_certificate"),
        bite.rabies_vaccinated_on,
        bite.rabies_expires_on,
        rabies_proof_of(fixes, bite, profile),
        proof.why,
        fixed("officer"),
        bite.referral,
        referral_why(bite.species) if bite.referral else "",
        fixed("notes"),
        q_id,
        tuple(event_view(s, e, fixes) for e in events),
    )


def _required(st: State, exams: Sequence[QuarantineExam], today: date) -> tuple[RequiredExam, ...]:
    by_slot = {slot: x_id for x_id, slot in st.exam_slots.items() if slot}
    out = []
    for slot, start, end in required_exams(st.plan):
        if slot in by_slot:
            state = "done"
        elif st.status != "open":
            state = "not_needed"
        elif end < today:
            state = "overdue"
        elif start <= today:
            state = "due"
        else:
            state = "upcoming"
        out.append(RequiredExam(slot, EXAM_SLOTS[slot], start, end, state, by_slot.get(slot)))
    return tuple(out)


@dataclass(frozen=True)
class CaseRows:
    """The rows of one quarantine's bite case that its view and its fees both read: read
    once for a record's view (each was read two or three times, one statement each)."""

    bite: BiteReport
    events: list[QuarantineEvent]
    exams: list[QuarantineExam]
    fixes: dict[Key, str]
    # Held here so that the session's identity map (weak) keeps it for the view's and the
    # fees' own gets: a row nobody holds is read again.
    animal: Animal | None


def case_rows(s: Session, q: Quarantine) -> CaseRows:
    bite = fetch(s, BiteReport, q.bite_report_id)
    return CaseRows(
        bite,
        events_of(s, bite.id),
        exams_of(s, q.id),
        corrections_of(s, bite.id),
        s.get(Animal, bite.animal_id) if bite.animal_id is not None else None,
    )


def quarantine_view(
    s: Session, q: Quarantine, profile: Profile, today: date, case: CaseRows | None = None
) -> QuarantineView:
    case = case or case_rows(s, q)
    bite, events, exams, fixes = case.bite, case.events, case.exams, case.fixes
    st = state_of(bite, q, events, exams, profile, fixes)
    clinic = s.get(Clinic, st.clinic_id) if st.clinic_id is not None else None
    exam_views = tuple(
        ExamView(
            x.id,
            st.exam_days[x.id],
            corrected(fixes, "exam", x.id, "veterinarian", x.veterinarian),
            _clinic_name(s, x.clinic_id),
            st.findings[x.id],
            EXAM_FINDINGS[st.findings[x.id]],
            corrected_fee(fixes, x.id, x.fee),
            EXAM_SLOTS.get(st.exam_slots.get(x.id) or "", ""),
            st.warnings[x.id],
            x.recorded_by,
        )
        for x in sorted(exams, key=lambda x: (st.exam_days[x.id], x.id))
    )
    warnings = []
    if any(f == "signs_of_rabies" for f in st.findings.values()) and not any(
        e.kind == "signs_of_rabies" for e in events
    ):
        warnings.append(
            "Signs of rabies were found at an examination: record when the health "
            "officer was notified, and by whom."
        )
    if any(e.kind in ("died", "euthanized") for e in events) and not any(
        e.kind == "specimen_sent" for e in events
    ):
        warnings.append(
            "Record when the specimen went to the State Laboratory of Hygiene, and "
            "who sent it. " + SPECIMEN_NOTE
        )
    if st.plan.placement == "clinic" and st.delivered_at is None and st.status == "open":
        warnings.append("Delivery to the clinic is not recorded yet.")
    ev = tuple(event_view(s, e, fixes) for e in events)
    return QuarantineView(
        q.id,
        q.version,
        bite_view(s, bite, profile, events, fixes, q.id),
        st.status,
        STATUS_LABELS[st.status],
        st.plan.placement,
        PLACEMENT_LABELS[st.plan.placement],
        st.clinic_id,
        clinic.name if clinic else "",
        clinic.address if clinic else "",
        q.ordered_at,
        st.plan.deliver_by,
        st.delivered_at,
        st.plan.first_exam_day,
        st.plan.intervening_exam_window,
        st.plan.last_day,
        st.plan.certificate_due,
        st.certificate_received_on,
        st.closed_at,
        dict(st.plan.why),
        st.plan.notes,
        max(0, min(observation_day(st.plan, today), observation_length(st.plan))),
        observation_length(st.plan),
        _required(st, exams, today),
        exam_views,
        ev,
        sum((x.fee for x in exam_views), Decimal("0")),
        warnings=tuple(warnings),
    )


def impoundment_label(s: Session, impoundment_id: int | None) -> str:
    imp = s.get(Impoundment, impoundment_id) if impoundment_id is not None else None
    return f"impoundment #{imp.id}" if imp else ""
