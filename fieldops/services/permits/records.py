"""Reading a permit: the permit view, and what every verb shares."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    Permit,
    PermitAnimalList,
    PermitAppeal,
    PermitAppealDecision,
    PermitApplication,
    PermitIncident,
    PermitIssue,
    PermitNotice,
    PermitReview,
    PermitRevocation,
    Person,
)
from fieldops.errors import NotFoundError, StaleRecordError, ValidationError
from fieldops.rules import Profile, explain_fancier_list_update_due, fancier_renewal, to_local
from fieldops.rules.permits import permit_rules
from fieldops.services.context import Actor, audit, jsonable, now, require_row_id
from fieldops.services.permits.views import (
    ENDING_LABELS,
    INCIDENT_LABELS,
    KIND_LABELS,
    KIND_SECTIONS,
    OUTCOME_LABELS,
    PURPOSE_LABELS,
    AnimalLine,
    AppealView,
    ApplicationView,
    DecisionView,
    IncidentView,
    IssueView,
    ListEntryView,
    NoticeView,
    PermitView,
    ProblemView,
    ReviewView,
    RevocationView,
    status_text,
)


def load(s: Session, permit_id: int, *, lock: bool = False, version: int | None = None) -> Permit:
    """The permit row; ``lock`` holds it to commit; ``version`` refuses a stale screen."""
    require_row_id(Permit, permit_id)  # an id no INTEGER holds: not found, not an overflow
    permit = s.get(Permit, permit_id, with_for_update=lock)
    if permit is None:
        raise NotFoundError(f"There is no permit #{permit_id}.")
    if version is not None and permit.version != version:
        raise StaleRecordError(
            f"Permit #{permit_id} was changed by someone else since it was opened: "
            "reopen it to see the change."
        )
    return permit


def change_summary(s: Session, by: Actor, permit: Permit, reason: str, **changes: object) -> None:
    """Change the permit's working summary (status, the year in force, due days), audited.
    Called inside a verb's unit of work, whose permission was checked."""
    before = {k: jsonable(getattr(permit, k)) for k in changes}
    for k, v in changes.items():
        setattr(permit, k, v)
    after = {k: jsonable(v) for k, v in changes.items()}
    if before != after:
        audit(
            s, by, "permit_status", "permit", permit.id, before=before, after=after, reason=reason
        )


def refuse_unless(ok: bool, field: str, message: str) -> None:
    if not ok:
        raise ValidationError({field: message})


def animal_lines(raw: object) -> tuple[AnimalLine, ...]:
    out = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict):
            out.append(
                AnimalLine(
                    str(item.get("species") or ""),
                    int(item.get("count") or 0),
                    str(item.get("names") or ""),
                )
            )
    return tuple(out)


def incident_view(i: PermitIncident) -> IncidentView:
    return IncidentView(
        i.id,
        i.occurred_on,
        i.kind,
        INCIDENT_LABELS.get(i.kind, i.kind),
        i.ending,
        ENDING_LABELS.get(i.ending, i.ending),
        i.citation_number,
        i.description,
        i.recorded_by,
        i.distance_feet,
    )


def appeal_why(review: PermitReview, mailed_on: date, profile: Profile) -> str:
    """The rules' sentence for the appeal's due day (the review's decision, as it was made)."""
    counted = [date.fromisoformat(x) for x in review.counted or []]
    return fancier_renewal(counted, review.review_day, profile).explain_appeal_by(mailed_on)


def _application_view(a: PermitApplication, issued: set[int]) -> ApplicationView:
    return ApplicationView(
        a.id,
        a.first,
        a.year,
        a.applied_on,
        a.hoa_exists,
        a.hoa_consent,
        a.hoa_consent_on,
        a.hens,
        a.roosters,
        a.setback_feet,
        a.neighbour_consent,
        a.residence_setback_feet,
        a.state_registered_on,
        a.application_fee,
        a.annual_fee,
        a.late_fee,
        a.total,
        a.late,
        a.due_by,
        tuple((str(k), str(v)) for k, v in (a.fee_why or {}).items()),
        a.refused,
        tuple(
            ProblemView(str(p.get("code", "")), str(p.get("field", "")), str(p.get("message", "")))
            for p in a.problems or []
        ),
        a.notes,
        a.id in issued,
        a.recorded_by,
    )


def _reviews(
    s: Session, permit_id: int, incidents: dict[int, IncidentView], profile: Profile
) -> list[ReviewView]:
    notices = {
        n.review_id: n
        for n in s.scalars(select(PermitNotice).where(PermitNotice.permit_id == permit_id))
    }
    appeals = {
        a.notice_id: a
        for a in s.scalars(select(PermitAppeal).where(PermitAppeal.permit_id == permit_id))
    }
    decisions = {
        d.appeal_id: d
        for d in s.scalars(
            select(PermitAppealDecision)
            .join(PermitAppeal, PermitAppeal.id == PermitAppealDecision.appeal_id)
            .where(PermitAppeal.permit_id == permit_id)
        )
    }
    out = []
    for r in s.scalars(
        select(PermitReview)
        .where(PermitReview.permit_id == permit_id)
        .order_by(PermitReview.review_day, PermitReview.id)
    ):
        n = notices.get(r.id)
        notice = (
            NoticeView(
                n.id,
                n.mailed_on,
                n.article_number,
                n.appeal_by,
                appeal_why(r, n.mailed_on, profile),
                n.recorded_by,
            )
            if n
            else None
        )
        a = appeals.get(n.id) if n else None
        d = decisions.get(a.id) if a else None
        appeal = (
            AppealView(
                a.id,
                a.filed_on,
                a.grounds,
                DecisionView(
                    d.decided_on,
                    d.outcome,
                    OUTCOME_LABELS.get(d.outcome, d.outcome),
                    d.authority,
                    d.reason,
                    d.recorded_by,
                )
                if d
                else None,
                a.recorded_by,
            )
            if a
            else None
        )
        out.append(
            ReviewView(
                r.id,
                r.year,
                r.review_day,
                r.purpose,
                PURPOSE_LABELS.get(r.purpose, r.purpose),
                r.renew,
                tuple(date.fromisoformat(x) for x in r.counted or []),
                tuple(incidents[i] for i in r.incident_ids or [] if i in incidents),
                r.notes,
                notice,
                appeal,
                r.recorded_by,
                r.may_reapply_on,
            )
        )
    return out


def build_view(s: Session, permit: Permit, profile: Profile) -> PermitView:
    holder = s.get(Person, permit.holder_id)
    issues_rows = s.scalars(
        select(PermitIssue)
        .where(PermitIssue.permit_id == permit.id)
        .order_by(PermitIssue.year, PermitIssue.id)
    ).all()
    issued = {i.application_id for i in issues_rows}
    applications = tuple(
        _application_view(a, issued)
        for a in s.scalars(
            select(PermitApplication)
            .where(PermitApplication.permit_id == permit.id)
            .order_by(PermitApplication.id)
        )
    )
    issues = tuple(
        IssueView(
            i.year,
            i.issued_on,
            i.expires_on,
            n > 0,
            i.recorded_by,
            i.paid_amount,
            i.payment_method,
            i.receipt_number,
        )
        for n, i in enumerate(issues_rows)
    )
    entries = tuple(
        ListEntryView(
            e.id,
            e.kind,
            e.changed_on,
            e.updated_on,
            e.due_by,
            animal_lines(e.animals),
            e.note,
            e.kind == "update" and e.updated_on is not None and e.updated_on > e.due_by,
            explain_fancier_list_update_due(e.changed_on, profile),
            e.recorded_by,
        )
        for e in s.scalars(
            select(PermitAnimalList)
            .where(PermitAnimalList.permit_id == permit.id)
            .order_by(PermitAnimalList.id)
        )
    )
    updates = [e for e in entries if e.kind == "update"]
    incidents = {
        i.id: incident_view(i)
        for i in s.scalars(
            select(PermitIncident)
            .where(PermitIncident.permit_id == permit.id)
            .order_by(PermitIncident.occurred_on, PermitIncident.id)
        )
    }
    rv = s.scalar(
        select(PermitRevocation)
        .where(PermitRevocation.permit_id == permit.id)
        .order_by(PermitRevocation.id.desc())
        .limit(1)
    )
    return PermitView(
        id=permit.id,
        kind=permit.kind,
        kind_label=KIND_LABELS.get(permit.kind, permit.kind),
        section=KIND_SECTIONS.get(permit.kind, ""),
        holder_id=permit.holder_id,
        holder=holder.full_name if holder else "",
        address=permit.address,
        status=permit.status,
        status_label=status_text(permit.status, len(issues) > 1),
        year=permit.year,
        first_year=permit.first_year,
        issued_on=permit.issued_on,
        expires_on=permit.expires_on,
        list_update_due=permit.list_update_due,
        appeal_by=permit.appeal_by,
        applications=applications,
        issues=issues,
        animals=updates[-1].animals if updates else (),
        list_entries=entries,
        incidents=tuple(incidents.values()),
        reviews=tuple(_reviews(s, permit.id, incidents, profile)),
        revocation=RevocationView(rv.revoked_on, rv.reason, rv.recorded_by) if rv else None,
        version=permit.version,
        source=permit_rules(permit.kind, profile).source,
    )


def load_permit(db: Database, permit_id: int, profile: Profile) -> PermitView:
    with db.read() as s:
        return build_view(s, load(s, permit_id), profile)


def search_text(holder: Person | None, address: str) -> str:
    return " ".join(x for x in ((holder.full_name if holder else ""), address) if x).lower()[:800]


def local_today(profile: Profile) -> date:
    """Today in the jurisdiction's time zone (a day typed on a form is a local day)."""
    return to_local(now(), profile).date()
