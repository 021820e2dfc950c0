"""Final dispositions of an impounded animal: release, transfer, destruction, death, escape.

Each checks the rules' requirements and refuses with the full list of what is
missing: the pound's own (``fieldops.rules.release``) and every installed
module's blocks (``fieldops.modules``: an open bite quarantine, a vicious
declaration, whatever a later module adds), without knowing the modules. A
supervisor may override only the requirements marked overridable, with a
written reason that is kept with the release and in the audit trail. A disposition is final; a
correction is a new disposition that names the one it corrects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    Disposition,
    Impoundment,
    Person,
    ReleaseEvidence,
)
from fieldops.errors import Collector, PermissionDeniedError, UserError, ValidationError
from fieldops.permissions import Permission, has_permission, requires
from fieldops.rules import (
    Profile,
    ReleaseFacts,
    Requirement,
    format_day,
    preserve_until,
    to_local,
)
from fieldops.rules.release import (
    euthanasia_needs_finding,
    must_release_to_owner,
    release_kind,
    statutory_release_requirements,
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
from fieldops.services.disposition_checks import (
    ADOPTION_OWNER_REASON,
    Destruction,
    after_hold_block,
    check_destruction,
    hold_of,
)
from fieldops.services.impound_rows import current_disposition, load_impoundment
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import build_view
from fieldops.services.intake_check import check_custody_end
from fieldops.services.payments import fee_summary
from fieldops.services.people import format_address, load_person


class RequirementsNotMet(UserError):
    """A disposition refused by the law; ``requirements`` lists what is missing."""

    def __init__(self, what: str, requirements: tuple[Requirement, ...]) -> None:
        self.requirements = requirements
        lines = "\n".join(f"- {r.label} ({r.section}): {r.detail}" for r in requirements)
        super().__init__(f"{what} refused. Missing:\n{lines}")


class AlreadyDisposedError(UserError):
    pass


@dataclass(frozen=True)
class ReleaseRequest:
    """What the operator records at the counter for a release."""

    to_owner: bool
    recipient_id: int | None
    at: datetime | None = None
    rabies_certificate: str = ""  # certificate shown (number, date); blank: use the registry
    rabies_prepaid_receipt: str = ""  # veterinarian's receipt for prepaid vaccination
    licence_receipt: str = ""  # licence bought for this release
    licence_agreement: bool = False  # non-owner agrees to license the dog
    overrides: Mapping[str, str] = field(default_factory=dict)  # code -> supervisor's reason
    notes: str = ""


@dataclass(frozen=True)
class CheckedRequirement:
    requirement: Requirement
    evidence: str
    override_reason: str = ""
    module: str = ""  # the key of the module whose block this is; "" for the pound's own

    @property
    def met(self) -> bool:
        return self.requirement.satisfied or bool(self.override_reason)


def _facts(
    s: Session,
    imp: Impoundment,
    animal: Animal,
    req: ReleaseRequest,
    at: datetime,
    profile: Profile,
) -> tuple[ReleaseFacts, dict[str, str]]:
    """The facts for the rules, and the evidence text to record for each requirement."""
    day = to_local(at, profile).date()
    recipient = s.get(Person, req.recipient_id) if req.recipient_id is not None else None
    evidence: dict[str, str] = {}
    has_name_address = bool(recipient and recipient.full_name.strip() and recipient.address.strip())
    if recipient:
        addr = format_address(
            recipient.address, recipient.city, recipient.state, recipient.postal_code
        )
        evidence["name_address"] = f"{recipient.full_name}, {addr or 'no address recorded'}"
    vacc = next(
        (
            x
            for x in sorted(animal.vaccinations, key=lambda x: x.expires_on, reverse=True)
            if x.vaccinated_on <= day <= x.expires_on
        ),
        None,
    )
    certificate = v.clean(req.rabies_certificate)
    if certificate:
        evidence["rabies"] = f"Rabies certificate shown: {certificate}"
    elif vacc is not None:
        evidence["rabies"] = (
            f"Rabies certificate {vacc.certificate_number or '(no number)'}, "
            f"vaccinated {format_day(vacc.vaccinated_on)}, "
            f"expires {format_day(vacc.expires_on)}"
        )
    prepaid = v.clean(req.rabies_prepaid_receipt)
    if prepaid and "rabies" not in evidence:
        evidence["rabies"] = f"Veterinarian's receipt for prepaid vaccination: {prepaid}"
    # The licence records (the licences module, through the seam), not the registry's one
    # licence field: a dog renewed early for next year is still licensed for this one.
    if modules.licences_kept():
        on_record = modules.licence_on_record(s, animal.id, day.year)
    else:  # no module keeps licences: the registry's field is the record
        on_record = (
            f"{animal.licence_number} ({animal.licence_year})"
            if animal.licence_number and animal.licence_year == day.year
            else None
        )
    licensed = on_record is not None
    licence_receipt = v.clean(req.licence_receipt)
    if on_record is not None:
        evidence["licence"] = f"Licensed: {on_record}"
    elif licence_receipt:
        evidence["licence"] = f"Licence receipt: {licence_receipt}"
    elif req.licence_agreement:
        evidence["licence"] = "Recipient signed an agreement to license the dog"
    fees = fee_summary(s, imp, at, req.to_owner, profile)
    fees_paid = fees.paid >= fees.total
    evidence["fees_paid"] = f"Paid ${fees.paid:,.2f} of ${fees.total:,.2f}"
    hold = hold_of(imp, profile)
    if hold.is_over(at):
        evidence["hold_ended"] = (
            "Owner surrendered the animal"
            if hold.no_claim_period
            else f"Hold ended {format_day(hold.last_claim_day)}"
        )
    facts = ReleaseFacts(
        species=animal.species,
        name_and_address=has_name_address,
        rabies_certificate=bool(certificate) or vacc is not None,
        rabies_prepaid_receipt=bool(prepaid),
        licensed=licensed,
        licence_receipt=bool(licence_receipt),
        licence_agreement=req.licence_agreement,
        fees_paid=fees_paid,
        recipient_in_city=recipient.in_city if recipient else True,
    )
    return facts, evidence


def _check(
    s: Session,
    imp: Impoundment,
    req: ReleaseRequest,
    at: datetime,
    profile: Profile,
    kind: str | None = None,
) -> tuple[CheckedRequirement, ...]:
    """The pound's requirements of this release, then every installed module's blocks."""
    animal = fetch(s, Animal, imp.animal_id)
    facts, evidence = _facts(s, imp, animal, req, at, profile)
    hold = hold_of(imp, profile)
    case = modules.ReleaseCase(
        kind=kind or release_kind(req.to_owner),
        to_owner=req.to_owner,
        recipient_in_city=facts.recipient_in_city,
        species=animal.species,
        at=at,
    )
    own = [("", r) for r in statutory_release_requirements(req.to_owner, facts, hold, at, profile)]
    out = []
    for key, r in own + modules.release_blocks(s, animal.id, case):
        reason = v.clean(req.overrides.get(r.code, "")) if r.overridable and not r.satisfied else ""
        out.append(CheckedRequirement(r, r.evidence or evidence.get(r.code, ""), reason, key))
    return tuple(out)


def release_check(
    db: Database, impoundment_id: int, req: ReleaseRequest, profile: Profile
) -> tuple[CheckedRequirement, ...]:
    """Every legal requirement of this release, with the evidence on record for each."""
    with db.read() as s:
        return _check(s, load_impoundment(s, impoundment_id), req, req.at or now(), profile)


def _ensure_open(s: Session, imp: Impoundment) -> None:
    if current_disposition(s, imp.id) is not None:
        raise AlreadyDisposedError(
            f"Impoundment #{imp.id} already has a final disposition. A mistake in it is fixed by "
            "a supervisor's correction, not a second disposition."
        )


def _when(at: datetime | None, imp: Impoundment, c: Collector, field_: str = "at") -> datetime:
    if not v.instant(c, field_, at, "The date and time"):
        c.raise_if_any()
    moment = at or now()
    c.check(moment >= imp.impounded_at, field_, "This cannot be before the impoundment.")
    c.check(moment <= now() + timedelta(minutes=5), field_, "This cannot be in the future.")
    return moment


# A receipt or certificate the operator types (the evidence column is Text).
_RECEIPT_LIMIT = 300


def _check_request_text(c: Collector, req: ReleaseRequest) -> None:
    for f, label in (
        ("rabies_certificate", "The rabies certificate"),
        ("rabies_prepaid_receipt", "The prepaid vaccination receipt"),
        ("licence_receipt", "The licence receipt"),
    ):
        v.optional_len(c, f, v.clean(getattr(req, f)), label, _RECEIPT_LIMIT)
    for code, why in req.overrides.items():
        v.optional_len(c, f"overrides.{code}", v.clean(why), "The reason for the override", 2000)
    v.optional_len(c, "notes", (req.notes or "").strip(), "Notes", 4000)


@requires(Permission.RELEASES)
def release(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    req: ReleaseRequest,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> ImpoundView:
    """Release to the owner (reclaimed) or to another person (adopted) (58-526(b)).

    A retry with the same ``client_key`` returns the release already recorded."""
    with db.write() as s:
        if (done := _already(s, client_key, actor, profile)) is not None:
            return done
        imp = load_impoundment(s, impoundment_id, lock=True)
        _ensure_open(s, imp)
        c = Collector()
        at = _when(req.at, imp, c)
        check_custody_end(c, s, imp, release_kind(req.to_owner), at, profile.timezone)
        c.check(req.recipient_id is not None, "recipient_id", "Choose who takes the animal.")
        v.exists(c, s, Person, req.recipient_id, "recipient_id", "The person taking the animal")
        _check_request_text(c, req)
        c.raise_if_any()
        assert req.recipient_id is not None  # checked above
        recipient = load_person(s, req.recipient_id)
        animal = fetch(s, Animal, imp.animal_id)
        owners = {imp.owner_id, animal.owner_id} - {None}
        if must_release_to_owner(req.to_owner, recipient.id in owners):
            raise ValidationError(
                {
                    "recipient_id": f"{recipient.full_name} is the animal's owner: record a "
                    "release to the owner (reclaim), with the owner's evidence and fees."
                }
            )
        checked = _check(s, imp, req, at, profile)
        overridden = [x for x in checked if x.override_reason]
        if overridden and not has_permission(s, actor, Permission.OVERRIDES):
            raise PermissionDeniedError(
                "Only a supervisor may override a block: "
                + ", ".join(x.requirement.label for x in overridden)
                + "."
            )
        missing = tuple(x.requirement for x in checked if not x.met)
        if missing:
            raise RequirementsNotMet("Release", missing)
        kind = release_kind(req.to_owner)
        disp = Disposition(
            impoundment_id=imp.id,
            kind=kind,
            at=at,
            recipient_id=recipient.id,
            to_owner=req.to_owner,
            notes=(req.notes or "").strip(),
            recorded_by=actor.username,
            recorded_at=now(),
        )
        disp.evidence = [
            ReleaseEvidence(
                code=x.requirement.code,
                label=x.requirement.label,
                evidence=x.evidence,
                overridden=bool(x.override_reason),
                override_reason=x.override_reason,
                override_by=actor.username if x.override_reason else "",
            )
            for x in checked
        ]
        s.add(disp)
        imp.disposed = True
        s.flush()
        audit(
            s,
            actor,
            kind,
            "impoundment",
            imp.id,
            after=jsonable(
                {
                    "disposition": disp.id,
                    "recipient_id": recipient.id,
                    "at": at,
                    "to_owner": req.to_owner,
                    "evidence": {x.requirement.code: x.evidence for x in checked},
                }
            ),
        )
        for x in overridden:
            audit(
                s,
                actor,
                "override",
                "impoundment",
                imp.id,
                after={"requirement": x.requirement.code},
                reason=x.override_reason,
            )
        if not req.to_owner:
            before = animal.owner_id
            animal.owner_id = recipient.id
            audit(
                s,
                actor,
                "update",
                "animal",
                animal.id,
                before={"owner_id": before},
                after={"owner_id": recipient.id},
                reason=ADOPTION_OWNER_REASON.format(imp.id),
            )
        remember_save(s, client_key, "disposition", disp.id, actor)
        return build_view(s, imp, profile, at)


def _already(s: Session, key: str | None, actor: Actor, profile: Profile) -> ImpoundView | None:
    """The impoundment as its disposition made with ``key`` left it; None for a new save."""
    done = existing_save(s, key, "disposition", actor)
    if done is None:
        return None
    disp = fetch(s, Disposition, done)
    return build_view(s, load_impoundment(s, disp.impoundment_id), profile, disp.at)


def _simple(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    kind: str,
    at: datetime | None,
    profile: Profile,
    *,
    notes: str = "",
    transfer_to: str = "",
    destruction: Destruction | None = None,
    required_notes: str = "",
    client_key: str | None = None,
) -> ImpoundView:
    with db.write() as s:
        if (done := _already(s, client_key, actor, profile)) is not None:
            return done
        imp = load_impoundment(s, impoundment_id, lock=True)
        _ensure_open(s, imp)
        c = Collector()
        moment = _when(at, imp, c)
        check_custody_end(c, s, imp, kind, moment, profile.timezone)
        hold = hold_of(imp, profile)
        if kind == "transferred":
            to = Disposition.__table__.c.transfer_to
            v.required(c, "transfer_to", v.clean(transfer_to), "Transferred to", to)
        v.optional_len(c, "notes", (notes or "").strip(), "Notes", 4000)
        if destruction is not None:
            check_destruction(c, destruction, notes, hold, moment, profile)
        if required_notes:
            c.check(bool(v.clean(notes)), "notes", required_notes)
        c.raise_if_any()
        if kind == "transferred":
            # A transfer needs the hold to have ended, and no module's block on it (each
            # module decides for kind "transferred"; the vicious rule looks at a recipient
            # in the city, and a shelter's is not known).
            hold_block = after_hold_block(imp, kind, moment, profile)
            blocks = ([hold_block] if hold_block is not None else []) + [
                r.requirement
                for r in _check(
                    s, imp, ReleaseRequest(False, None, moment), moment, profile, kind="transferred"
                )
                if r.module and not r.requirement.satisfied
            ]
            if blocks:
                raise RequirementsNotMet("Transfer", tuple(blocks))
        basis = destruction.basis if destruction is not None else ""
        decided_by = v.clean(destruction.decided_by) if destruction is not None else ""
        disp = Disposition(
            impoundment_id=imp.id,
            kind=kind,
            at=moment,
            transfer_to=v.clean(transfer_to),
            notes=(notes or "").strip(),
            hopeless_or_threat=euthanasia_needs_finding(basis),
            euthanasia_basis=basis,
            decided_by=decided_by,
            preserve_until=preserve_until(moment, profile)
            if kind == "euthanized" and imp.bit_person
            else None,
            recorded_by=actor.username,
            recorded_at=now(),
        )
        s.add(disp)
        imp.disposed = True
        s.flush()
        after = {
            "disposition": disp.id,
            "at": moment,
            "transfer_to": transfer_to,
            "hopeless_or_threat": disp.hopeless_or_threat,
            "preserve_until": disp.preserve_until,
        }
        if destruction is not None:
            after.update(euthanasia_basis=basis, decided_by=decided_by)
        audit(s, actor, kind, "impoundment", imp.id, after=jsonable(after), reason=v.clean(notes))
        remember_save(s, client_key, "disposition", disp.id, actor)
        return build_view(s, imp, profile, moment)


@requires(Permission.RELEASES)
def transfer(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    transfer_to: str,
    profile: Profile,
    *,
    at: datetime | None = None,
    notes: str = "",
    client_key: str | None = None,
) -> ImpoundView:
    """Transfer to a shelter or rescue: a release to someone other than the owner."""
    return _simple(
        db,
        actor,
        impoundment_id,
        "transferred",
        at,
        profile,
        notes=notes,
        transfer_to=transfer_to,
        client_key=client_key,
    )


@requires(Permission.RELEASES)
def destroy(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    profile: Profile,
    *,
    at: datetime | None = None,
    basis: str = "",
    decided_by: str = "",
    notes: str = "",
    client_key: str | None = None,
) -> ImpoundView:
    """Humane destruction (58-526(c); Wis. Stat. 173.23(4)); a biting animal is preserved (58-522).

    ``basis`` says why (a code of ``EUTHANASIA_BASES``): "hold_ended" only after
    the hold; "hopelessly_injured" or "imminent_threat" at any time, with the
    finding recorded in ``notes``. ``decided_by`` names who decided. A basis the
    rules do not allow is refused as a ``ValidationError`` on "basis".
    """
    return _simple(
        db,
        actor,
        impoundment_id,
        "euthanized",
        at,
        profile,
        notes=notes,
        destruction=Destruction(basis, decided_by),
        client_key=client_key,
    )


@requires(Permission.RELEASES)
def record_death(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    profile: Profile,
    *,
    at: datetime | None = None,
    notes: str = "",
    client_key: str | None = None,
) -> ImpoundView:
    return _simple(
        db,
        actor,
        impoundment_id,
        "died",
        at,
        profile,
        notes=notes,
        required_notes="Record the circumstances of the death.",
        client_key=client_key,
    )


@requires(Permission.RELEASES)
def record_escape(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    profile: Profile,
    *,
    at: datetime | None = None,
    notes: str = "",
    client_key: str | None = None,
) -> ImpoundView:
    return _simple(
        db,
        actor,
        impoundment_id,
        "escaped",
        at,
        profile,
        notes=notes,
        required_notes="Record how the animal escaped.",
        client_key=client_key,
    )
