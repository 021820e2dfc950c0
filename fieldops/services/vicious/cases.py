"""Reading a vicious-animal case: the case view, and what every verb shares."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    DECLARED_STATUSES,
    Animal,
    Person,
    ViciousCase,
    ViciousDeclaration,
    ViciousEnding,
    ViciousIncident,
    ViciousNotice,
    ViciousOutcome,
    ViciousStep,
    ViciousStepDone,
)
from fieldops.db.models.vicious import ExceptionFinding
from fieldops.errors import NotFoundError, StaleRecordError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_instant
from fieldops.rules import vicious as rules
from fieldops.services.context import Actor, audit, require_row_id
from fieldops.services.vicious.views import (
    STATUS_LABELS,
    CaseView,
    EndingView,
    FindingView,
    IncidentView,
    NoticeView,
    OutcomeView,
    StepView,
    ground_rows,
)


def describe(a: Animal) -> str:
    detail = ", ".join(x for x in (a.species_detail or a.species, a.breed, a.colour) if x)
    return f"{a.name or '(no name)'} ({detail})"


def load(
    s: Session, case_id: int, *, lock: bool = False, version: int | None = None
) -> ViciousCase:
    """The case row; ``lock`` holds it to commit; ``version`` refuses a stale screen."""
    require_row_id(ViciousCase, case_id)  # an id no INTEGER holds: not found, not an overflow
    case = s.get(ViciousCase, case_id, with_for_update=lock)
    if case is None:
        raise NotFoundError(f"There is no vicious-animal case #{case_id}.")
    if version is not None and case.version != version:
        raise StaleRecordError(
            f"Vicious-animal case #{case_id} was changed by someone else "
            "since it was opened: reopen it to see the change."
        )
    return case


@requires(Permission.VICIOUS_CASES)
def set_summary(
    s: Session,
    actor: Actor,
    case: ViciousCase,
    reason: str,
    **changes: str | datetime | date | None,
) -> None:
    """Change the case's working summary (status, deadline, next step due), audited."""
    from fieldops.services.context import jsonable

    before = {k: jsonable(getattr(case, k)) for k in changes}
    for k, v in changes.items():
        setattr(case, k, v)
    after = {k: jsonable(v) for k, v in changes.items()}
    if before != after:
        audit(
            s, actor, "status", "vicious_case", case.id, before=before, after=after, reason=reason
        )


def next_step_due(s: Session, case_id: int) -> date | None:
    done = select(ViciousStepDone.step_id)
    return s.scalar(
        select(ViciousStep.due_on)
        .where(ViciousStep.case_id == case_id, ViciousStep.id.not_in(done))
        .order_by(ViciousStep.due_on)
        .limit(1)
    )


def notice_view(n: ViciousNotice, profile: Profile) -> NoticeView:
    return NoticeView(
        n.id,
        n.method,
        rules.NOTICE_METHODS[n.method],
        n.served_at,
        n.served_by,
        n.place,
        n.deadline,
        format_instant(n.deadline, profile),
        rules.explain_vicious_notice_deadline(n.served_at, profile),
        n.notes,
        n.recorded_by,
    )


# The case's parts that it has at most one of (its animal, its owner, and its declaration,
# outcome and ending: one per case, unique), in one statement built once: one statement
# each cost more than reading them (issue 14).
_ONE_OF_EACH = (
    select(Animal, Person, ViciousDeclaration, ViciousOutcome, ViciousEnding)
    .select_from(ViciousCase)
    .outerjoin(Animal, Animal.id == ViciousCase.animal_id)
    .outerjoin(Person, Person.id == ViciousCase.owner_id)
    .outerjoin(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
    .outerjoin(ViciousOutcome, ViciousOutcome.case_id == ViciousCase.id)
    .outerjoin(ViciousEnding, ViciousEnding.case_id == ViciousCase.id)
    .where(ViciousCase.id == bindparam("case_id"))
)


def build_view(s: Session, case: ViciousCase, profile: Profile) -> CaseView:
    animal, owner, d, o, e = s.execute(_ONE_OF_EACH, {"case_id": case.id}).one()
    if d is None:  # every case is written with its declaration (checks() reports otherwise)
        raise NotFoundError(f"Vicious-animal case #{case.id} has no declaration on record.")
    # An exception added to the ordinance after the declaration has no finding stored.
    none_recorded: ExceptionFinding = {"applies": False, "why": ""}
    findings = tuple(
        FindingView(
            code,
            rules.EXCEPTION_SECTIONS[code],
            rules.EXCEPTION_TEXT[code],
            bool((d.findings.get(code) or none_recorded).get("applies")),
            str((d.findings.get(code) or none_recorded).get("why") or ""),
        )
        for code in rules.EXCEPTIONS
    )
    incidents = tuple(
        IncidentView(
            i.id,
            i.occurred_at,
            i.place,
            i.what,
            (i.source_module, i.source_kind, i.source_id)
            if i.source_module is not None and i.source_kind is not None and i.source_id
            else None,
        )
        for i in s.scalars(
            select(ViciousIncident)
            .where(ViciousIncident.case_id == case.id)
            .order_by(ViciousIncident.occurred_at, ViciousIncident.id)
        )
    )
    notices = tuple(
        notice_view(n, profile)
        for n in s.scalars(
            select(ViciousNotice)
            .where(ViciousNotice.case_id == case.id)
            .order_by(ViciousNotice.served_at, ViciousNotice.id)
        )
    )
    outcome = (
        OutcomeView(
            o.kind,
            rules.OUTCOMES[o.kind],
            o.at,
            o.by_whom,
            o.proof,
            o.removed_to,
            o.confirmed_how,
            o.notes,
            o.recorded_by,
        )
        if o
        else None
    )
    rows = s.execute(
        select(ViciousStep, ViciousStepDone)
        .outerjoin(ViciousStepDone, ViciousStepDone.step_id == ViciousStep.id)
        .where(ViciousStep.case_id == case.id)
        .order_by(ViciousStep.due_on, ViciousStep.id)
    ).all()
    steps = tuple(
        StepView(
            st.id,
            st.kind,
            rules.NEXT_STEPS[st.kind],
            rules.NEXT_STEP_SECTIONS[st.kind],
            st.due_on,
            st.what,
            done.done_on if done else None,
            done.result if done else "",
        )
        for st, done in rows
    )
    ending = (
        EndingView(
            e.kind, rules.ENDINGS[e.kind], e.decided_on, e.authority, e.reason, e.recorded_by
        )
        if e
        else None
    )
    return CaseView(
        id=case.id,
        status=case.status,
        status_label=STATUS_LABELS[case.status],
        declared=rules.stands_declared(d.allowed, ending is not None),
        animal_id=case.animal_id,
        animal=describe(animal) if animal else "",
        owner_id=case.owner_id,
        owner=owner.full_name if owner else "",
        owner_address=d.owner_address,
        decided_at=d.decided_at,
        officer=d.officer,
        grounds=ground_rows(d.grounds),
        findings=findings,
        refusal_reasons=tuple(d.refusal_reasons),
        notes=d.notes,
        incidents=incidents,
        notices=notices,
        outcome=outcome,
        steps=steps,
        ending=ending,
        recorded_by=d.recorded_by,
        version=case.version,
        notice_hours=profile.notice_hours,
    )


def load_case(db: Database, case_id: int, profile: Profile) -> CaseView:
    with db.read() as s:
        return build_view(s, load(s, case_id), profile)


def declared_case(s: Session, animal_id: int) -> tuple[int, datetime, str] | None:
    """The case in which the animal stands declared vicious now: (id, decided at, officer)."""
    row = s.execute(
        select(ViciousCase.id, ViciousDeclaration.decided_at, ViciousDeclaration.officer)
        .join(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
        .where(ViciousCase.animal_id == animal_id, ViciousCase.status.in_(DECLARED_STATUSES))
        .order_by(ViciousDeclaration.decided_at.desc())
        .limit(1)
    ).first()
    return (row[0], row[1], row[2]) if row else None
