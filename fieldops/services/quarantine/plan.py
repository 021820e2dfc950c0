"""A quarantine's plan as of its events, and the copies the list reads.

The plan is recomputed from the bite report, the order and the events with the
rules (``quarantine_plan``, ``plan_after_broken_home``, ``extend_observation``),
so every date shown has its "why" from the rules. Exams are matched to the
required days on the current plan in date order: an exam on the old last day
of an extended period counts as intervening if that one is missing, and the
last exam is due again on the new last day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.models import BiteReport, Quarantine, QuarantineEvent, QuarantineExam
from fieldops.rules import Profile
from fieldops.rules.quarantine import (
    QuarantinePlan,
    exam_slot,
    exam_warning,
    extend_observation,
    missing_exams,
    plan_after_broken_home,
    quarantine_plan,
)
from fieldops.services.quarantine.fixes import (
    Key,
    bitten_at_of,
    corrections_of,
    dated,
    examined_on_of,
    finding_of,
    rabies_proof_of,
)

STATUS_BY_EVENT = {
    "released": "certified",
    "died": "died",
    "euthanized": "euthanized",
    "escaped": "escaped",
}


@dataclass(frozen=True)
class State:
    """Everything derived from a quarantine's records at one moment."""

    plan: QuarantinePlan
    exam_slots: dict[int, str | None]  # exam id -> the required exam it counts as
    done: tuple[str, ...]
    status: str
    clinic_id: int | None
    delivered_at: datetime | None
    certificate_received_on: date | None
    closed_at: datetime | None
    # As corrected (fixes.py): each exam's day, finding and, where a correction moved a date,
    # its warning asked of the rules again (the stored one answered the uncorrected plan).
    exam_days: dict[int, date] = field(default_factory=dict)
    findings: dict[int, str] = field(default_factory=dict)
    warnings: dict[int, str] = field(default_factory=dict)


def events_of(s: Session, bite_id: int) -> list[QuarantineEvent]:
    return list(
        s.scalars(
            select(QuarantineEvent)
            .where(QuarantineEvent.bite_report_id == bite_id)
            .order_by(QuarantineEvent.at, QuarantineEvent.id)
        )
    )


def exams_of(s: Session, quarantine_id: int) -> list[QuarantineExam]:
    return list(
        s.scalars(
            select(QuarantineExam)
            .where(QuarantineExam.quarantine_id == quarantine_id)
            .order_by(QuarantineExam.examined_on, QuarantineExam.id)
        )
    )


def order_plan(
    bite: BiteReport, ordered_at: datetime, profile: Profile, fixes: dict[Key, str] | None = None
) -> QuarantinePlan:
    """The order's plan from the rules, on the bite's time as corrected."""
    return quarantine_plan(
        bitten_at_of(fixes, bite),
        ordered_at,
        profile,
        owner_known=bite.owner_id is not None,
        rabies_proof=rabies_proof_of(fixes, bite, profile),
    )


def state_of(
    bite: BiteReport,
    q: Quarantine,
    events: list[QuarantineEvent],
    exams: list[QuarantineExam],
    profile: Profile,
    fixes: dict[Key, str] | None = None,
) -> State:
    """Raises ``ValueError`` where the rules find the records impossible (only a
    correction being tried can do that: ``corrections.correct_record`` refuses it)."""
    plan = order_plan(bite, q.ordered_at, profile, fixes)
    status, clinic_id = "open", q.ordered_clinic_id
    delivered: datetime | None = None
    closed: datetime | None = None
    received: date | None = None
    # The plan's changes in the order they were recorded, each checked then against the
    # plan as it stood: an extension is timed when it is typed, so a broken home found
    # earlier that day inside the extended period would, replayed by time, fall after
    # the unextended last day. (The two commute otherwise: one moves the placement, the
    # other the last day.)
    for e in sorted(events, key=lambda e: e.id):
        if e.kind == "broken_home":
            plan = plan_after_broken_home(plan, e.at, profile)
        elif e.kind == "extended" and e.new_last_day is not None:
            plan = extend_observation(plan, e.new_last_day, e.who, profile)
    for e in events:
        if e.kind == "broken_home":
            clinic_id, delivered = e.clinic_id, None
        elif e.kind == "delivered":
            delivered = e.at
        elif e.kind == "certificate_received":
            received = e.received_on
        elif e.kind in STATUS_BY_EVENT and status == "open":
            status, closed = STATUS_BY_EVENT[e.kind], e.at
    slots: dict[int, str | None] = {}
    done: list[str] = []
    days = {x.id: examined_on_of(fixes, x) for x in exams}
    findings = {x.id: finding_of(fixes, x) for x in exams}
    warnings: dict[int, str] = {}
    moved = dated(fixes)
    for x in sorted(exams, key=lambda x: (days[x.id], x.id)):
        slot = exam_slot(plan, days[x.id], tuple(done))
        warnings[x.id] = exam_warning(plan, days[x.id], tuple(done)) if moved else x.warning
        slots[x.id] = slot
        if slot:
            done.append(slot)
    return State(
        plan,
        slots,
        tuple(done),
        status,
        clinic_id,
        delivered,
        received,
        closed,
        days,
        findings,
        warnings,
    )


def refresh(s: Session, bite: BiteReport, q: Quarantine, profile: Profile) -> State:
    """Rewrite the quarantine's copies from its records; returns the state."""
    fixes = corrections_of(s, bite.id)
    st = state_of(bite, q, events_of(s, bite.id), exams_of(s, q.id), profile, fixes)
    q.status, q.placement, q.clinic_id = st.status, st.plan.placement, st.clinic_id
    q.deliver_by = st.plan.deliver_by
    q.delivered_at = st.delivered_at
    q.first_exam_day, q.last_day = st.plan.first_exam_day, st.plan.last_day
    q.certificate_due = st.plan.certificate_due
    q.certificate_received_on = st.certificate_received_on
    q.closed_at = st.closed_at
    nxt = missing_exams(st.plan, st.done) if st.status == "open" else ()
    q.next_exam_due, q.next_exam_by = (nxt[0][1], nxt[0][2]) if nxt else (None, None)
    return st
