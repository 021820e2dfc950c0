"""The veterinarian's examinations of a quarantined animal (58-527(c); RULES.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

from fieldops.db.engine import Database
from fieldops.db.models import Quarantine, QuarantineExam
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, to_local
from fieldops.rules.quarantine import (
    EXAM_FINDINGS,
    exam_slot,
    exam_warning,
)
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    fetch,
    jsonable,
    now,
    remember_save,
)
from fieldops.services.quarantine.clinics import licensed_clinic
from fieldops.services.quarantine.plan import refresh
from fieldops.services.quarantine.steps import (
    Done,
    add_event,
    check_not_before_seen_alive,
    event_data,
    locked,
    require_open,
)


@dataclass(frozen=True)
class ExamInput:
    examined_on: date | None
    veterinarian: str
    finding: str
    fee: Decimal | None
    clinic_id: int | None = None


@requires(Permission.QUARANTINES)
def record_exam(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    inp: ExamInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> Done:
    """An examination by a veterinarian (58-527(b)). One on none of the required days is
    accepted with a warning naming the required exam still missing; a finding of death
    closes the quarantine as died. A retry with the same ``client_key`` records nothing."""
    today = to_local(now(), profile).date()
    with db.write() as s:
        if (done := existing_save(s, client_key, "quarantine_exam", actor)) is not None:
            made = fetch(s, QuarantineExam, done)
            q = fetch(s, Quarantine, made.quarantine_id)
            return Done(q.id, q.bite_report_id, made.warning)
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "an examination")
        c = Collector()
        if inp.examined_on is None:
            c.add("examined_on", "The date of the examination is required.")
        elif not v.day(c, "examined_on", inp.examined_on, "The date of the examination"):
            pass  # not a date: said so
        elif inp.examined_on > today:
            c.add("examined_on", "The examination cannot be in the future.")
        elif inp.examined_on < st.plan.first_exam_day:
            c.add(
                "examined_on",
                "The examination cannot be before the quarantine was ordered "
                f"({format_day(st.plan.first_exam_day)}).",
            )
        vet = QuarantineExam.__table__.c.veterinarian
        v.required(c, "veterinarian", v.clean(inp.veterinarian), "The veterinarian", vet)
        c.check(inp.finding in EXAM_FINDINGS, "finding", "Choose what the veterinarian found.")
        fee = None
        if inp.fee is None:
            c.add("fee", "Enter the fee (0 if none).")
        elif isinstance(inp.fee, Decimal | int | str) and not isinstance(inp.fee, bool):
            fee = v.money(c, "fee", inp.fee, "The fee")
        else:
            c.add("fee", "Enter the fee in dollars and cents, e.g. 40.00.")
        c.raise_if_any()
        assert inp.examined_on is not None and fee is not None
        if inp.finding == "died":  # a day the checks above found to be one
            day = inp.examined_on
            check_not_before_seen_alive(c, "examined_on", day, "A death", s, q, st)
            c.raise_if_any()
        if inp.clinic_id is not None:
            licensed_clinic(s, inp.clinic_id, "clinic_id")
        slot = exam_slot(st.plan, inp.examined_on, st.done)
        warning = exam_warning(st.plan, inp.examined_on, st.done)
        x = QuarantineExam(
            quarantine_id=q.id,
            examined_on=inp.examined_on,
            veterinarian=v.clean(inp.veterinarian),
            clinic_id=inp.clinic_id,
            finding=inp.finding,
            fee=fee,
            slot=slot,
            warning=warning,
            recorded_at=now(),
            recorded_by=actor.username,
        )
        s.add(x)
        s.flush()
        audit(
            s,
            actor,
            "quarantine_exam",
            "quarantine",
            q.id,
            after={
                "examined_on": jsonable(inp.examined_on),
                "veterinarian": x.veterinarian,
                "finding": inp.finding,
                "fee": jsonable(fee),
                "counts_as": slot or "",
            },
            reason=warning,
        )
        if inp.finding == "died":
            at = min(now(), datetime.combine(inp.examined_on, time(12), profile.timezone))
            e = add_event(
                s,
                actor,
                bite,
                "died",
                max(at, q.ordered_at),
                notes=f"Found dead at the examination on {format_day(inp.examined_on)}.",
            )
            audit(s, actor, "quarantine_died", "quarantine", q.id, after=event_data(e))
        remember_save(s, client_key, "quarantine_exam", x.id, actor)
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id, warning)
