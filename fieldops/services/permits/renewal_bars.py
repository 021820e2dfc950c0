"""What bars a permit's renewal or a new permit, read from the record and decided by the
rules: the year and a renewal already applied for, the chicken renewal test of the profile
(``chicken_renewal``, the village's ch. 12 (h)) and the ban after a non-renewal.

Shared by ``applying`` (renewals, new permits) and ``enforcing`` (the review)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fieldops.db.models import (
    Permit,
    PermitApplication,
    PermitIncident,
    PermitIssue,
    PermitReview,
    Person,
)
from fieldops.rules import ChickenRenewalDecision, Profile, chicken_renewal
from fieldops.rules.permits import COUNTED_INCIDENT_ENDINGS
from fieldops.services.permits.records import refuse_unless


def incident_rows(s: Session, permit: Permit) -> list[tuple[int, date, str, int | None]]:
    """The permit's incidents as ``(id, day, ending, distance_feet)``, oldest first."""
    rows = s.execute(
        select(
            PermitIncident.id,
            PermitIncident.occurred_on,
            PermitIncident.ending,
            PermitIncident.distance_feet,
        )
        .where(PermitIncident.permit_id == permit.id)
        .order_by(PermitIncident.occurred_on, PermitIncident.id)
    ).all()
    return [(i, d, e, f) for i, d, e, f in rows]


def chicken_decision(
    s: Session, permit: Permit, day: date, profile: Profile
) -> tuple[ChickenRenewalDecision, list[int]]:
    """The rules' chicken renewal test on ``day`` over the permit's incidents (neighbours'
    complaints with their distance, violations found), and the ids of those it counted."""
    rows = incident_rows(s, permit)
    found = [(i, d) for i, d, ending, _f in rows if ending in COUNTED_INCIDENT_ENDINGS]
    complaints = [(i, d, f) for i, d, _e, f in rows if f is not None]
    decision = chicken_renewal(
        day,
        profile,
        complaints=[(d, f) for _i, d, f in complaints],
        violations=[d for _i, d in found],
    )
    near, inside = set(decision.counted_complaints), set(decision.counted_violations)
    ids = sorted({i for i, d, _f in complaints if d in near} | {i for i, d in found if d in inside})
    return decision, ids


def may_renew(s: Session, permit: Permit, kind: str, year: int) -> None:
    """Refuse a renewal of another kind, of a permit not in force, for a year already
    issued, or while a renewal already applied for waits to be issued."""
    refuse_unless(permit.kind == kind, "permit", "This is not a permit of that kind.")
    refuse_unless(
        permit.status == "issued",
        "permit",
        f"Only an issued permit is renewed; this one is {permit.status.replace('_', ' ')}.",
    )
    refuse_unless(
        year > permit.year,
        "year",
        f"The permit is already issued for {permit.year}: renew for a later year.",
    )
    pending = s.scalar(
        select(PermitApplication.id)
        .where(
            PermitApplication.permit_id == permit.id,
            PermitApplication.refused.is_(False),
            PermitApplication.id.not_in(select(PermitIssue.application_id)),
        )
        .limit(1)
    )
    refuse_unless(pending is None, "permit", "A renewal is already applied for: issue it.")


def banned_until(s: Session, holder: Person, day: date) -> date | None:
    """The day a permittee whose chicken permit was not renewed may apply again, if later
    than ``day``. Village ch. 12 (h): "Any permittee whose permit is non-renewed ... may
    not re-apply for another permit under this section": the ban binds the person, at any
    address."""
    until = s.scalar(
        select(func.max(PermitReview.may_reapply_on))
        .join(Permit, Permit.id == PermitReview.permit_id)
        .where(
            Permit.kind == "chicken",
            Permit.holder_id == holder.id,
            PermitReview.renew.is_(False),
        )
    )
    return until if until is not None and until > day else None
