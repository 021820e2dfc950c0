"""What followed the notice: the outcome, the next steps, and a withdrawal or overturning."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    DECLARED_STATUSES,
    ViciousDeclaration,
    ViciousEnding,
    ViciousNotice,
    ViciousOutcome,
    ViciousStep,
    ViciousStepDone,
)
from fieldops.errors import Collector, NotFoundError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, format_instant, to_local
from fieldops.rules import vicious as rules
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.vicious.cases import build_view, load, next_step_due, set_summary
from fieldops.services.vicious.views import CaseView


@dataclass(frozen=True)
class OutcomeInput:
    kind: str  # rules.vicious.OUTCOMES
    at: datetime | None
    by_whom: str = ""  # destroyed: by whom
    proof: str = ""  # destroyed: the proof seen (a veterinarian's record, ...)
    removed_to: str = ""  # removed: to where, outside the city
    confirmed_how: str = ""  # removed: how it was confirmed
    notes: str = ""


def _when(c: Collector, field_: str, at: datetime | None, label: str, now_: datetime) -> None:
    if at is None:
        c.add(field_, f"{label} is required.")
    elif not v.instant(c, field_, at, label):
        pass  # not a storable date and time: said so
    elif at > now_ + timedelta(minutes=5):
        c.add(field_, f"{label} cannot be in the future.")


@requires(Permission.VICIOUS_CASES)
def record_outcome(
    db: Database,
    actor: Actor,
    case_id: int,
    inp: OutcomeInput,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> CaseView:
    """Destroyed (by whom, proof), removed from the city (to where, confirmed how), or not
    complied, found only once the notice's deadline has passed (58-524(c)(2))."""
    at = now()
    c = Collector()
    c.check(inp.kind in rules.OUTCOMES, "kind", "Choose what became of the notice.")
    _when(c, "at", inp.at, "The date and time", at)
    if inp.kind == "destroyed":
        col = ViciousOutcome.__table__.c
        v.required(c, "by_whom", v.clean(inp.by_whom), "Destroyed by", col.by_whom)
        v.required(c, "proof", (inp.proof or "").strip(), "Proof of destruction", 4000)
    elif inp.kind == "removed":
        col = ViciousOutcome.__table__.c
        v.required(c, "removed_to", v.clean(inp.removed_to), "Removed to", col.removed_to)
        v.required(
            c, "confirmed_how", (inp.confirmed_how or "").strip(), "How it was confirmed", 4000
        )
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    c.raise_if_any()
    assert inp.at is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "vicious_action", actor)) is not None:
            return build_view(s, load(s, done), profile)  # a retry: already recorded
        case = load(s, case_id, lock=True, version=version)
        if case.status != "served":
            raise ValidationError(
                {
                    "case": "An outcome is recorded on a case whose notice is "
                    "served and has no outcome yet."
                }
            )
        deadline = case.notice_deadline
        assert deadline is not None  # served cases have one
        served = s.scalar(
            select(func.max(ViciousNotice.served_at)).where(ViciousNotice.case_id == case.id)
        )
        if served is not None and inp.at < served:
            # What became of the notice answers it: not before it was served.
            raise ValidationError(
                {
                    "at": "The outcome cannot be before the notice was served "
                    f"({format_instant(served, profile)})."
                }
            )
        if inp.kind == "not_complied" and not rules.notice_expired(deadline, inp.at):
            raise ValidationError(
                {
                    "at": "The owner has until "
                    f"{format_instant(deadline, profile)} to comply: "
                    "not complied can be recorded from then."
                }
            )
        o = ViciousOutcome(
            case_id=case.id,
            kind=inp.kind,
            at=inp.at,
            by_whom=v.clean(inp.by_whom),
            proof=(inp.proof or "").strip(),
            removed_to=v.clean(inp.removed_to),
            confirmed_how=(inp.confirmed_how or "").strip(),
            notes=(inp.notes or "").strip(),
            recorded_by=actor.username,
            recorded_at=at,
        )
        s.add(o)
        s.flush()
        audit(
            s,
            actor,
            "record_outcome",
            "vicious_case",
            case.id,
            after=jsonable(
                {
                    "kind": o.kind,
                    "at": o.at,
                    "by_whom": o.by_whom,
                    "proof": o.proof,
                    "removed_to": o.removed_to,
                    "confirmed_how": o.confirmed_how,
                }
            ),
        )
        # The notice is answered: no deadline is in force any more (the notice row keeps it).
        set_summary(s, actor, case, rules.OUTCOMES[inp.kind], status=inp.kind, notice_deadline=None)
        s.flush()
        remember_save(s, client_key, "vicious_action", case.id, actor)
        return build_view(s, case, profile)


def _not_before_finding(
    s: Session, case_id: int, field_: str, day: date | None, label: str, profile: Profile
) -> None:
    """A next step follows the finding that the owner did not comply: its days are not
    before the day of that finding."""
    found = s.scalar(
        select(ViciousOutcome.at).where(
            ViciousOutcome.case_id == case_id, ViciousOutcome.kind == "not_complied"
        )
    )
    if found is not None and day is not None:
        found_on = to_local(found, profile).date()
        if day < found_on:
            raise ValidationError(
                {
                    field_: f"{label} cannot be before the owner was found not to have "
                    f"complied ({format_day(found_on)})."
                }
            )


@dataclass(frozen=True)
class StepInput:
    kind: str  # rules.vicious.NEXT_STEPS
    due_on: date | None
    what: str = ""


@requires(Permission.VICIOUS_CASES)
def add_step(
    db: Database,
    actor: Actor,
    case_id: int,
    inp: StepInput,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> CaseView:
    """A next step after the owner did not comply: court action (c)(3), seizure (c)(1) or
    immediate action (c)(4), with the day it is due."""
    c = Collector()
    c.check(inp.kind in rules.NEXT_STEPS, "kind", "Choose the next step.")
    c.check(inp.due_on is not None, "due_on", "The day the step is due is required.")
    v.day(c, "due_on", inp.due_on, "The day the step is due")
    v.optional_len(c, "what", (inp.what or "").strip(), "What is to be done", 4000)
    c.raise_if_any()
    with db.write() as s:
        if (done := existing_save(s, client_key, "vicious_action", actor)) is not None:
            return build_view(s, load(s, done), profile)  # a retry: already recorded
        case = load(s, case_id, lock=True, version=version)
        if case.status != "not_complied":
            raise ValidationError({"case": "Next steps follow a notice not complied with."})
        _not_before_finding(s, case.id, "due_on", inp.due_on, "The day the step is due", profile)
        st = ViciousStep(
            case_id=case.id,
            kind=inp.kind,
            due_on=inp.due_on,
            what=(inp.what or "").strip(),
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(st)
        s.flush()
        audit(
            s,
            actor,
            "add_step",
            "vicious_case",
            case.id,
            after=jsonable({"step": st.id, "kind": st.kind, "due_on": st.due_on, "what": st.what}),
        )
        set_summary(s, actor, case, "next step added", next_step_due=next_step_due(s, case.id))
        s.flush()
        remember_save(s, client_key, "vicious_action", case.id, actor)
        return build_view(s, case, profile)


@requires(Permission.VICIOUS_CASES)
def complete_step(
    db: Database, actor: Actor, step_id: int, done_on: date | None, result: str, profile: Profile
) -> CaseView:
    """A next step taken: the day, and what came of it (the court's order, the seizure)."""
    c = Collector()
    c.check(done_on is not None, "done_on", "The day the step was taken is required.")
    done_ok = v.day(c, "done_on", done_on, "The day the step was taken")
    v.required(c, "result", (result or "").strip(), "What came of it", 4000)
    with db.write() as s:
        st = v.row(s, ViciousStep, step_id)  # None also for an id no INTEGER holds
        if st is None:
            raise NotFoundError(f"There is no next step #{step_id}.")
        if done_ok and done_on is not None and done_on > to_local(now(), profile).date():
            c.add("done_on", "The day the step was taken cannot be in the future.")
        c.raise_if_any()
        if s.scalar(select(ViciousStepDone.id).where(ViciousStepDone.step_id == step_id)):
            raise ValidationError({"step": "This step is already recorded as taken."})
        case = load(s, st.case_id, lock=True)
        _not_before_finding(s, case.id, "done_on", done_on, "The day the step was taken", profile)
        ended = s.execute(
            select(ViciousEnding.kind, ViciousEnding.decided_on).where(
                ViciousEnding.case_id == case.id
            )
        ).first()
        if ended is not None and done_on is not None and done_on > ended.decided_on:
            raise ValidationError(
                {
                    "done_on": f"The declaration was {ended.kind} on "
                    f"{format_day(ended.decided_on)}: no step is taken on it after that day."
                }
            )
        s.add(
            ViciousStepDone(
                step_id=st.id,
                done_on=done_on,
                result=result.strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        s.flush()
        audit(
            s,
            actor,
            "complete_step",
            "vicious_case",
            case.id,
            after=jsonable(
                {"step": st.id, "kind": st.kind, "done_on": done_on, "result": result.strip()}
            ),
        )
        set_summary(s, actor, case, "next step taken", next_step_due=next_step_due(s, case.id))
        s.flush()
        return build_view(s, case, profile)


@dataclass(frozen=True)
class EndingInput:
    kind: str  # "withdrawn" | "overturned"
    decided_on: date | None
    authority: str  # who decided: the officer's supervisor, the court, the appeal body
    reason: str


@requires(Permission.OVERRIDES)
def end_declaration(
    db: Database,
    actor: Actor,
    case_id: int,
    inp: EndingInput,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> CaseView:
    """Withdraw or overturn a declaration: a new event with its reason, by a supervisor;
    the declaration itself stays as it was made."""
    c = Collector()
    c.check(inp.kind in rules.ENDINGS, "kind", "Choose withdrawn or overturned.")
    c.check(inp.decided_on is not None, "decided_on", "The day of the decision is required.")
    decided_ok = v.day(c, "decided_on", inp.decided_on, "The day of the decision")
    if (
        decided_ok
        and inp.decided_on is not None
        and inp.decided_on > to_local(now(), profile).date()
    ):
        c.add("decided_on", "The decision cannot be in the future.")
    authority = ViciousEnding.__table__.c.authority
    v.required(c, "authority", v.clean(inp.authority), "Who decided", authority)
    v.required(c, "reason", (inp.reason or "").strip(), "The reason", 4000)
    c.raise_if_any()
    with db.write() as s:
        if (done := existing_save(s, client_key, "vicious_action", actor)) is not None:
            return build_view(s, load(s, done), profile)  # a retry: already recorded
        case = load(s, case_id, lock=True, version=version)
        if case.status not in DECLARED_STATUSES:
            raise ValidationError(
                {"case": "Only a declaration in force can be withdrawn or overturned."}
            )
        declared = s.scalar(
            select(ViciousDeclaration.decided_at).where(ViciousDeclaration.case_id == case.id)
        )
        assert inp.decided_on is not None  # checked above
        if declared is not None and inp.decided_on < to_local(declared, profile).date():
            raise ValidationError(
                {
                    "decided_on": "The decision cannot be before the declaration it ends "
                    f"({format_day(to_local(declared, profile).date())})."
                }
            )
        s.add(
            ViciousEnding(
                case_id=case.id,
                kind=inp.kind,
                decided_on=inp.decided_on,
                authority=v.clean(inp.authority),
                reason=inp.reason.strip(),
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        s.flush()
        audit(
            s,
            actor,
            "end_declaration",
            "vicious_case",
            case.id,
            after=jsonable(
                {
                    "kind": inp.kind,
                    "decided_on": inp.decided_on,
                    "authority": v.clean(inp.authority),
                }
            ),
            reason=inp.reason.strip(),
        )
        set_summary(
            s,
            actor,
            case,
            rules.ENDINGS[inp.kind],
            status=inp.kind,
            notice_deadline=None,
            next_step_due=None,
        )
        s.flush()
        remember_save(s, client_key, "vicious_action", case.id, actor)
        return build_view(s, case, profile)
