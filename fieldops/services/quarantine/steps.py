"""The steps every quarantine verb shares: lock and refresh the case, check it is open,
check a time, add the event row, find a retried save, and the audit event's data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.models import BiteReport, Quarantine, QuarantineEvent, QuarantineExam
from fieldops.errors import Collector, ValidationError
from fieldops.rules import Profile, format_day, format_instant
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    existing_save,
    fetch,
    jsonable,
    now,
    remember_save,
    require_row_id,
)
from fieldops.services.quarantine.bites import FUTURE_SLACK
from fieldops.services.quarantine.plan import State, refresh

WHO = QuarantineEvent.__table__.c.who  # the limit of every "who" field

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


def locked(
    s: Session, quarantine_id: int, profile: Profile
) -> tuple[Quarantine, BiteReport, State]:
    require_row_id(Quarantine, quarantine_id)
    q = s.scalar(select(Quarantine).where(Quarantine.id == quarantine_id).with_for_update())
    if q is None:
        q = fetch(s, Quarantine, quarantine_id)  # raises the clear "no such" error
    bite = fetch(s, BiteReport, q.bite_report_id)
    return q, bite, refresh(s, bite, q, profile)


def require_open(st: State, what: str) -> None:
    if st.status != "open":
        raise ValidationError(
            {
                "status": f"This quarantine is {CLOSED_WORDS[st.status]}; "
                f"{what} can only be recorded while it is open."
            }
        )


def check_when(
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


def check_not_before_seen_alive(
    c: Collector,
    field: str,
    day: date | None,
    label: str,
    s: Session,
    q: Quarantine,
    st: State,
    at: datetime | None = None,
) -> None:
    """A death or an escape (on ``day``, at ``at`` when its time is known) is not before an
    examination that found the animal alive, its delivery to the clinic, or its being found
    at large: the record would say it was seen after it was gone."""
    alive = [x.examined_on for x in exams_of(s, q) if st.findings.get(x.id, x.finding) != "died"]
    if day is not None and alive and day < max(alive):
        c.add(
            field,
            f"{label} cannot be before the examination of {format_day(max(alive))}, "
            "which found the animal alive.",
        )
        return
    zone = st.plan.bitten_at.tzinfo
    for seen, what in (
        (st.delivered_at, "its delivery to the clinic"),
        (st.plan.broken_home_at, "when it was found at large or improperly confined"),
    ):
        if seen is None or day is None:
            continue
        before = at < seen if at is not None else day < seen.astimezone(zone).date()
        if before:
            c.add(
                field,
                f"{label} cannot be before {what} "
                f"({format_instant(seen.astimezone(zone), midnight='plain')}).",
            )
            return


def add_event(
    s: Session,
    by: Actor,
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
    """Add one event row in the caller's unit of work; ``by`` is who records it."""
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
        recorded_by=by.username,
    )
    s.add(e)
    s.flush()
    remember_save(s, client_key, "quarantine_event", e.id, by)
    return e


def retried(s: Session, key: str | None, by: Actor) -> Done | None:
    """What the save with ``key`` already recorded; None for a new save."""
    done = existing_save(s, key, "quarantine_event", by)
    if done is None:
        return None
    e = fetch(s, QuarantineEvent, done)
    q = s.scalar(select(Quarantine.id).where(Quarantine.bite_report_id == e.bite_report_id))
    return Done(q, e.bite_report_id)


def event_data(e: QuarantineEvent) -> dict[str, Any]:
    return {
        k: jsonable(getattr(e, k))
        for k in ("at", "who", "clinic_id", "new_last_day", "received_on", "citation", "notes")
        if getattr(e, k) not in (None, "")
    }


def events_of(s: Session, bite: BiteReport) -> list[QuarantineEvent]:
    return list(s.scalars(select(QuarantineEvent).where(QuarantineEvent.bite_report_id == bite.id)))


def exams_of(s: Session, q: Quarantine) -> list[QuarantineExam]:
    return list(s.scalars(select(QuarantineExam).where(QuarantineExam.quarantine_id == q.id)))
