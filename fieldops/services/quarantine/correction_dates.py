"""Checking a correction of a date or a finding of a bite case before it is kept.

The time of the bite drives every deadline of the quarantine (first and last day, the
exam windows, the certificate due date, the clinic delivery deadline); an exam's date
decides which required exam it counts as. A corrected value is tried on the records
with the rules (``plan.state_of``) before it is kept, and refused beside the field when
the records could not have happened that way:

* a bite in the future, after it was reported, after the quarantine was ordered or
  after anything recorded of the case (an event, an examination);
* a bite time on which the rules would place the animal elsewhere than it was ordered
  (the rabies vaccination shown was not current on the corrected day): a correction
  does not move an animal, the officer must;
* an exam in the future, before the quarantine was ordered, or of an exam that found
  the animal dead (that death closed the quarantine with its own time);
* a finding of signs of rabies or of death before the event it requires is recorded:
  signs of rabies need the health officer notified (who, when), a death needs its time
  (which closes the quarantine and asks for the specimen). A correction cannot carry
  those facts, so the officer records the event first and the finding is then corrected
  to agree with it; a finding of death is never corrected away (the quarantine stays
  closed as died).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy.orm import Session

from fieldops.db.models import BiteReport, Quarantine, QuarantineExam
from fieldops.errors import Collector
from fieldops.rules import Profile, format_day, format_local, to_local
from fieldops.rules.quarantine import EXAM_FINDINGS
from fieldops.services import validate as v
from fieldops.services.context import now
from fieldops.services.quarantine.bites import FUTURE_SLACK
from fieldops.services.quarantine.fixes import Key, finding_of
from fieldops.services.quarantine.plan import events_of, exams_of, order_plan, state_of
from fieldops.services.quarantine.views import EVENT_LABELS

_WHERE = {"home": "at home", "clinic": "in a clinic"}

DATED = {("bite_report", "bitten_at"), ("exam", "examined_on"), ("exam", "finding")}
# The events a finding needs recorded before an exam can be corrected to it.
NEEDS_EVENT = {
    "signs_of_rabies": (
        ("signs_of_rabies",),
        "Record the signs of rabies first (when the health officer was notified, and by "
        "whom), then correct the finding: a correction cannot notify the health officer.",
    ),
    "died": (
        ("died", "euthanized"),
        "Record the death first (when it died), which closes the quarantine and asks for "
        "the specimen, then correct the finding: a correction cannot record a death.",
    ),
}
F = "new_value"


def check_dated(
    s: Session,
    c: Collector,
    bite: BiteReport,
    q: Quarantine | None,
    row: object,
    field: str,
    value: str,
    fixes: dict[Key, str],
    profile: Profile,
) -> str:
    """The corrected value as kept (ISO text, a finding's code); refusals added to ``c``."""
    if field == "bitten_at":
        return _bite_time(s, c, bite, q, value, fixes, profile)
    assert isinstance(row, QuarantineExam) and q is not None
    if field == "examined_on":
        return _exam_day(s, c, bite, q, row, value, fixes, profile)
    return _finding(s, c, bite, row, value, fixes)


def _tried(
    s: Session,
    c: Collector,
    bite: BiteReport,
    q: Quarantine,
    fixes: dict[Key, str],
    profile: Profile,
    words: str,
) -> None:
    """Refuse a correction on which the rules find the records impossible."""
    try:
        state_of(bite, q, events_of(s, bite.id), exams_of(s, q.id), profile, fixes)
    except ValueError as exc:
        c.add(F, f"{words}, {exc}: it cannot be corrected so.")


def _bite_time(
    s: Session,
    c: Collector,
    bite: BiteReport,
    q: Quarantine | None,
    value: str,
    fixes: dict[Key, str],
    profile: Profile,
) -> str:
    try:
        at = datetime.fromisoformat(value) if value else None
    except ValueError:
        at = None
    if at is None or at.tzinfo is None or not v.instant(Collector(), F, at, ""):
        c.add(F, "Enter the date and time of the bite (1900 to 2199, with its time zone).")
        return value
    at = at.astimezone(UTC)
    refused = _bite_refused(s, bite, q, at, fixes, profile)
    if refused:
        c.add(F, refused)
    return at.isoformat()


def _bite_refused(
    s: Session,
    bite: BiteReport,
    q: Quarantine | None,
    at: datetime,
    fixes: dict[Key, str],
    profile: Profile,
) -> str:
    """Why the bite cannot have happened at ``at``, or ""."""
    zone = profile.timezone
    if at > now() + FUTURE_SLACK:
        return "The time of the bite cannot be in the future."
    if q is not None and at > q.ordered_at:
        return (
            "The bite cannot be after the quarantine was ordered "
            f"({format_local(q.ordered_at, zone)})."
        )
    if at > bite.reported_at:
        return f"The bite cannot be after it was reported ({format_local(bite.reported_at, zone)})."
    for e in events_of(s, bite.id):
        if e.at < at:
            return (
                "The bite cannot be after what is recorded of it: "
                f"{EVENT_LABELS[e.kind].lower()} on {format_local(e.at, zone)}."
            )
    if q is None:
        return ""
    # (An exam is never before the order's day, so the order's time also keeps the bite
    # before every exam.)
    new = {**fixes, ("bite_report", bite.id, "bitten_at"): at.isoformat()}
    was = order_plan(bite, q.ordered_at, profile, fixes).placement
    try:
        placement = order_plan(bite, q.ordered_at, profile, new).placement
        state_of(bite, q, events_of(s, bite.id), exams_of(s, q.id), profile, new)
    except ValueError as exc:
        return f"With the bite at {format_local(at, zone)}, {exc}: it cannot be corrected so."
    if placement != was:
        day = to_local(at, profile).date()
        return (
            f"On {format_day(day)} the rabies vaccination shown was "
            f"{'' if placement == 'home' else 'not '}current, so the rules would place "
            f"the quarantine {_WHERE[placement]} instead of {_WHERE[was]} as ordered. "
            "A correction does not move "
            "the animal: move it first, then correct the time."
        )
    return ""


def _exam_day(
    s: Session,
    c: Collector,
    bite: BiteReport,
    q: Quarantine,
    x: QuarantineExam,
    value: str,
    fixes: dict[Key, str],
    profile: Profile,
) -> str:
    try:
        day = date.fromisoformat(value) if value else None
    except ValueError:
        day = None
    if day is None or not v.day(Collector(), F, day, ""):
        c.add(F, "Enter the date of the examination (1900 to 2199).")
        return value
    first = state_of(bite, q, events_of(s, bite.id), exams_of(s, q.id), profile, fixes)
    if finding_of(fixes, x) == "died":
        c.add(
            F,
            "This examination found the animal dead, and that death closed the quarantine "
            "with its own time: its date cannot be corrected here.",
        )
    elif day > to_local(now(), profile).date():
        c.add(F, "The examination cannot be in the future.")
    elif day < first.plan.first_exam_day:
        c.add(
            F,
            "The examination cannot be before the quarantine was ordered "
            f"({format_day(first.plan.first_exam_day)}).",
        )
    else:
        new = {**fixes, ("exam", x.id, "examined_on"): day.isoformat()}
        _tried(s, c, bite, q, new, profile, f"With the examination on {format_day(day)}")
    return day.isoformat()


def _finding(
    s: Session,
    c: Collector,
    bite: BiteReport,
    x: QuarantineExam,
    value: str,
    fixes: dict[Key, str],
) -> str:
    code = (
        value
        if value in EXAM_FINDINGS
        else next((k for k, label in EXAM_FINDINGS.items() if label.lower() == value.lower()), "")
    )
    if not code:
        c.add(F, "Choose what the veterinarian found.")
        return value
    if finding_of(fixes, x) == "died" and code != "died":
        c.add(
            F,
            "This examination found the animal dead and the quarantine was closed as died: "
            "a correction does not bring it back.",
        )
    elif code in NEEDS_EVENT:
        kinds, words = NEEDS_EVENT[code]
        if not any(e.kind in kinds for e in events_of(s, bite.id)):
            c.add(F, words)
    return code


def kept(field: str, value: str, profile: Profile) -> str:
    """A kept value in words, for a message."""
    if not value:
        return "blank"
    if field == "bitten_at":
        return format_local(datetime.fromisoformat(value), profile.timezone)
    if field == "examined_on":
        return format_day(date.fromisoformat(value))
    return EXAM_FINDINGS.get(value, value)
