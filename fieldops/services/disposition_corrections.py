"""A supervisor's correction of a disposition (city code 58-528's record stays true):
a new disposition that supersedes the one in force, never an edit in place."""

from __future__ import annotations

from datetime import datetime, timedelta

from fieldops.db.engine import Database
from fieldops.db.models import DISPOSITION_CODES, Disposition, ReleaseEvidence
from fieldops.errors import Collector, StaleRecordError, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, preserve_until
from fieldops.rules.release import RELEASE_KINDS
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
    corrects_id: int | None = None,
    client_key: str | None = None,
) -> ImpoundView:
    """A supervisor's correction: a new disposition that supersedes the current one.

    The corrected record stays in the database and on the record sheet. A
    release (reclaimed, adopted) carries the evidence its requirements were
    checked against, so a correction can fix a release's time or notes but
    cannot turn another disposition into a release, or one kind of release
    into the other: that would record a release nobody checked.

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
            hopeless_or_threat=old.hopeless_or_threat,
            euthanasia_basis=old.euthanasia_basis if kind == "euthanized" else "",
            decided_by=old.decided_by if kind == "euthanized" else "",
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
        audit(
            s,
            actor,
            "correct_disposition",
            "impoundment",
            imp.id,
            before={"disposition": old.id, "kind": old.kind, "at": jsonable(old.at)},
            after={"disposition": new.id, "kind": kind, "at": jsonable(at)},
            reason=v.clean(reason),
        )
        remember_save(s, client_key, "disposition", new.id, actor)
        return build_view(s, imp, profile, now())
