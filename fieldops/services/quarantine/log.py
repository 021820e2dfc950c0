"""The quarantine log (issue 11) and the module's part of the activity summary.

The log lists every bite reported in a period (by the local day of the bite): the bite,
the animal and owner, the placement, the required exams done, the outcome, the
certificate (received, due, or overdue) and any referral to the health officer. Its rows
are read in a few set-based statements in one read transaction; the PDF is
``fieldops.reports.quarantine_log``. The contact of the person bitten is never in it;
the public-records copy (``request.redacted``) leaves out the person's name too.

The activity figures are counts in SQL for the period and the same period a year earlier.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session, aliased

from fieldops.db.cancel import Cancelled
from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    BiteReport,
    Clinic,
    Person,
    Quarantine,
    QuarantineCorrection,
    QuarantineEvent,
    QuarantineExam,
)
from fieldops.errors import ValidationError
from fieldops.modules import (
    ActivityFigure,
    ActivitySection,
    ReportOutput,
    ReportRequest,
    ReportTable,
    Withheld,
    year_earlier,
)
from fieldops.rules import Profile, format_day, to_local
from fieldops.services.context import now
from fieldops.services.quarantine.fixes import Key, dated
from fieldops.services.quarantine.plan import events_of, exams_of, state_of
from fieldops.services.quarantine.views import STATUS_LABELS

COLUMNS = (
    "Bite",
    "Where",
    "Person bitten",
    "Animal",
    "Owner",
    "Placement",
    "Exams done",
    "Outcome",
    "Certificate",
    "Referral",
)
WITHHELD_VICTIM = Withheld(
    "the bitten person's name and contact",
    "personal details of a victim, kept private to the case (city code 58-527)",
)
NOT_EXPECTED = ("died", "euthanized", "escaped")


@dataclass(frozen=True)
class LogRow:
    """One bite of the log, as plain text cells (the CSV's and the PDF's)."""

    bite_id: int
    cells: tuple[str, ...]
    overdue: bool = False


def _bounds(start: date, end: date, profile: Profile) -> tuple[datetime, datetime]:
    return (
        datetime.combine(start, time(0), profile.timezone),
        datetime.combine(end + timedelta(days=1), time(0), profile.timezone),
    )


def check_period(start: date | None, end: date | None) -> tuple[date, date]:
    errors = {}
    if start is None:
        errors["period_start"] = "Enter the first day of the period."
    if end is None:
        errors["period_end"] = "Enter the last day of the period."
    if start is not None and end is not None and end < start:
        errors["period_end"] = "The period cannot end before it starts."
    if errors:
        raise ValidationError(errors)
    assert start is not None and end is not None
    return start, end


def _certificate(
    status: str | None, due: date | None, received: date | None, today: date
) -> tuple[str, bool]:
    if status is None or due is None:
        return "", False
    if received is not None:
        late = " (late)" if received > due else ""
        return f"received {format_day(received)}{late}", False
    if status in NOT_EXPECTED:
        return "not expected", False
    if due < today:
        return f"OVERDUE: was due {format_day(due)}", True
    return f"due {format_day(due)}", False


def log_rows(
    s: Session,
    start: date,
    end: date,
    profile: Profile,
    *,
    redacted: bool,
    today: date,
    cancelled: Any = lambda: False,
) -> list[LogRow]:
    """The log's rows: four statements, whatever the number of bites."""
    lo, hi = _bounds(start, end, profile)
    owner = aliased(Person)
    retimed = BiteReport.id.in_(
        select(QuarantineCorrection.bite_report_id).where(
            QuarantineCorrection.target == "bite_report",
            QuarantineCorrection.field == "bitten_at",
        )
    )
    bites = s.execute(
        select(
            BiteReport.id,
            BiteReport.bitten_at,
            BiteReport.place,
            BiteReport.victim_name,
            BiteReport.species,
            BiteReport.animal_description,
            BiteReport.referral,
            Animal.name,
            Animal.species,
            owner.full_name,
            Quarantine.id,
            Quarantine.placement,
            Clinic.name,
            Quarantine.status,
            Quarantine.certificate_due,
            Quarantine.certificate_received_on,
        )
        .outerjoin(Animal, Animal.id == BiteReport.animal_id)
        .outerjoin(owner, owner.id == BiteReport.owner_id)
        .outerjoin(Quarantine, Quarantine.bite_report_id == BiteReport.id)
        .outerjoin(Clinic, Clinic.id == Quarantine.clinic_id)
        .where(or_(and_(BiteReport.bitten_at >= lo, BiteReport.bitten_at < hi), retimed))
        .order_by(BiteReport.bitten_at, BiteReport.id)
    ).all()
    if cancelled():
        raise Cancelled()
    # A bite whose time was corrected is in the period of its corrected time (fixes.py).
    in_period = select(BiteReport.id).where(
        or_(and_(BiteReport.bitten_at >= lo, BiteReport.bitten_at < hi), retimed)
    )
    exams = dict(
        s.execute(
            select(QuarantineExam.quarantine_id, func.count(func.distinct(QuarantineExam.slot)))
            .join(Quarantine, Quarantine.id == QuarantineExam.quarantine_id)
            .where(Quarantine.bite_report_id.in_(in_period), QuarantineExam.slot.is_not(None))
            .group_by(QuarantineExam.quarantine_id)
        ).all()
    )
    # An exam's slot is stored as it counted when entered (exam rows are never changed): an
    # extension since moves the last exam, so such a case is counted on its plan, as a
    # corrected one is.
    extended = set(
        s.scalars(
            select(QuarantineEvent.bite_report_id).where(
                QuarantineEvent.kind == "extended", QuarantineEvent.bite_report_id.in_(in_period)
            )
        )
    )
    referrals = {
        r[0]: (r[1], r[2])
        for r in s.execute(
            select(QuarantineEvent.bite_report_id, QuarantineEvent.who, QuarantineEvent.at).where(
                QuarantineEvent.kind == "referral_sent",
                QuarantineEvent.bite_report_id.in_(in_period),
            )
        )
    }
    fixes: dict[tuple[int, str], str] = {}
    cases: dict[int, dict[Key, str]] = {}  # every correction of each bite, for the plan
    for bite_id, target, target_id, field_, value in s.execute(
        select(
            QuarantineCorrection.bite_report_id,
            QuarantineCorrection.target,
            QuarantineCorrection.target_id,
            QuarantineCorrection.field,
            QuarantineCorrection.new_value,
        )
        .where(QuarantineCorrection.bite_report_id.in_(in_period))
        .order_by(QuarantineCorrection.id)
    ):
        cases.setdefault(bite_id, {})[(target, target_id, field_)] = value
        if target == "bite_report":
            fixes[(target_id, field_)] = value
    if cancelled():
        raise Cancelled()
    out: list[LogRow] = []
    keys: list[tuple[datetime, int]] = []
    for (
        bid,
        bitten_at,
        place,
        victim,
        species,
        description,
        referral,
        a_name,
        a_species,
        owner_name,
        qid,
        placement,
        clinic,
        status,
        due,
        received,
    ) in bites:
        if (bid, "bitten_at") in fixes:
            bitten_at = datetime.fromisoformat(fixes[(bid, "bitten_at")])
            if not lo <= bitten_at < hi:
                continue  # corrected out of the period
        place = fixes.get((bid, "place"), place)
        victim = fixes.get((bid, "victim_name"), victim)
        description = fixes.get((bid, "animal_description"), description)
        animal = (
            f"{a_name or '(no name)'} ({a_species})"
            if a_species
            else (description or f"unidentified {species}")
        )
        if qid is None:
            where = "referred: no quarantine (not a dog or cat)" if referral else ""
            done = ""
            outcome = ""
        else:
            where = "home" if placement == "home" else f"clinic: {clinic or ''}".rstrip(": ")
            replan = dated(cases.get(bid)) or bid in extended
            n = _done(s, qid, cases.get(bid, {}), profile) if replan else exams.get(qid, 0)
            done = f"{n} of {profile.exams_required}"
            outcome = STATUS_LABELS.get(status or "", status or "")
        certificate, overdue = _certificate(status, due, received, today)
        sent = referrals.get(bid)
        referral_text = (
            f"sent to {sent[0]} on {format_day(sent[1].astimezone(profile.timezone).date())}"
            if sent
            else ("NOT YET SENT" if referral else "")
        )
        local = bitten_at.astimezone(profile.timezone)
        keys.append((bitten_at, bid))
        out.append(
            LogRow(
                bid,
                (
                    f"#{bid} {local:%Y-%m-%d %H:%M}",
                    place,
                    "(withheld)" if redacted else victim,
                    animal,
                    owner_name or "unknown",
                    where,
                    done,
                    outcome,
                    certificate,
                    referral_text,
                ),
                overdue,
            )
        )
    return [row for _key, row in sorted(zip(keys, out, strict=True), key=lambda p: p[0])]


def _done(s: Session, quarantine_id: int, fixes: dict[Key, str], profile: Profile) -> int:
    """How many required exams are done on a plan that a correction or an extension moved
    (the rules' count; stored slots may answer the plan before it)."""
    q = s.get(Quarantine, quarantine_id)
    assert q is not None
    bite = s.get(BiteReport, q.bite_report_id)
    assert bite is not None
    st = state_of(bite, q, events_of(s, bite.id), exams_of(s, q.id), profile, fixes)
    return len(set(st.done))


def build_log(request: ReportRequest) -> ReportOutput:
    """The quarantine log for the request's period (ReportKind "quarantine-log")."""
    from fieldops.reports.quarantine_log import quarantine_log_pdf

    start, end = check_period(request.start, request.end)
    today = request.printed_at.astimezone(request.profile.timezone).date()
    with request.db.read() as s:
        rows = log_rows(
            s,
            start,
            end,
            request.profile,
            redacted=request.redacted,
            today=today,
            cancelled=request.cancelled,
        )
    request.progress(1, 2)
    withheld = (WITHHELD_VICTIM,) if request.redacted else ()
    table = ReportTable(COLUMNS, tuple(r.cells for r in rows), withheld)
    pdf = quarantine_log_pdf(table, request)
    request.progress(2, 2)
    return ReportOutput(table, pdf)


# --- the activity summary ------------------------------------------------------------------


def _figures(s: Session, start: date, end: date, profile: Profile, today: date) -> dict[str, int]:
    """Every figure for one period, in three grouped statements. A certificate still to come
    counts as not returned on time only once its day is past (``today``, the printing's)."""
    lo, hi = _bounds(start, end, profile)
    out: dict[str, int] = {}
    for placement, status, n in s.execute(
        select(Quarantine.ordered_placement, Quarantine.status, func.count())
        .where(Quarantine.ordered_at >= lo, Quarantine.ordered_at < hi)
        .group_by(Quarantine.ordered_placement, Quarantine.status)
    ):
        out[f"placement:{placement}"] = out.get(f"placement:{placement}", 0) + n
        out[f"outcome:{status}"] = out.get(f"outcome:{status}", 0) + n
    overdue = s.scalar(
        select(func.count())
        .select_from(Quarantine)
        .where(
            Quarantine.certificate_due >= start,
            Quarantine.certificate_due <= end,
            Quarantine.status.not_in(NOT_EXPECTED),
            or_(
                and_(
                    Quarantine.certificate_received_on.is_(None),
                    Quarantine.certificate_due < today,
                ),
                Quarantine.certificate_received_on > Quarantine.certificate_due,
            ),
        )
    )
    out["certificates_overdue"] = overdue or 0
    sent = (
        select(QuarantineEvent.id)
        .where(
            QuarantineEvent.bite_report_id == BiteReport.id,
            QuarantineEvent.kind == "referral_sent",
        )
        .exists()
    )
    row = s.execute(
        select(
            func.count(),
            func.coalesce(func.sum(case((sent, 1), else_=0)), 0),
        ).where(
            BiteReport.referral.is_(True), BiteReport.bitten_at >= lo, BiteReport.bitten_at < hi
        )
    ).one()
    out["referrals"], out["referrals_sent"] = int(row[0]), int(row[1])
    return out


def activity(
    db: Database, start: date, end: date, profile: Profile | None = None
) -> tuple[ActivitySection, ...]:
    """Quarantines by placement and by outcome, overdue certificates, referrals: each for the
    period and the same period a year earlier."""
    profile = profile or Profile.default()
    with db.read() as s:
        today = to_local(now(), profile).date()
        now_ = _figures(s, start, end, profile, today)
        then = _figures(s, year_earlier(start), year_earlier(end), profile, today)

    def fig(label: str, key: str) -> ActivityFigure:
        return ActivityFigure(label, now_.get(key, 0), then.get(key, 0))

    return (
        ActivitySection(
            "Bite quarantines ordered, by placement",
            (fig("At home", "placement:home"), fig("At a clinic", "placement:clinic")),
            chart=True,
        ),
        ActivitySection(
            "Bite quarantines ordered, by outcome",
            tuple(fig(label, f"outcome:{code}") for code, label in STATUS_LABELS.items()),
            chart=True,
        ),
        ActivitySection(
            "Certificates of quarantine",
            (fig("Due in the period and not returned on time", "certificates_overdue"),),
        ),
        ActivitySection(
            "Bites referred to the health officer (not a dog or cat)",
            (fig("Bites to refer", "referrals"), fig("Referrals sent", "referrals_sent")),
        ),
    )
