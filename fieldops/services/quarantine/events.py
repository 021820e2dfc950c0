"""What happens during a quarantine, one verb per action (city code 58-527; RULES.md section 3).

Each verb adds an exam or an event row (append-only), rewrites the order's copies
from the records (``plan.refresh``) and writes its audit event, in one unit of work.
A refusal names the field and writes nothing.
"""

from __future__ import annotations

from datetime import date, datetime

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, QuarantineEvent
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, to_local
from fieldops.rules.quarantine import (
    EXAM_SLOTS,
    certification_refused,
    extend_observation,
    missing_exams,
    observation_ended,
    plan_after_broken_home,
)
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    fetch,
    now,
)
from fieldops.services.quarantine.clinics import licensed_clinic
from fieldops.services.quarantine.fixes import bitten_at_of, corrections_of
from fieldops.services.quarantine.plan import refresh
from fieldops.services.quarantine.steps import (
    CLOSED_WORDS,
    WHO,
    Done,
    add_event,
    check_not_before_seen_alive,
    check_when,
    event_data,
    events_of,
    exams_of,
    locked,
    require_open,
    retried,
)

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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "a delivery")
        if st.plan.placement != "clinic":
            raise ValidationError({"at": "This is a home quarantine: nothing is delivered."})
        if st.delivered_at is not None:
            raise ValidationError({"at": "The delivery to the clinic is already recorded."})
        start = st.plan.broken_home_at or q.ordered_at
        c = Collector()
        check_when(c, "at", at, "When it was delivered", start, "the order to deliver it")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = add_event(
            s,
            actor,
            bite,
            "delivered",
            at,
            clinic_id=st.clinic_id,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_delivered", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "a broken home quarantine")
        c = Collector()
        check_when(c, "at", at, "When it was found", q.ordered_at, "the order")
        cite = QuarantineEvent.__table__.c.citation
        v.optional_len(c, "citation", v.clean(citation), "Citation number", cite)
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        try:
            plan_after_broken_home(st.plan, at, profile)
        except ValueError as exc:
            raise ValidationError({"at": f"Cannot move it to a clinic: {exc}."}) from None
        clinic = licensed_clinic(s, clinic_id, "clinic_id")
        e = add_event(
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
        audit(s, actor, "quarantine_broken_home", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "an extension")
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
        e = add_event(
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
        audit(s, actor, "quarantine_extended", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "signs of rabies")
        c = Collector()
        v.required(c, "who", v.clean(health_officer), "The health officer notified", WHO)
        check_when(
            c,
            "at",
            notified_at,
            "When the health officer was notified",
            st.plan.bitten_at,
            "the bite",
        )
        c.raise_if_any()
        assert notified_at is not None
        e = add_event(
            s,
            actor,
            bite,
            "signs_of_rabies",
            notified_at,
            who=health_officer,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_signs", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "a death")
        c = Collector()
        check_when(c, "at", at, "When", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        check_not_before_seen_alive(c, "at", to_local(at, profile).date(), "When", s, q, st, at)
        c.raise_if_any()
        e = add_event(s, actor, bite, kind, at, notes=notes, client_key=client_key)
        if kind == "died":
            audit(s, actor, "quarantine_died", "quarantine", q.id, after=event_data(e))
        else:
            audit(s, actor, "quarantine_euthanized", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        if st.status not in ("died", "euthanized"):
            raise ValidationError(
                {"status": "A specimen is sent only after the animal died or was euthanized."}
            )
        if any(e.kind == "specimen_sent" for e in events_of(s, bite)):
            raise ValidationError({"at": "The specimen is already recorded as sent."})
        c = Collector()
        v.required(c, "who", v.clean(sent_by), "Who sent it", WHO)
        check_when(c, "at", at, "When it was sent", st.closed_at or q.ordered_at, "the death")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = add_event(
            s, actor, bite, "specimen_sent", at, who=sent_by, notes=notes, client_key=client_key
        )
        audit(s, actor, "quarantine_specimen", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "an escape")
        c = Collector()
        check_when(c, "at", at, "When it escaped", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        day = to_local(at, profile).date()
        check_not_before_seen_alive(c, "at", day, "When it escaped", s, q, st, at)
        c.raise_if_any()
        e = add_event(s, actor, bite, "escaped", at, notes=notes, client_key=client_key)
        audit(s, actor, "quarantine_escaped", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
        require_open(st, "a release")
        c = Collector()
        v.required(c, "who", v.clean(veterinarian), "The certifying veterinarian", WHO)
        check_when(c, "at", at, "When it was released", q.ordered_at, "the order")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        if not observation_ended(st.plan, to_local(at, profile).date()):
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
        refused = certification_refused(
            (st.exam_slots.get(x.id), st.findings.get(x.id, x.finding)) for x in exams_of(s, q)
        )
        if refused:
            raise ValidationError({"exams": refused})
        e = add_event(
            s, actor, bite, "released", at, who=veterinarian, notes=notes, client_key=client_key
        )
        audit(s, actor, "quarantine_released", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        q, bite, st = locked(s, quarantine_id, profile)
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
        elif not observation_ended(st.plan, received_on):
            c.add(
                "received_on",
                "The veterinarian certifies the animal at the end of the observation period, "
                f"{format_day(st.plan.last_day)}: the certification cannot be received before.",
            )
        c.raise_if_any()
        assert received_on is not None
        e = add_event(
            s,
            actor,
            bite,
            "certificate_received",
            now(),
            received_on=received_on,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "quarantine_certificate", "quarantine", q.id, after=event_data(e))
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
        if (done := retried(s, client_key, actor)) is not None:
            return done
        bite = fetch(s, BiteReport, bite_report_id)
        if not bite.referral:
            raise ValidationError({"who": "This bite is quarantined, not referred."})
        if any(e.kind == "referral_sent" for e in events_of(s, bite)):
            raise ValidationError({"who": "The referral is already recorded."})
        c = Collector()
        v.required(c, "who", v.clean(health_officer), "The health officer", WHO)
        bitten_at = bitten_at_of(corrections_of(s, bite.id), bite)
        check_when(c, "at", at, "When it was referred", bitten_at, "the bite")
        c.raise_if_any()
        assert at is not None  # _when refused a missing time
        e = add_event(
            s,
            actor,
            bite,
            "referral_sent",
            at,
            who=health_officer,
            notes=notes,
            client_key=client_key,
        )
        audit(s, actor, "bite_referral", "bite_report", bite.id, after=event_data(e))
        return Done(None, bite.id)
