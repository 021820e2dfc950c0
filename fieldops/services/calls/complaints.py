"""Complaints under 58-534(a): logging one, the owner's notification, and a petition
after a later violation (refused naming what it lacks, or referred)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TypeGuard

from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallComplaint, CallPetition
from fieldops.errors import Collector, NotFoundError, StaleRecordError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, petition_missing, to_local
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.records import build_view, load
from fieldops.services.calls.views import CallView
from fieldops.services.context import Actor, audit, now, require_row_id, snapshot

FIELDS = ("call_id", "complainant", "complainant_adult", "alleged", "logged_at")
PETITION_FIELDS = (
    "complaint_id",
    "received_on",
    "petitioners",
    "animal",
    "violations",
    "reported_on",
    "will_testify",
    "status",
    "missing",
    "referred_to",
    "referred_on",
)


@requires(Permission.CALLS)
def log_complaint(
    db: Database,
    actor: Actor,
    call_id: int,
    *,
    complainant: str,
    alleged: str,
    adult: bool = True,
    logged_at: datetime | None = None,
) -> CallView:
    """Log a complaint made on a call (58-534(a)): who complained, and the alleged violation."""
    at = now()
    logged = logged_at or at
    c = Collector()
    cols = CallComplaint.__table__.c
    v.required(c, "complainant", v.clean(complainant), "The complainant", cols.complainant)
    v.required(c, "alleged", (alleged or "").strip(), "The alleged violation", 4000)
    c.check(adult is True, "complainant_adult", "A complaint under 58-534(a) is made by an adult.")
    if v.instant(c, "logged_at", logged, "When it was logged") and logged > at + timedelta(
        minutes=5
    ):
        c.add("logged_at", "A complaint cannot be logged in the future.")
    c.raise_if_any()
    with db.write() as s:
        call = load(s, call_id, lock=True)
        # A complaint is made on the call: not before it came in (forms give the minute).
        if logged < call.received_at.replace(second=0, microsecond=0):
            raise ValidationError(
                {"logged_at": "A complaint cannot be logged before its call came in."}
            )
        row = CallComplaint(
            call_id=call.id,
            complainant=v.clean(complainant),
            complainant_adult=True,
            alleged=alleged.strip(),
            logged_at=logged,
            recorded_by=actor.username,
        )
        s.add(row)
        s.flush()
        audit(s, actor, "log_complaint", "call_complaint", row.id, after=snapshot(row, FIELDS))
        return build_view(s, call)


def _complaint(s: Session, complaint_id: int, *, lock: bool = False) -> CallComplaint:
    require_row_id(CallComplaint, complaint_id)
    row = s.get(CallComplaint, complaint_id, with_for_update=lock)
    if row is None:
        raise NotFoundError(f"There is no complaint #{complaint_id}.")
    return row


@requires(Permission.CALLS)
def record_notification(
    db: Database,
    actor: Actor,
    complaint_id: int,
    version: int,
    *,
    how: str,
    at: datetime | None = None,
) -> CallView:
    """The owner was notified of the alleged violation (58-534(a)): how and when."""
    moment = at or now()
    c = Collector()
    c.check(how in rules.NOTIFY_METHODS, "notified_how", "Choose how the owner was notified.")
    if v.instant(c, "notified_at", moment, "When the owner was notified") and (
        moment > now() + timedelta(minutes=5)
    ):
        c.add("notified_at", "The notification cannot be in the future.")
    c.raise_if_any()
    with db.write() as s:
        row = _complaint(s, complaint_id, lock=True)
        if row.version != version:
            raise StaleRecordError(
                f"Complaint #{complaint_id} was changed by someone else: reopen the call."
            )
        # Forms give the minute: a notice in the minute the complaint was logged is not before it.
        if moment < row.logged_at.replace(second=0, microsecond=0):
            raise ValidationError(
                {"notified_at": "The owner cannot be notified before the complaint was logged."}
            )
        before = {"notified_how": row.notified_how, "notified_at": row.notified_at}
        row.notified_how = how
        row.notified_at = moment
        row.notified_by = actor.username
        s.flush()
        audit(
            s,
            actor,
            "notify_owner",
            "call_complaint",
            row.id,
            before=before,
            after={"call_id": row.call_id, "notified_how": how, "notified_at": moment},
        )
        return build_view(s, load(s, row.call_id))


@dataclass(frozen=True)
class PetitionInput:
    """The petition form: its five parts (58-534(a)(1)-(5)) and where it goes."""

    received_on: date | None
    petitioners: str = ""
    animal: str = ""
    violations: str = ""
    reported_on: str = ""
    will_testify: bool = False
    referred_to: str | None = None
    referred_on: date | None = None


def petition_parts(inp: PetitionInput) -> dict[str, object]:
    return {
        "petitioners": inp.petitioners,
        "animal": inp.animal,
        "violations": inp.violations,
        "reported_on": inp.reported_on,
        "will_testify": inp.will_testify,
    }


def _is_day(value: date | None) -> TypeGuard[date]:
    """A day a petition's dates can be compared with (its own errors say what else)."""
    return value is not None and v.day(Collector(), "", value, "")


def _checked_petition(
    inp: PetitionInput, missing: tuple[str, ...], today: date, *, record_refusal: bool
) -> Collector:
    """The petition's own errors: its days, its parts, and where a complete one goes."""
    c = Collector()
    if inp.received_on is None:
        c.add("received_on", "The date the petition was received is required.")
    elif v.day(c, "received_on", inp.received_on, "The date received"):
        v.not_future(c, "received_on", inp.received_on, "The date received", today)
    for key in ("petitioners", "animal", "violations", "reported_on"):
        v.optional_len(c, key, (getattr(inp, key) or "").strip(), rules.PETITION_PARTS[key], 4000)
    if missing and not record_refusal:
        for key in missing:
            c.add(key, f"The petition lacks {rules.PETITION_PARTS[key]} (58-534(a)).")
    if not missing and record_refusal:
        # 58-534(a) refuses a petition for a part it lacks; one with all five is referred.
        # What was asked (a refusal) is never written as its opposite (an acceptance).
        c.add(
            "missing",
            "Not refused: the form has all five parts of 58-534(a), so there is nothing to "
            "refuse it for. Empty the part the petition lacks (or untick (5)) and record the "
            "refusal again, or accept and refer it.",
        )
    elif not missing:
        c.check(
            inp.referred_to in rules.REFERRALS,
            "referred_to",
            "Choose where the petition goes: prosecution (police) or zoning enforcement.",
        )
        if inp.referred_on is None:
            c.add("referred_on", "The date the petition was referred is required.")
        elif v.day(c, "referred_on", inp.referred_on, "The date referred"):
            if _is_day(inp.received_on) and inp.referred_on < inp.received_on:
                c.add("referred_on", "A petition cannot be referred before it was received.")
            else:
                v.not_future(c, "referred_on", inp.referred_on, "The date referred", today)
    return c


@requires(Permission.CALLS)
def file_petition(
    db: Database,
    actor: Actor,
    complaint_id: int,
    inp: PetitionInput,
    *,
    record_refusal: bool = False,
    profile: Profile | None = None,
) -> CallView:
    """Receive a written petition after a later violation.

    A petition lacking any of the five parts is refused: a ``ValidationError`` naming
    each missing part as its field, nothing written; with ``record_refusal`` the
    refusal itself is recorded (what it lacked). A complete petition is referred to
    prosecution or zoning enforcement on ``referred_on``, and never recorded as refused:
    asked to, nothing is written and the error (on ``missing``) asks which part it lacks.
    The petition is received, and referred, on a day from the owner's notification to the
    city's today (``profile``: the jurisdiction, the default's if None)."""
    today = to_local(now(), profile or Profile.default()).date()
    missing = petition_missing(petition_parts(inp))
    c = _checked_petition(inp, missing, today, record_refusal=record_refusal)
    with db.write() as s:
        complaint = _complaint(s, complaint_id, lock=True)
        if complaint.notified_at is None:
            raise ValidationError(
                {
                    "notified_at": "Record the owner's notification of the complaint first: a "
                    "petition follows a later violation after the owner was notified (58-534(a))."
                }
            )
        notified_on = to_local(complaint.notified_at, profile or Profile.default()).date()
        if _is_day(inp.received_on) and inp.received_on < notified_on:
            c.add(
                "received_on",
                f"The owner was notified of the complaint on {format_day(notified_on)}: a "
                "petition follows a later violation, so it cannot be received before then "
                "(58-534(a)).",
            )
        c.raise_if_any()
        assert inp.received_on is not None
        row = CallPetition(
            complaint_id=complaint.id,
            call_id=complaint.call_id,
            received_on=inp.received_on,
            petitioners=(inp.petitioners or "").strip(),
            animal=(inp.animal or "").strip(),
            violations=(inp.violations or "").strip(),
            reported_on=(inp.reported_on or "").strip(),
            will_testify=bool(inp.will_testify),
            status="refused" if missing else "accepted",
            missing=list(missing),
            referred_to=None if missing else inp.referred_to,
            referred_on=None if missing else inp.referred_on,
            recorded_at=now(),
            recorded_by=actor.username,
        )
        s.add(row)
        s.flush()
        audit(
            s,
            actor,
            "refuse_petition" if missing else "accept_petition",
            "call_petition",
            row.id,
            after={"call_id": complaint.call_id, **snapshot(row, PETITION_FIELDS)},
        )
        return build_view(s, load(s, complaint.call_id))
