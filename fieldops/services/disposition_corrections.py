"""A supervisor's correction of a disposition (city code 58-528's record stays true):
a new disposition that supersedes the one in force, never an edit in place.

A correction is held to the rules that recording its disposition obeys
(``disposition_checks``): an adoption or a transfer only after the hold, a humane
destruction on a lawful basis given in the correction, with who decided. A
correction that takes an adoption away gives the animal back, in the registry, to
the owner it had before the adoption.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    DISPOSITION_CODES,
    AuditEvent,
    Disposition,
    Impoundment,
    Person,
    ReleaseEvidence,
)
from fieldops.errors import Collector, StaleRecordError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, preserve_until
from fieldops.rules.release import RELEASE_KINDS, euthanasia_needs_finding
from fieldops.services import validate as v
from fieldops.services.animals import load_animal
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


@requires(Permission.CORRECTIONS)
def correct_disposition(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    *,
    kind: str,
    at: datetime,
    reason: str,
    profile: Profile,
    notes: str = "",
    transfer_to: str = "",
    basis: str = "",
    decided_by: str = "",
    corrects_id: int | None = None,
    client_key: str | None = None,
) -> ImpoundView:
    """A supervisor's correction: a new disposition that supersedes the current one.

    The corrected record stays in the database and on the record sheet. A
    release (reclaimed, adopted) carries the evidence its requirements were
    checked against, so a correction can fix a release's time or notes but
    cannot turn another disposition into a release, or one kind of release
    into the other: that would record a release nobody checked.

    The corrected disposition meets the rules of recording it, at its corrected
    time: an adoption or a transfer not inside the hold (refused on "at"); a
    destruction with its ``basis`` and ``decided_by`` given here, as ``destroy``
    takes them (refused on "basis", "decided_by", and "notes" for a finding),
    never taken from the disposition corrected. An adoption corrected to
    anything else gives the animal back, in the registry, to its owner before
    the adoption, unless someone changed the owner since: then the owner is
    left, and the view's ``notice`` says so.

    ``corrects_id`` is the disposition the form was filled from: if another
    workstation corrected it meanwhile, nothing is saved (``StaleRecordError``).
    A retry with the same ``client_key`` returns the correction already made.
    """
    with db.write() as s:
        if (done := existing_save(s, client_key, "disposition", actor)) is not None:
            made = fetch(s, Disposition, done)
            return build_view(s, load_impoundment(s, made.impoundment_id), profile, now())
        imp = load_impoundment(s, impoundment_id, lock=True)
        old = current_disposition(s, imp.id)
        if old is None:
            raise ValidationError({"kind": "There is no disposition to correct."})
        if corrects_id is not None and old.id != corrects_id:
            raise StaleRecordError(
                f"The disposition of impoundment #{imp.id} was corrected by someone else "
                "while you were correcting it. Reopen it to see the change; your "
                "correction was not saved."
            )
        c = Collector()
        c.check(kind in DISPOSITION_CODES, "kind", "Choose the corrected disposition.")
        c.check(bool(v.clean(reason)), "reason", "Say why the disposition is corrected.")
        v.optional_len(c, "reason", v.clean(reason), "The reason", 2000)
        v.optional_len(c, "notes", (notes or "").strip(), "Notes", 4000)
        c.check(at is not None, "at", "Give the corrected date and time.")
        if at is not None and v.instant(c, "at", at, "The date and time"):
            c.check(at >= imp.impounded_at, "at", "This cannot be before the impoundment.")
            c.check(at <= now() + timedelta(minutes=5), "at", "This cannot be in the future.")
            if kind in DISPOSITION_CODES:
                check_custody_end(c, s, imp, kind, at, profile.timezone)
        c.raise_if_any()
        releases = RELEASE_KINDS
        hold_block = after_hold_block(imp, kind, at, profile)
        if hold_block is not None:
            c.add("at", hold_block.detail)
        if kind == "euthanized":
            same = old.kind == kind and old.euthanasia_basis == basis
            finding = (notes or "").strip() or (old.notes if same else "")
            check_destruction(
                c, Destruction(basis, decided_by), finding, hold_of(imp, profile), at, profile
            )
        if kind in releases and old.kind != kind:
            c.add(
                "kind",
                "A release is recorded with its evidence through Release…; a "
                "correction cannot turn this disposition into one.",
            )
        if kind == "transferred":
            v.required(
                c,
                "transfer_to",
                v.clean(transfer_to) or old.transfer_to,
                "Transferred to",
                Disposition.__table__.c.transfer_to,
            )
        c.raise_if_any()
        is_release = kind in releases
        new = Disposition(
            impoundment_id=imp.id,
            kind=kind,
            at=at,
            recipient_id=old.recipient_id if is_release else None,
            to_owner=old.to_owner if is_release else False,
            transfer_to=(v.clean(transfer_to) or old.transfer_to) if kind == "transferred" else "",
            notes=(notes or "").strip() or old.notes,  # blank (spaces too) keeps the notes
            hopeless_or_threat=kind == "euthanized" and euthanasia_needs_finding(basis),
            euthanasia_basis=basis if kind == "euthanized" else "",
            decided_by=v.clean(decided_by) if kind == "euthanized" else "",
            preserve_until=preserve_until(at, profile)
            if kind == "euthanized" and imp.bit_person
            else None,
            recorded_by=actor.username,
            recorded_at=now(),
            corrects_id=old.id,
            correction_reason=v.clean(reason),
        )
        new.evidence = [
            ReleaseEvidence(
                code=e.code,
                label=e.label,
                evidence=e.evidence,
                overridden=e.overridden,
                override_reason=e.override_reason,
                override_by=e.override_by,
            )
            for e in (old.evidence if is_release else ())
        ]
        s.add(new)
        s.flush()
        after: dict[str, object] = {"disposition": new.id, "kind": kind, "at": jsonable(at)}
        if kind == "euthanized":
            after.update(
                euthanasia_basis=new.euthanasia_basis,
                decided_by=new.decided_by,
                hopeless_or_threat=new.hopeless_or_threat,
            )
        notice = ""
        if old.kind == "adopted" and (kind != old.kind or new.recipient_id != old.recipient_id):
            notice = _undo_adoption_owner(s, actor, imp, old, new, v.clean(reason))
            if notice:
                after["registry_owner_left"] = notice
        audit(
            s,
            actor,
            "correct_disposition",
            "impoundment",
            imp.id,
            before={"disposition": old.id, "kind": old.kind, "at": jsonable(old.at)},
            after=after,
            reason=v.clean(reason),
        )
        remember_save(s, client_key, "disposition", new.id, actor)
        return replace(build_view(s, imp, profile, now()), notice=notice)


def _undo_adoption_owner(
    s: Session, actor: Actor, imp: Impoundment, old: Disposition, new: Disposition, reason: str
) -> str:
    """Give the animal back, in the registry, to the owner it had before the adoption ``old``
    made its recipient the owner (that change's own audit event says who). If the registry
    owner is no longer the adopter, someone changed it since: it is left as it is, and the
    words returned say so (the caller audits them with the correction)."""
    animal = load_animal(s, imp.animal_id, lock=True)
    event = s.scalars(
        select(AuditEvent)
        .where(
            AuditEvent.entity == "animal",
            AuditEvent.entity_id == animal.id,
            AuditEvent.action == "update",
            AuditEvent.reason == ADOPTION_OWNER_REASON.format(imp.id),
        )
        .order_by(AuditEvent.seq.desc())
        .limit(1)
    ).first()
    before = (event.before or {}) if event is not None else {}
    if event is None or "owner_id" not in before or animal.owner_id != old.recipient_id:
        now_owner = s.get(Person, animal.owner_id) if animal.owner_id is not None else None
        why = (
            "the registry owner was changed since the adoption"
            if event is not None
            else "the adoption's change of owner is not on record"
        )
        return (
            f"The registry owner of {animal.name or f'animal #{animal.id}'} was left as it is "
            f"({now_owner.full_name if now_owner else 'no owner'}): {why}. Check it in the "
            "registry."
        )
    owner_before = before["owner_id"]
    animal.owner_id = owner_before
    audit(
        s,
        actor,
        "update",
        "animal",
        animal.id,
        before={"owner_id": old.recipient_id},
        after={"owner_id": owner_before},
        reason=f"adoption from impoundment #{imp.id} corrected (disposition #{new.id}): {reason}",
    )
    return ""
