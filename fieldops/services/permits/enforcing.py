"""What is observed and decided about a permit: the fancier's animal list, incidents, the
annual review (``fancier_renewal``), the certified-mail notice, the appeal and its decision,
and a chicken permit's revocation for a violation (58-533(a),(b))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    Permit,
    PermitIncident,
    PermitReview,
    PermitRevocation,
)
from fieldops.db.models.permit import INCIDENT_ENDINGS, INCIDENT_KINDS
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, fancier_renewal, format_day
from fieldops.rules.permits import COUNTED_INCIDENT_ENDINGS
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.permits.records import (
    build_view,
    change_summary,
    load,
    local_today,
    refuse_unless,
)
from fieldops.services.permits.renewal_bars import chicken_decision, incident_rows
from fieldops.services.permits.views import PermitView

_TEXT = 4000


def _day(c: Collector, name: str, value: date | None, label: str, profile: Profile) -> None:
    if value is None:
        c.add(name, f"{label} is required.")
    elif v.day(c, name, value, label):
        v.not_future(c, name, value, label, local_today(profile))


def _open(
    s: Session,
    actor: Actor,
    permit_id: int,
    key: str | None,
    version: int | None,
    profile: Profile,
) -> tuple[Permit | None, PermitView | None]:
    """The permit locked for a verb, or the view of a retry already recorded."""
    if (done := existing_save(s, key, "permit_action", actor)) is not None:
        return None, build_view(s, load(s, done), profile)
    return load(s, permit_id, lock=True, version=version), None


def _finish(
    s: Session, actor: Actor, permit: Permit, key: str | None, profile: Profile
) -> PermitView:
    s.flush()
    remember_save(s, key, "permit_action", permit.id, actor)
    return build_view(s, permit, profile)


def _fancier(permit: Permit) -> None:
    refuse_unless(permit.kind == "fancier", "permit", "Only an animal fancier's permit has this.")


# --- incidents and the annual review ---------------------------------------------------


@dataclass(frozen=True)
class IncidentInput:
    occurred_on: date | None
    kind: str  # INCIDENT_KINDS
    ending: str  # "warning" | "citation" | "none"
    description: str
    citation_number: str = ""
    # A neighbour's complaint: feet from the complaining owner's property (chicken permits
    # where the profile's renewal test counts complaints within a radius); else None.
    distance_feet: int | None = None


@requires(Permission.RECORDS)
def record_incident(
    db: Database,
    actor: Actor,
    permit_id: int,
    inp: IncidentInput,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """An incident (attack, noise, at large, waste, licensing, number, other) and how it
    ended; those ending in a warning or a citation count at the annual review."""
    c = Collector()
    _day(c, "occurred_on", inp.occurred_on, "The day of the incident", profile)
    c.check(inp.kind in INCIDENT_KINDS, "kind", "Choose what kind of incident it was.")
    c.check(inp.ending in INCIDENT_ENDINGS, "ending", "Choose how it ended.")
    v.required(c, "description", (inp.description or "").strip(), "What happened", _TEXT)
    number = v.clean(inp.citation_number)
    col = PermitIncident.__table__.c
    if inp.ending == "citation":
        v.required(c, "citation_number", number, "The citation's number", col.citation_number)
    else:
        v.optional_len(c, "citation_number", number, "The citation's number", col.citation_number)
    distance = inp.distance_feet
    if distance is not None and (
        isinstance(distance, bool) or not isinstance(distance, int) or not 0 <= distance <= 99_999
    ):
        c.add("distance_feet", "The distance must be a whole number of feet, 0 to 99,999.")
    c.raise_if_any()
    assert inp.occurred_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        i = PermitIncident(
            permit_id=permit.id,
            occurred_on=inp.occurred_on,
            kind=inp.kind,
            ending=inp.ending,
            citation_number=number,
            distance_feet=distance,
            description=inp.description.strip(),
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(i)
        s.flush()
        audit(
            s,
            actor,
            "permit_incident",
            "permit",
            permit.id,
            after=jsonable(
                {
                    "incident": i.id,
                    "occurred_on": i.occurred_on,
                    "kind": i.kind,
                    "ending": i.ending,
                    "citation_number": number,
                    "distance_feet": distance,
                }
            ),
        )
        return _finish(s, actor, permit, client_key, profile)


@requires(Permission.NOTICES)
def review_permit(
    db: Database,
    actor: Actor,
    permit_id: int,
    review_day: date | None,
    profile: Profile,
    *,
    purpose: str = "renewal",
    notes: str = "",
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The review of incidents, decided by the rules: for a fancier's permit by
    ``fancier_renewal`` (three or more ending in a warning or citation in the 12 months up
    to the review day); for a chicken permit by ``chicken_renewal`` (the profile's test of
    neighbours' complaints and a violation found; the city's sets none). Against the holder:
    not renewed (``purpose="renewal"``) or revoked (``"revocation"``)."""
    c = Collector()
    _day(c, "review_day", review_day, "The day of the review", profile)
    c.check(purpose in ("renewal", "revocation"), "purpose", "Choose what the review is for.")
    v.optional_len(c, "notes", (notes or "").strip(), "Notes", _TEXT)
    c.raise_if_any()
    assert review_day is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        refuse_unless(
            permit.status == "issued",
            "permit",
            f"Only an issued permit is reviewed; this one is {permit.status.replace('_', ' ')}.",
        )
        if permit.issued_on is not None and review_day < permit.issued_on:
            raise ValidationError(
                {
                    "review_day": "The review cannot be dated before the permit in force was "
                    f"issued, on {format_day(permit.issued_on)}."
                }
            )
        reapply: date | None = None
        if permit.kind == "fancier":
            found = [
                (i, d) for i, d, e, _f in incident_rows(s, permit) if e in COUNTED_INCIDENT_ENDINGS
            ]
            decision = fancier_renewal([d for _i, d in found], review_day, profile)
            renew, days = decision.renew, decision.counted
            ids = [i for i, d in found if d in set(days)]
        else:  # a chicken permit: the profile's complaint test (the village's ch. 12 (h))
            cd, ids = chicken_decision(s, permit, review_day, profile)
            renew, reapply = cd.renew, cd.may_reapply_on
            days = tuple(sorted((*cd.counted_complaints, *cd.counted_violations)))
        r = PermitReview(
            permit_id=permit.id,
            year=permit.year,
            review_day=review_day,
            purpose=purpose,
            renew=renew,
            counted=[d.isoformat() for d in days],
            incident_ids=ids,
            may_reapply_on=reapply,
            notes=(notes or "").strip(),
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(r)
        s.flush()
        audit(
            s,
            actor,
            "permit_reviewed",
            "permit",
            permit.id,
            after=jsonable(
                {
                    "review": r.id,
                    "review_day": review_day,
                    "purpose": purpose,
                    "renew": renew,
                    "counted": list(days),
                    "may_reapply_on": reapply,
                }
            ),
        )
        if not renew:
            status = "not_renewed" if purpose == "renewal" else "revoked"
            change_summary(s, actor, permit, "review decided against the holder", status=status)
        return _finish(s, actor, permit, client_key, profile)


def _adverse_review(s: Session, permit: Permit) -> PermitReview | None:
    r = s.scalar(
        select(PermitReview)
        .where(PermitReview.permit_id == permit.id)
        .order_by(PermitReview.review_day.desc(), PermitReview.id.desc())
        .limit(1)
    )
    return r if r is not None and not r.renew else None


@requires(Permission.NOTICES)
def revoke_chicken(
    db: Database,
    actor: Actor,
    permit_id: int,
    revoked_on: date | None,
    reason: str,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """A chicken permit revoked for a violation (58-533(b)), with the reason and the day."""
    c = Collector()
    _day(c, "revoked_on", revoked_on, "The day of revocation", profile)
    v.required(c, "reason", (reason or "").strip(), "The violation", _TEXT)
    c.raise_if_any()
    assert revoked_on is not None
    with db.write() as s:
        permit, done = _open(s, actor, permit_id, client_key, version, profile)
        if done is not None:
            return done
        assert permit is not None
        refuse_unless(permit.kind == "chicken", "permit", "Only a chicken permit is revoked here.")
        refuse_unless(
            permit.status == "issued",
            "permit",
            f"Only an issued permit is revoked; this one is {permit.status.replace('_', ' ')}.",
        )
        refuse_unless(
            permit.issued_on is None or revoked_on >= permit.issued_on,
            "revoked_on",
            "A permit cannot be revoked before it was issued.",
        )
        s.add(
            PermitRevocation(
                permit_id=permit.id,
                revoked_on=revoked_on,
                reason=reason.strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        s.flush()
        audit(
            s,
            actor,
            "permit_revoked",
            "permit",
            permit.id,
            after=jsonable({"revoked_on": revoked_on}),
            reason=reason.strip(),
        )
        change_summary(s, actor, permit, "revoked for a violation", status="revoked")
        return _finish(s, actor, permit, client_key, profile)
