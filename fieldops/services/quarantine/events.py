"""What happens during a quarantine, one verb per action (city code 58-527; RULES.md section 3).

Each verb adds an exam or an event row (append-only), rewrites the order's copies
from the records (``plan.refresh``) and writes its audit event, in one unit of work.
A refusal names the field and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, Quarantine, QuarantineEvent, QuarantineExam
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, to_local
from fieldops.rules.quarantine import (
    EXAM_FINDINGS,
    EXAM_SLOTS,
    exam_slot,
    exam_warning,
    extend_observation,
    missing_exams,
    plan_after_broken_home,
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
from fieldops.services.quarantine.bites import FUTURE_SLACK
from fieldops.services.quarantine.clinics import licensed_clinic
from fieldops.services.quarantine.fixes import bitten_at_of, corrections_of
from fieldops.services.quarantine.plan import State, refresh

_WHO = QuarantineEvent.__table__.c.who  # the limit of every "who" field

CLOSED_WORDS = {
    "certified": "released with the veterinarian's certification",
    "died": "closed: the animal died",
    "euthanized": "closed: the animal was euthanized",
    "escaped": "closed: the animal escaped",
}


@dataclass(frozen=True)
class Done:
    """What a verb did: the quarantine (or bite report) and any warning to show."""

    quarantine_id: int | None
    bite_report_id: int
    warning: str = ""


def _locked(
    s: Session, quarantine_id: int, profile: Profile
) -> tuple[Quarantine, BiteReport, State]:
    q = s.scalar(select(Quarantine).where(Quarantine.id == quarantine_id).with_for_update())
    if q is None:
        q = fetch(s, Quarantine, quarantine_id)  # raises the clear "no such" error
    bite = fetch(s, BiteReport, q.bite_report_id)
    return q, bite, refresh(s, bite, q, profile)


def _open(st: State, what: str) -> None:
    if st.status != "open":
        raise ValidationError(
            {
                "status": f"This quarantine is {CLOSED_WORDS[st.status]}; "
                f"{what} can only be recorded while it is open."
            }
        )


def _when(
    c: Collector, field: str, at: datetime | None, label: str, after: datetime, after_words: str
) -> None:
    if at is None:
        c.add(field, f"{label} is required.")
    elif not v.instant(c, field, at, label):
        pass  # not a storable date and time: said so
    elif at > now() + FUTURE_SLACK:
        c.add(field, f"{label} cannot be in the future.")
    elif at < after:
        c.add(field, f"{label} cannot be before {after_words}.")


def _event(
    s: Session,
    actor: Actor,
    bite: BiteReport,
    kind: str,
    at: datetime,
    *,
    who: str = "",
    clinic_id: int | None = None,
    new_last_day: date | None = None,
    received_on: date | None = None,
    citation: str = "",
    notes: str = "",
    client_key: str | None = None,
) -> QuarantineEvent:
    c = Collector()
    col = QuarantineEvent.__table__.c
    v.optional_len(c, "who", v.clean(who), "Who", col.who)
    v.optional_len(c, "citation", v.clean(citation), "Citation number", col.citation)
    v.optional_len(c, "notes", (notes or "").strip(), "Notes", 4000)
    c.raise_if_any()
    e = QuarantineEvent(
        bite_report_id=bite.id,
        kind=kind,
        at=at,
        who=v.clean(who),
        clinic_id=clinic_id,
        new_last_day=new_last_day,
        received_on=received_on,
        citation=v.clean(citation),
        notes=(notes or "").strip(),
        recorded_at=now(),
        recorded_by=actor.username,
    )
    s.add(e)
    s.flush()
    remember_save(s, client_key, "quarantine_event", e.id, actor)
    return e


def _retried(s: Session, key: str | None, actor: Actor) -> Done | None:
    """What the save with ``key`` already recorded; None for a new save."""
    done = existing_save(s, key, "quarantine_event", actor)
    if done is None:
        return None
    e = fetch(s, QuarantineEvent, done)
    q = s.scalar(select(Quarantine.id).where(Quarantine.bite_report_id == e.bite_report_id))
    return Done(q, e.bite_report_id)


def _data(e: QuarantineEvent) -> dict[str, Any]:
    return {
        k: jsonable(getattr(e, k))
        for k in ("at", "who", "clinic_id", "new_last_day", "received_on", "citation", "notes")
        if getattr(e, k) not in (None, "")
    }


# --- exams -------------------------------------------------------------------------------


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
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "an examination")
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
            e = _event(
                s,
                actor,
                bite,
                "died",
                max(at, q.ordered_at),
                notes=f"Found dead at the examination on {format_day(inp.examined_on)}.",
            )
            audit(s, actor, "quarantine_died", "quarantine", q.id, after=_data(e))
        remember_save(s, client_key, "quarantine_exam", x.id, actor)
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id, warning)


# --- events ------------------------------------------------------------------------------


@requires(Permission.QUARANTINES)
def record_delivery(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    at: datetime | None,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The animal was delivered to the clinic; a delivery after the deadline is recorded
    with a warning (it is a fact, and the deadline stays on the record)."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "a delivery")
        if st.plan.placement != "clinic":
            raise ValidationError({"at": "This is a home quarantine: nothing is delivered."})
        if st.delivered_at is not None:
            raise ValidationError({"at": "The delivery to the clinic is already recorded."})
        start = st.plan.broken_home_at or q.ordered_at
        c = Collector()
        _when(c, "at", at, "When it was delivered", start, "the order to deliver it")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = _event(
            s,
            actor,
            bite,
            "delivered",
            at,
            clinic_id=st.clinic_id,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_delivered", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        late = st.plan.deliver_by is not None and at > st.plan.deliver_by
        return Done(q.id, bite.id, "Delivered after the deadline." if late else "")


@requires(Permission.QUARANTINES)
def record_broken_home(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    at: datetime | None,
    clinic_id: int | None,
    profile: Profile,
    *,
    citation: str = "",
    notes: str = "",
    client_key: str | None = None,
) -> Done:
    """Found at large or not confined: to a licensed clinic for the balance of the period,
    the exam schedule kept; a citation may be recorded (58-527(b))."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "a broken home quarantine")
        c = Collector()
        _when(c, "at", at, "When it was found", q.ordered_at, "the order")
        cite = QuarantineEvent.__table__.c.citation
        v.optional_len(c, "citation", v.clean(citation), "Citation number", cite)
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        try:
            plan_after_broken_home(st.plan, at, profile)
        except ValueError as exc:
            raise ValidationError({"at": f"Cannot move it to a clinic: {exc}."}) from None
        clinic = licensed_clinic(s, clinic_id, "clinic_id")
        e = _event(
            s,
            actor,
            bite,
            "broken_home",
            at,
            clinic_id=clinic.id,
            citation=citation,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_broken_home", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def extend_period(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    new_last_day: date | None,
    veterinarian: str,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The veterinarian extends the observation period (58-527(b)): a new last day."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "an extension")
        c = Collector()
        who = QuarantineEvent.__table__.c.who
        v.required(c, "veterinarian", v.clean(veterinarian), "The veterinarian", who)
        if new_last_day is None:
            c.add("new_last_day", "The new last day is required.")
        elif not v.day(c, "new_last_day", new_last_day, "The new last day"):
            pass  # not a date: said so
        elif new_last_day <= st.plan.last_day:
            c.add("new_last_day", f"The new last day must be after {format_day(st.plan.last_day)}.")
        c.raise_if_any()
        assert new_last_day is not None
        extend_observation(st.plan, new_last_day, veterinarian, profile)
        e = _event(
            s,
            actor,
            bite,
            "extended",
            now(),
            who=veterinarian,
            new_last_day=new_last_day,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_extended", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def record_signs_of_rabies(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    notified_at: datetime | None,
    health_officer: str,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """Signs of rabies: the health officer notified (who, when)."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "signs of rabies")
        c = Collector()
        v.required(c, "who", v.clean(health_officer), "The health officer notified", _WHO)
        _when(
            c,
            "at",
            notified_at,
            "When the health officer was notified",
            st.plan.bitten_at,
            "the bite",
        )
        c.raise_if_any()
        assert notified_at is not None
        e = _event(
            s,
            actor,
            bite,
            "signs_of_rabies",
            notified_at,
            who=health_officer,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_signs", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def record_death(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    kind: str,
    at: datetime | None,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The animal died or was euthanized: the quarantine closes; the specimen goes to the State
    Laboratory of Hygiene (record it with ``record_specimen_sent``)."""
    if kind not in ("died", "euthanized"):
        raise ValidationError({"kind": "Say whether the animal died or was euthanized."})
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "a death")
        c = Collector()
        _when(c, "at", at, "When", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = _event(s, actor, bite, kind, at, notes=notes, client_key=client_key)
        if kind == "died":
            audit(s, actor, "quarantine_died", "quarantine", q.id, after=_data(e))
        else:
            audit(s, actor, "quarantine_euthanized", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def record_specimen_sent(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    at: datetime | None,
    sent_by: str,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The specimen went to the State Laboratory of Hygiene: when, by whom."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        if st.status not in ("died", "euthanized"):
            raise ValidationError(
                {"status": "A specimen is sent only after the animal died or was euthanized."}
            )
        if any(e.kind == "specimen_sent" for e in _kinds(s, bite)):
            raise ValidationError({"at": "The specimen is already recorded as sent."})
        c = Collector()
        v.required(c, "who", v.clean(sent_by), "Who sent it", _WHO)
        _when(c, "at", at, "When it was sent", st.closed_at or q.ordered_at, "the death")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = _event(
            s, actor, bite, "specimen_sent", at, who=sent_by, notes=notes, client_key=client_key
        )
        audit(s, actor, "quarantine_specimen", "quarantine", q.id, after=_data(e))
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def record_escape(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    at: datetime | None,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The animal escaped: the quarantine closes as escaped."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "an escape")
        c = Collector()
        _when(c, "at", at, "When it escaped", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = _event(s, actor, bite, "escaped", at, notes=notes, client_key=client_key)
        audit(s, actor, "quarantine_escaped", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def release_certified(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    at: datetime | None,
    veterinarian: str,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """Release with the veterinarian's certification of no signs of rabies (58-527(b)): not
    before the last day, every required examination done, the last without signs."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        _open(st, "a release")
        c = Collector()
        v.required(c, "who", v.clean(veterinarian), "The certifying veterinarian", _WHO)
        _when(c, "at", at, "When it was released", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        if to_local(at, profile).date() < st.plan.last_day:
            raise ValidationError(
                {
                    "at": "The observation period runs until "
                    f"{format_day(st.plan.last_day)}: no release before."
                }
            )
        missing = missing_exams(st.plan, st.done)
        if missing:
            raise ValidationError(
                {
                    "exams": "Still missing: "
                    + "; ".join(f"the {EXAM_SLOTS[m[0]]} ({format_day(m[1])})" for m in missing)
                    + ". Record it, or have the veterinarian extend the period."
                }
            )
        last = [x for x in _exams(s, q) if st.exam_slots.get(x.id) == "last"]
        if last and st.findings.get(last[0].id, last[0].finding) != "no_signs":
            raise ValidationError(
                {
                    "exams": "The last examination did not find the animal "
                    "free of signs of rabies: it cannot be certified."
                }
            )
        e = _event(
            s, actor, bite, "released", at, who=veterinarian, notes=notes, client_key=client_key
        )
        audit(s, actor, "quarantine_released", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        return Done(q.id, bite.id)


@requires(Permission.QUARANTINES)
def record_certificate_received(
    db: Database,
    actor: Actor,
    quarantine_id: int,
    received_on: date | None,
    profile: Profile,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """The owner returned the certification of quarantine (58-527(d)); late is recorded as
    late."""
    today = to_local(now(), profile).date()
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = _locked(s, quarantine_id, profile)
        if st.status in ("died", "euthanized", "escaped"):
            raise ValidationError(
                {
                    "status": f"This quarantine is {CLOSED_WORDS[st.status]}; "
                    "no certification of quarantine is expected."
                }
            )
        if st.certificate_received_on is not None:
            raise ValidationError(
                {
                    "received_on": "The certificate is already recorded as "
                    f"received on "
                    f"{format_day(st.certificate_received_on)}."
                }
            )
        c = Collector()
        if received_on is None:
            c.add("received_on", "The date it was received is required.")
        elif not v.day(c, "received_on", received_on, "The date received"):
            pass  # not a date: said so
        elif received_on > today:
            c.add("received_on", "The date received cannot be in the future.")
        elif received_on < st.plan.bite_day:
            c.add("received_on", "The date received cannot be before the bite.")
        c.raise_if_any()
        assert received_on is not None
        e = _event(
            s,
            actor,
            bite,
            "certificate_received",
            now(),
            received_on=received_on,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_certificate", "quarantine", q.id, after=_data(e))
        refresh(s, bite, q, profile)
        late = received_on > st.plan.certificate_due
        return Done(q.id, bite.id, "Received after it was due." if late else "")


@requires(Permission.BITE_REPORTS)
def record_referral_sent(
    db: Database,
    actor: Actor,
    bite_report_id: int,
    at: datetime | None,
    health_officer: str,
    notes: str = "",
    *,
    client_key: str | None = None,
) -> Done:
    """A bite by an animal that is neither a dog nor a cat, referred to the health officer."""
    with db.write() as s:
        if (done := _retried(s, client_key, actor)) is not None:
            return done
        bite = fetch(s, BiteReport, bite_report_id)
        if not bite.referral:
            raise ValidationError({"who": "This bite is quarantined, not referred."})
        if any(e.kind == "referral_sent" for e in _kinds(s, bite)):
            raise ValidationError({"who": "The referral is already recorded."})
        c = Collector()
        v.required(c, "who", v.clean(health_officer), "The health officer", _WHO)
        bitten_at = bitten_at_of(corrections_of(s, bite.id), bite)
        _when(c, "at", at, "When it was referred", bitten_at, "the bite")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = _event(
            s,
            actor,
            bite,
            "referral_sent",
            at,
            who=health_officer,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "bite_referral", "bite_report", bite.id, after=_data(e))
        return Done(None, bite.id)


def _kinds(s: Session, bite: BiteReport) -> list[QuarantineEvent]:
    return list(s.scalars(select(QuarantineEvent).where(QuarantineEvent.bite_report_id == bite.id)))


def _exams(s: Session, q: Quarantine) -> list[QuarantineExam]:
    return list(s.scalars(select(QuarantineExam).where(QuarantineExam.quarantine_id == q.id)))
