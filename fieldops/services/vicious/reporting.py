"""The "Vicious-animal cases" report's rows (issue 11): every case with something on record in
the period, its declaration or refusal, notices with service and deadline, the outcome and
the next steps.

A case is in the period when its decision, a notice's service, its outcome, a next step's
due day or completion, or its withdrawal or overturning falls on one of the period's local
days. Three set-based statements, whatever the period: the cases (with their declaration,
outcome, ending and incident count), their notices, their next steps; nothing per row; the period's cases reach the other two as a subquery, never as
a list of bound ids.

Nothing private: the report prints no victim, caller or complainant. The incidents' own
words (which may name the person bitten) are left out on purpose; the report gives how many
incidents the declaration rests on and the first one's date, and the case record has the
rest. A public-records copy is therefore the same report, and says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import Select, func, or_, select, union

from fieldops.db.cancel import Cancelled
from fieldops.db.engine import Database
from fieldops.db.models import (
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
from fieldops.errors import Collector
from fieldops.modules import ReportKind, ReportOutput, ReportRequest, ReportTable
from fieldops.rules import Profile, format_day, format_instant, start_of_local_day, to_local
from fieldops.rules import vicious as rules
from fieldops.services.vicious.views import STATUS_LABELS

MAX_PERIOD_DAYS = 366

COLUMNS = (
    "Case",
    "Decided",
    "Animal",
    "Owner and address",
    "Decision",
    "Grounds",
    "Incidents",
    "Notices: service and deadline",
    "Outcome",
    "Next steps",
    "Status now",
)


@dataclass(frozen=True)
class NoticeLine:
    method: str
    served_at: datetime
    served_by: str
    place: str
    deadline: datetime


@dataclass(frozen=True)
class StepLine:
    kind: str
    due_on: date
    done_on: date | None
    result: str


@dataclass(frozen=True)
class CaseRow:
    """One case as the report prints it (values, not words: the words are made below)."""

    id: int
    status: str
    decided_at: datetime
    officer: str
    allowed: bool
    grounds: tuple[str, ...]
    refusal_reasons: tuple[str, ...]
    animal: str
    owner: str
    owner_address: str
    incidents: int
    first_incident: datetime | None
    notices: tuple[NoticeLine, ...]
    outcome: tuple[str, datetime, str] | None  # kind, when, details
    steps: tuple[StepLine, ...]
    ending: tuple[str, date, str, str] | None  # kind, decided on, authority, reason


def check_period(start: date, end: date) -> None:
    c = Collector()
    c.check(end >= start, "period_end", "The period cannot end before it starts.")
    c.check((end - start).days < MAX_PERIOD_DAYS, "period_end", "Print at most a year at a time.")
    c.raise_if_any()


def _case_ids(lo: datetime, hi: datetime, start: date, end: date) -> Select[tuple[int]]:
    """The ids of the cases with something on record in [lo, hi) (local days start..end)."""
    return select(
        union(
            select(ViciousDeclaration.case_id).where(
                ViciousDeclaration.decided_at >= lo, ViciousDeclaration.decided_at < hi
            ),
            select(ViciousNotice.case_id).where(
                ViciousNotice.served_at >= lo, ViciousNotice.served_at < hi
            ),
            select(ViciousOutcome.case_id).where(ViciousOutcome.at >= lo, ViciousOutcome.at < hi),
            select(ViciousStep.case_id)
            .outerjoin(ViciousStepDone, ViciousStepDone.step_id == ViciousStep.id)
            .where(
                or_(
                    ViciousStep.due_on.between(start, end),
                    ViciousStepDone.done_on.between(start, end),
                )
            ),
            select(ViciousEnding.case_id).where(ViciousEnding.decided_on.between(start, end)),
        ).subquery()
    )


def case_rows(
    db: Database,
    start: date,
    end: date,
    profile: Profile,
    cancelled: Callable[[], bool] = lambda: False,
) -> tuple[CaseRow, ...]:
    """Every case with something on record in the period, in order of decision."""
    check_period(start, end)
    lo = start_of_local_day(start, profile)
    hi = start_of_local_day(end + timedelta(days=1), profile)
    ids = _case_ids(lo, hi, start, end)
    first_incident = (
        select(
            ViciousIncident.case_id.label("case_id"),
            func.count().label("n"),
            func.min(ViciousIncident.occurred_at).label("first"),
        )
        .where(ViciousIncident.case_id.in_(ids))
        .group_by(ViciousIncident.case_id)
        .subquery()
    )
    with db.read() as s:
        conn = s.connection()
        cases = conn.execute(
            select(
                ViciousCase.id,
                ViciousCase.status,
                ViciousDeclaration.decided_at,
                ViciousDeclaration.officer,
                ViciousDeclaration.allowed,
                ViciousDeclaration.grounds,
                ViciousDeclaration.refusal_reasons,
                ViciousDeclaration.owner_address,
                Animal.name,
                Animal.species,
                Animal.breed,
                Animal.colour,
                Person.full_name,
                first_incident.c.n,
                first_incident.c.first,
                ViciousOutcome.kind,
                ViciousOutcome.at,
                ViciousOutcome.by_whom,
                ViciousOutcome.proof,
                ViciousOutcome.removed_to,
                ViciousOutcome.confirmed_how,
                ViciousEnding.kind,
                ViciousEnding.decided_on,
                ViciousEnding.authority,
                ViciousEnding.reason,
            )
            .join(ViciousDeclaration, ViciousDeclaration.case_id == ViciousCase.id)
            .join(Animal, Animal.id == ViciousCase.animal_id)
            .outerjoin(Person, Person.id == ViciousCase.owner_id)
            .outerjoin(first_incident, first_incident.c.case_id == ViciousCase.id)
            .outerjoin(ViciousOutcome, ViciousOutcome.case_id == ViciousCase.id)
            .outerjoin(ViciousEnding, ViciousEnding.case_id == ViciousCase.id)
            .where(ViciousCase.id.in_(ids))
            .order_by(ViciousDeclaration.decided_at, ViciousCase.id)
        ).all()
        if cancelled():
            raise Cancelled()
        notices: dict[int, list[NoticeLine]] = defaultdict(list)
        for case_id, method, served_at, served_by, place, deadline in conn.execute(
            select(
                ViciousNotice.case_id,
                ViciousNotice.method,
                ViciousNotice.served_at,
                ViciousNotice.served_by,
                ViciousNotice.place,
                ViciousNotice.deadline,
            )
            .where(ViciousNotice.case_id.in_(ids))
            .order_by(ViciousNotice.served_at, ViciousNotice.id)
        ):
            notices[case_id].append(NoticeLine(method, served_at, served_by, place, deadline))
        steps: dict[int, list[StepLine]] = defaultdict(list)
        for case_id, kind, due_on, done_on, result in conn.execute(
            select(
                ViciousStep.case_id,
                ViciousStep.kind,
                ViciousStep.due_on,
                ViciousStepDone.done_on,
                func.coalesce(ViciousStepDone.result, ""),
            )
            .outerjoin(ViciousStepDone, ViciousStepDone.step_id == ViciousStep.id)
            .where(ViciousStep.case_id.in_(ids))
            .order_by(ViciousStep.due_on, ViciousStep.id)
        ):
            steps[case_id].append(StepLine(kind, due_on, done_on, result))
    out = []
    for r in cases:
        detail = ", ".join(x for x in (r[9], r[10], r[11]) if x)
        outcome = None
        if r[15] is not None:
            details = {
                "destroyed": f"by {r[17]}" + (f"; proof: {r[18]}" if r[18] else ""),
                "removed": f"to {r[19]}" + (f"; confirmed: {r[20]}" if r[20] else ""),
            }.get(r[15], "")
            outcome = (r[15], r[16], details)
        out.append(
            CaseRow(
                id=r[0],
                status=r[1],
                decided_at=r[2],
                officer=r[3],
                allowed=bool(r[4]),
                grounds=tuple(r[5] or ()),
                refusal_reasons=tuple(r[6] or ()),
                animal=f"{r[8] or '(no name)'} ({detail})",
                owner=r[12] or "",
                owner_address=r[7] or "",
                incidents=int(r[13] or 0),
                first_incident=r[14],
                notices=tuple(notices.get(r[0], ())),
                outcome=outcome,
                steps=tuple(steps.get(r[0], ())),
                ending=(r[21], r[22], r[23], r[24]) if r[21] is not None else None,
            )
        )
    return tuple(out)


# -- the rows in words (the same cells for the CSV and the PDF) -------------------------


def _notice_text(n: NoticeLine, profile: Profile) -> str:
    how = "In person" if n.method == "in_person" else "Posted (owner refused)"
    return (
        f"{how} {format_instant(n.served_at, profile, midnight='plain')} by {n.served_by} "
        f"at {n.place}; deadline {format_instant(n.deadline, profile)}"
    )


def _step_text(st: StepLine, today: date) -> str:
    head = f"{rules.NEXT_STEPS[st.kind]} ({rules.NEXT_STEP_SECTIONS[st.kind]}), due "
    head += format_day(st.due_on)
    if st.done_on is not None:
        return f"{head}; taken {format_day(st.done_on)}: {st.result}"
    # The mark leads its own step: at the end it read as the start of the next one.
    late = "OVERDUE: " if rules.next_step_overdue(st.due_on, today) else ""
    return f"{late}{head}; not yet taken"


def row_cells(r: CaseRow, profile: Profile, today: date) -> tuple[str, ...]:
    """The report's cells of one case, in ``COLUMNS`` order."""
    decision = (
        f"Declared by {r.officer}"
        if r.allowed
        else f"Refused by {r.officer}: " + " ".join(r.refusal_reasons)
    )
    grounds = ", ".join(rules.GROUND_SECTIONS.get(g, g) for g in r.grounds)
    incidents = (
        f"{r.incidents}, first {format_instant(r.first_incident, profile, midnight='plain')}"
        if r.first_incident is not None
        else str(r.incidents)
    )
    outcome = ""
    if r.outcome is not None:
        kind, at, details = r.outcome
        outcome = f"{rules.OUTCOMES[kind]}, {format_instant(at, profile, midnight='plain')}"
        outcome += f" {details}" if details else ""
    status = STATUS_LABELS.get(r.status, r.status)
    if r.ending is not None:
        kind, on, authority, reason = r.ending
        status += f" ({format_day(on)}, {authority}: {reason})"
    return (
        str(r.id),
        format_instant(r.decided_at, profile, midnight="plain"),
        r.animal,
        f"{r.owner}, {r.owner_address}" if r.owner_address else r.owner,
        decision,
        grounds,
        incidents,
        "\n".join(_notice_text(n, profile) for n in r.notices),
        outcome,
        "\n".join(_step_text(st, today) for st in r.steps),
        status,
    )


# -- the report on the seam (fieldops report vicious-cases) -----------------------------

NOTHING_WITHHELD = (
    "Nothing is withheld: the report prints no victim, caller or complainant, and leaves out "
    "the incidents' own words (see each case's record)."
)


def period_counts(rows: Sequence[CaseRow], lo: datetime, hi: datetime) -> list[tuple[str, int]]:
    """What happened in [lo, hi) among the report's cases, counted from its rows."""

    def within(at: datetime | None) -> bool:
        return at is not None and lo <= at < hi

    notices = [n for r in rows for n in r.notices if within(n.served_at)]
    outcomes = [r.outcome[0] for r in rows if r.outcome is not None and within(r.outcome[1])]
    return [
        ("Declarations", sum(1 for r in rows if r.allowed and within(r.decided_at))),
        ("Refusals", sum(1 for r in rows if not r.allowed and within(r.decided_at))),
        ("Notices in person", sum(1 for n in notices if n.method == "in_person")),
        ("Notices posted", sum(1 for n in notices if n.method == "posted")),
        ("Destroyed", outcomes.count("destroyed")),
        ("Removed", outcomes.count("removed")),
        ("Not complied", outcomes.count("not_complied")),
    ]


def build_report(request: ReportRequest) -> ReportOutput:
    """The "Vicious-animal cases" report: its rows (CSV) and its PDF, from one read."""
    from fieldops.reports.vicious_cases import vicious_cases_report

    profile = request.profile
    request.progress(0, 3)
    rows = case_rows(request.db, request.start, request.end, profile, request.cancelled)
    request.progress(1, 3)
    today = to_local(request.printed_at, profile).date()
    cells = [row_cells(r, profile, today) for r in rows]
    lo = start_of_local_day(request.start, profile)
    hi = start_of_local_day(request.end + timedelta(days=1), profile)
    if request.cancelled():
        raise Cancelled()
    pdf = vicious_cases_report(
        COLUMNS, cells, request, counts=period_counts(rows, lo, hi), note=NOTHING_WITHHELD
    )
    request.progress(3, 3)
    return ReportOutput(ReportTable(COLUMNS, tuple(cells)), pdf)


REPORT = ReportKind(
    "vicious-cases",
    "Vicious-animal cases (58-524)",
    build_report,
    description="Declarations and refusals, notices with service and deadline, outcomes "
    "and next steps, for a period.",
)
