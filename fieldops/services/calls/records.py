"""A call for service: taking it, changing it, opening a recheck, and reading it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, aliased

from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    CallCitation,
    CallComplaint,
    CallDispatch,
    CallPetition,
    FieldCall,
    Person,
)
from fieldops.db.models.base import utcnow
from fieldops.errors import Collector, NotFoundError, StaleRecordError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.flags import active_flags
from fieldops.services.calls.parties import (
    PartyInput,
    as_inputs,
    check_party_links,
    parties_snapshot,
    party_rows,
    party_views,
    save_parties,
    validate_parties,
)
from fieldops.services.calls.views import (
    CallView,
    CitationView,
    ComplaintView,
    DispatchView,
    PetitionView,
)
from fieldops.services.context import (
    Actor,
    audit,
    changed_only,
    existing_save,
    now,
    remember_save,
    require_row_id,
    snapshot,
)
from fieldops.services.people import format_address

ENTITY = "field_call"

FIELDS = (
    "received_at",
    "received_how",
    "anonymous",
    "caller_id",
    "caller_name",
    "caller_phone",
    "address",
    "place",
    "kind",
    "section",
    "priority",
    "description",
    "owner_id",
    "owner_description",
    "animal_id",
    "animal_description",
    "recheck_of_id",
)


@dataclass(frozen=True)
class CallInput:
    """The quick call form. The caller is a registry person, or a name and phone, or
    ``anonymous``; the main owner and animal are registry records or described, and
    ``parties`` the others involved (a victim, a witness, a second animal)."""

    received_at: datetime | None
    received_how: str
    kind: str
    address: str
    priority: int = 3
    place: str = ""
    description: str = ""
    anonymous: bool = False
    caller_id: int | None = None
    caller_name: str = ""
    caller_phone: str = ""
    owner_id: int | None = None
    owner_description: str = ""
    animal_id: int | None = None
    animal_description: str = ""
    parties: tuple[PartyInput, ...] = ()


def validate_call(inp: CallInput, at: datetime) -> CallInput:
    c = Collector()
    cols = FieldCall.__table__.c
    if inp.received_at is None:
        c.add("received_at", "When the call came in is required.")
    elif v.instant(c, "received_at", inp.received_at, "When the call came in") and (
        inp.received_at > at + timedelta(minutes=5)
    ):
        c.add("received_at", "A call cannot be received in the future.")
    c.check(
        inp.received_how in rules.RECEIVED_HOW,
        "received_how",
        "Choose how the call came in: phone, walk-in or police referral.",
    )
    c.check(inp.kind in rules.CALL_KINDS, "kind", "Choose the kind of call.")
    c.check(
        isinstance(inp.priority, int) and inp.priority in rules.PRIORITIES,
        "priority",
        "Choose the priority: emergency, urgent or routine.",
    )
    v.required(c, "address", v.clean(inp.address), "The address", cols.address)
    v.optional_len(c, "place", (inp.place or "").strip(), "The place", 2000)
    v.optional_len(c, "description", (inp.description or "").strip(), "What was reported", 4000)
    v.optional_len(c, "caller_name", v.clean(inp.caller_name), "The caller", cols.caller_name)
    v.optional_len(c, "caller_phone", v.clean(inp.caller_phone), "The phone", cols.caller_phone)
    v.optional_len(c, "owner_description", v.clean(inp.owner_description), "The owner", 300)
    v.optional_len(c, "animal_description", v.clean(inp.animal_description), "The animal", 300)
    if not inp.anonymous and inp.caller_id is None and not v.clean(inp.caller_name):
        c.add("caller_name", "Name the caller, choose them in the registry, or tick anonymous.")
    parties = validate_parties(c, inp.parties)
    c.raise_if_any()
    return replace(
        inp,
        address=v.clean(inp.address),
        place=(inp.place or "").strip(),
        description=(inp.description or "").strip(),
        caller_name="" if inp.anonymous else v.clean(inp.caller_name),
        caller_phone="" if inp.anonymous else v.clean(inp.caller_phone),
        caller_id=None if inp.anonymous else inp.caller_id,
        owner_description=v.clean(inp.owner_description),
        animal_description=v.clean(inp.animal_description),
        parties=parties,
    )


def _check_links(s: Session, inp: CallInput) -> None:
    c = Collector()
    for field, model, value in (
        ("caller_id", Person, inp.caller_id),
        ("owner_id", Person, inp.owner_id),
        ("animal_id", Animal, inp.animal_id),
    ):
        if value is not None and (not v.row_id_fits(value) or s.get(model, value) is None):
            c.add(field, f"There is no {model.__name__.lower()} #{value} in the registry.")
    check_party_links(s, c, inp.parties)
    c.raise_if_any()


def _search_text(s: Session, call: FieldCall, parties: tuple[PartyInput, ...]) -> str:
    parts = [call.address, call.caller_name, call.owner_description, call.animal_description]
    people = [call.caller_id, call.owner_id, *(p.person_id for p in parties)]
    animals = [call.animal_id, *(p.animal_id for p in parties)]
    parts += [p.description for p in parties]
    for pid in people:
        person = s.get(Person, pid) if pid else None
        if person is not None:
            parts.append(person.full_name)
    for aid in animals:
        a = s.get(Animal, aid) if aid else None
        if a is not None:
            parts.append(a.name)
    return " ".join(x for x in parts if x).lower()[:1000]


def _apply(s: Session, call: FieldCall, inp: CallInput) -> bool:
    """Set the call's fields and, for a call already saved, its parties; True when the
    parties changed."""
    with s.no_autoflush:  # one UPDATE (one version) for the whole change
        _set(s, call, inp)
        if call.id is None:
            return False
        changed = save_parties(s, call.id, inp.parties)
        if changed and not s.is_modified(call):
            call.updated_at = utcnow()  # the call's version guards its parties too
        return changed


def _set(s: Session, call: FieldCall, inp: CallInput) -> None:
    for name in FIELDS:
        if name in ("section", "recheck_of_id"):
            continue
        setattr(call, name, getattr(inp, name))
    call.address_key = rules.address_key(inp.address)
    call.section = rules.kind_section(inp.kind)
    call.search_text = _search_text(s, call, inp.parties)


@requires(Permission.CALLS)
def create_call(
    db: Database,
    actor: Actor,
    inp: CallInput,
    *,
    client_key: str | None = None,
    recheck_of: int | None = None,
) -> CallView:
    """Take a call (the quick call form); a retry with the same ``client_key`` returns
    the call already taken."""
    inp = validate_call(inp, now())
    with db.write() as s:
        done = existing_save(s, client_key, ENTITY, actor)
        if done is not None:
            return build_view(s, load(s, done))
        _check_links(s, inp)
        call = FieldCall(recorded_by=actor.username, recheck_of_id=recheck_of)
        _apply(s, call, inp)
        s.add(call)
        s.flush()
        save_parties(s, call.id, inp.parties)
        remember_save(s, client_key, ENTITY, call.id, actor)
        after = snapshot(call, FIELDS)
        if inp.parties:
            after["parties"] = parties_snapshot(inp.parties)
        audit(s, actor, "create_call", ENTITY, call.id, after=after)
        return build_view(s, call)


def _check_received(s: Session, call: FieldCall, inp: CallInput) -> None:
    """A call is received before an officer is sent to it (and so before its clearing):
    a revised time after its first dispatch is refused. Forms give the minute, as the
    dispatch's own check allows a dispatch in the minute the call came in."""
    first = s.scalar(
        select(CallDispatch.sent_at)
        .where(CallDispatch.call_id == call.id)
        .order_by(CallDispatch.sent_at, CallDispatch.id)
        .limit(1)
    )
    received = inp.received_at
    if first is not None and received is not None and _minute(received) > first:
        raise ValidationError(
            {
                "received_at": "An officer was sent to this call before that time: a call is "
                "received before its dispatches."
            }
        )


def _minute(t: datetime) -> datetime:
    return t.replace(second=0, microsecond=0)


@requires(Permission.CALLS)
def update_call(
    db: Database, actor: Actor, call_id: int, version: int, inp: CallInput, reason: str = ""
) -> CallView:
    """Change what the call says (a corrected address, a better description)."""
    inp = validate_call(inp, now())
    with db.write() as s:
        call = load(s, call_id, lock=True, version=version)
        _check_received(s, call, inp)
        _check_links(s, inp)
        before = snapshot(call, FIELDS) | {"parties": parties_snapshot(party_rows(s, call.id))}
        _apply(s, call, inp)
        after = snapshot(call, FIELDS) | {"parties": parties_snapshot(inp.parties)}
        was, became = changed_only(before, after)
        if became:
            s.flush()
            audit(
                s,
                actor,
                "update_call",
                ENTITY,
                call.id,
                before=was,
                after=became,
                reason=v.clean(reason),
            )
        return build_view(s, call)


@requires(Permission.CALLS)
def open_recheck(
    db: Database,
    actor: Actor,
    call_id: int,
    received_at: datetime | None = None,
    *,
    client_key: str | None = None,
) -> CallView:
    """A follow-up visit as a new call copied from ``call_id`` and linked to it."""
    with db.read() as s:
        old = load(s, call_id)
        inp = CallInput(
            received_at=received_at or now(),
            received_how=old.received_how,
            kind=old.kind,
            address=old.address,
            priority=old.priority,
            place=old.place,
            description=f"Recheck of call #{old.id}. {old.description}".strip(),
            anonymous=old.anonymous,
            caller_id=old.caller_id,
            caller_name=old.caller_name,
            caller_phone=old.caller_phone,
            owner_id=old.owner_id,
            owner_description=old.owner_description,
            animal_id=old.animal_id,
            animal_description=old.animal_description,
            parties=as_inputs(party_views(s, old.id)),
        )
    return create_call(db, actor, inp, client_key=client_key, recheck_of=call_id)


def load(s: Session, call_id: int, *, lock: bool = False, version: int | None = None) -> FieldCall:
    """The call row; ``lock`` holds it to commit; ``version`` refuses a stale screen."""
    require_row_id(FieldCall, call_id)
    call = s.get(FieldCall, call_id, with_for_update=lock)
    if call is None:
        raise NotFoundError(f"There is no call #{call_id}.")
    if version is not None and call.version != version:
        raise StaleRecordError(
            f"Call #{call_id} was changed by someone else since it was opened: "
            "reopen it to see the change."
        )
    return call


def sync_state(s: Session, call: FieldCall) -> None:
    """Rewrite the call's copies (status, officer, outcome, follow-up) from its dispatches."""
    last = s.scalar(
        select(CallDispatch)
        .where(CallDispatch.call_id == call.id)
        .order_by(CallDispatch.sent_at.desc(), CallDispatch.id.desc())
        .limit(1)
    )
    state = state_of(last)
    for k, val in state.items():
        if getattr(call, k) != val:
            setattr(call, k, val)


def state_of(last: CallDispatch | None) -> dict[str, object]:
    if last is None:
        return {"status": "open", "officer": "", "outcome": None, "follow_up_on": None}
    return {
        "status": "closed" if last.outcome else "dispatched",
        "officer": last.officer,
        "outcome": last.outcome,
        "follow_up_on": last.follow_up_on,
    }


def person_name(s: Session, person_id: int | None) -> str:
    p = s.get(Person, person_id) if person_id else None
    return p.full_name if p else ""


def person_address(s: Session, person_id: int | None) -> str:
    p = s.get(Person, person_id) if person_id else None
    return format_address(p.address, p.city, p.state, p.postal_code) if p else ""


def animal_words(s: Session, animal_id: int | None) -> str:
    a = s.get(Animal, animal_id) if animal_id else None
    if a is None:
        return ""
    detail = ", ".join(x for x in (a.species_detail or a.species, a.breed, a.colour) if x)
    return f"{a.name or '(no name)'} ({detail})"


def dispatch_view(d: CallDispatch) -> DispatchView:
    return DispatchView(
        d.id,
        d.officer,
        d.sent_at,
        d.arrived_at,
        d.cleared_at,
        d.outcome,
        rules.OUTCOMES.get(d.outcome or "", ""),
        d.follow_up_on,
        d.impoundment_id,
        d.notes,
        d.version,
    )


def petition_view(p: CallPetition) -> PetitionView:
    return PetitionView(
        p.id,
        p.complaint_id,
        p.received_on,
        p.petitioners,
        p.animal,
        p.violations,
        p.reported_on,
        p.will_testify,
        p.status,
        tuple(p.missing or ()),
        p.referred_to,
        rules.REFERRALS.get(p.referred_to or "", ""),
        p.referred_on,
        p.recorded_by,
    )


def complaint_view(s: Session, c: CallComplaint) -> ComplaintView:
    petitions = tuple(
        petition_view(p)
        for p in s.scalars(
            select(CallPetition).where(CallPetition.complaint_id == c.id).order_by(CallPetition.id)
        )
    )
    return ComplaintView(
        c.id,
        c.call_id,
        c.complainant,
        c.complainant_adult,
        c.alleged,
        c.logged_at,
        c.notified_how,
        rules.NOTIFY_METHODS.get(c.notified_how or "", ""),
        c.notified_at,
        c.notified_by,
        petitions,
        c.version,
    )


def citation_view(s: Session, c: CallCitation) -> CitationView:
    return CitationView(
        c.id,
        c.call_id,
        c.person_id,
        person_name(s, c.person_id),
        person_address(s, c.person_id),
        c.section,
        c.offence_on,
        c.offence_number,
        c.forfeiture,
        c.warning,
        c.plus_court_costs,
        c.penalty_why,
        c.address,
        c.description,
        c.court_on,
        c.paid_on,
        c.issued_by,
        c.issued_at,
        c.version,
        voided_at=c.voided_at,
        voided_by=c.voided_by,
        void_reason=c.void_reason,
        recorded_by=c.recorded_by,
    )


def build_view(s: Session, call: FieldCall) -> CallView:
    dispatches = tuple(
        dispatch_view(d)
        for d in s.scalars(
            select(CallDispatch)
            .where(CallDispatch.call_id == call.id)
            .order_by(CallDispatch.sent_at, CallDispatch.id)
        )
    )
    complaints = tuple(
        complaint_view(s, c)
        for c in s.scalars(
            select(CallComplaint).where(CallComplaint.call_id == call.id).order_by(CallComplaint.id)
        )
    )
    citations = tuple(
        citation_view(s, c)
        for c in s.scalars(
            select(CallCitation)
            .where(CallCitation.call_id == call.id)
            .order_by(CallCitation.offence_on, CallCitation.id)
        )
    )
    rechecks = tuple(s.scalars(select(FieldCall.id).where(FieldCall.recheck_of_id == call.id)))
    parties = party_views(s, call.id)
    involved = (call.owner_id, call.caller_id, *(p.person_id for p in parties))
    people = tuple(dict.fromkeys(p for p in involved if p is not None))
    return CallView(
        id=call.id,
        received_at=call.received_at,
        received_how=call.received_how,
        anonymous=call.anonymous,
        caller_id=call.caller_id,
        caller_name=call.caller_name or person_name(s, call.caller_id),
        caller_phone=call.caller_phone,
        address=call.address,
        place=call.place,
        kind=call.kind,
        kind_label=rules.kind_label(call.kind),
        section=call.section,
        priority=call.priority,
        priority_label=rules.PRIORITIES[call.priority],
        description=call.description,
        owner_id=call.owner_id,
        owner=person_name(s, call.owner_id) or call.owner_description,
        owner_address=person_address(s, call.owner_id),
        animal_id=call.animal_id,
        animal=animal_words(s, call.animal_id) or call.animal_description,
        recheck_of_id=call.recheck_of_id,
        rechecks=rechecks,
        status=call.status,
        officer=call.officer,
        outcome=call.outcome,
        follow_up_on=call.follow_up_on,
        dispatches=dispatches,
        complaints=complaints,
        citations=citations,
        flags=active_flags(s, people, call.address),
        recorded_by=call.recorded_by,
        version=call.version,
        parties=parties,
    )


_CALLER, _OWNER = aliased(Person), aliased(Person)
# The call with its caller, owner and animal, in one statement built once: the view read
# each with a statement of its own (issue 14).
_WITH_WHO = (
    select(FieldCall, _CALLER, _OWNER, Animal)
    .outerjoin(_CALLER, _CALLER.id == FieldCall.caller_id)
    .outerjoin(_OWNER, _OWNER.id == FieldCall.owner_id)
    .outerjoin(Animal, Animal.id == FieldCall.animal_id)
    .where(FieldCall.id == bindparam("call_id"))
)


def get_call(db: Database, call_id: int) -> CallView:
    require_row_id(FieldCall, call_id)
    with db.read() as s:
        row = s.execute(_WITH_WHO, {"call_id": call_id}).first()
        if row is None:
            raise NotFoundError(f"There is no call #{call_id}.")
        # Held while the view is built, so that its gets find them in the session (whose
        # identity map is weak: a row nobody holds is read again).
        call, *_held = row
        return build_view(s, call)
