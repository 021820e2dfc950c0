"""A supervisor's correction of a disposition: held to the rules of recording it, never an edit."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import select
from support import local

from fieldops.db.models import AuditEvent
from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.services.animals import AnimalInput, get_animal, update_animal
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import (
    AlreadyDisposedError,
    ReleaseRequest,
    destroy,
    record_death,
    record_escape,
    release,
    transfer,
)
from fieldops.services.impounds import get_impoundment
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person

# Rex is impounded on Thu 1 Oct 2026: the owner may claim until Thu 8 Oct, and the
# animal may go to anyone else (or be destroyed) from 00:00 Fri 9 Oct (58-526(b)(2)a, (c)).
IMPOUNDED = local(2026, 10, 1, 10)
AFTER_HOLD = local(2026, 10, 20, 10)
DURING_HOLD = local(2026, 10, 3, 10)


def events(db, entity, entity_id, action):
    """(before, after) of each audit event of ``action`` on the record, oldest first."""
    with db.read() as s:
        rows = s.scalars(
            select(AuditEvent)
            .where(
                AuditEvent.entity == entity,
                AuditEvent.entity_id == entity_id,
                AuditEvent.action == action,
            )
            .order_by(AuditEvent.seq)
        ).all()
        return [(e.before, e.after) for e in rows]


def pay_quote(db, actor, imp_id, profile, at, to_owner=True):
    fees = quote(db, imp_id, at, to_owner, profile)
    return record_payment(
        db,
        actor,
        imp_id,
        PaymentInput((LineInput("impound", Decimal(fees.total)),), "cash", "R-1"),
        profile,
    )


def adopt(db, operator, imp_id, adopter, profile, at=AFTER_HOLD):
    pay_quote(db, operator, imp_id, profile, at, to_owner=False)
    req = ReleaseRequest(
        False, adopter.id, at=at, rabies_prepaid_receipt="VR-9", licence_agreement=True
    )
    return release(db, operator, imp_id, req, profile)


def dispose_after_hold(kind, db, operator, imp_id, adopter, profile):
    if kind == "adopted":
        return adopt(db, operator, imp_id, adopter, profile)
    if kind == "transferred":
        return transfer(db, operator, imp_id, "Dane County Humane Society", profile, at=AFTER_HOLD)
    return destroy(
        db, operator, imp_id, profile, at=AFTER_HOLD, basis="hold_ended", decided_by="Off. Lee"
    )


def test_a_disposition_is_final_and_corrected_only_by_a_supervisor(
    db, operator, supervisor, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2))
    record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3), notes="gate left open")
    with pytest.raises(AlreadyDisposedError):
        record_death(db, operator, imp.id, profile, at=local(2026, 11, 4), notes="x")
    with pytest.raises(PermissionDeniedError):
        correct_disposition(
            db,
            operator,
            imp.id,
            kind="died",
            at=local(2026, 11, 3),
            reason="wrong",
            profile=profile,
        )
    view = correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="died",
        at=local(2026, 11, 3, 12),
        reason="Entered as escape by mistake; found dead in run 4",
        profile=profile,
    )
    assert view.disposition.kind == "died" and view.disposition.corrects_id is not None
    assert [c.kind for c in view.corrections] == ["escaped"]  # the original is kept


def test_a_correction_cannot_record_an_unchecked_release(
    db, operator, supervisor, owner, rex, impound, profile, vaccinate
):
    imp = impound(rex.id, local(2026, 11, 2))
    record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3), notes="gate")
    with pytest.raises(ValidationError) as exc:
        correct_disposition(
            db,
            supervisor,
            imp.id,
            kind="reclaimed",
            at=local(2026, 11, 3),
            reason="owner came",
            profile=profile,
        )
    assert exc.value.field == "kind"
    # a release corrected to a death keeps neither recipient nor release evidence
    imp2 = impound(rex.id, local(2026, 11, 10))
    vaccinate(rex.id)
    at = local(2026, 11, 11)
    pay_quote(db, operator, imp2.id, profile, at)
    release(
        db, operator, imp2.id, ReleaseRequest(True, owner.id, at=at, licence_receipt="L"), profile
    )
    view = correct_disposition(
        db,
        supervisor,
        imp2.id,
        kind="died",
        at=local(2026, 11, 11, 9),
        reason="died before the owner came; release entered in error",
        profile=profile,
    )
    assert view.disposition.kind == "died"
    assert view.disposition.recipient is None and view.disposition.evidence == ()
    assert view.corrections[0].kind == "reclaimed"  # kept, superseded


@pytest.mark.parametrize("kind", ["adopted", "transferred", "euthanized"])
def test_a_correction_cannot_move_a_release_to_others_or_a_destruction_into_the_hold(
    db, operator, supervisor, adopter, rex, impound, profile, kind
):
    """RULES.md section 2 (Hold, Humane destruction): an adoption, a transfer, or a
    destruction on the basis "hold_ended" only once the hold is over, corrected or not."""
    imp = impound(rex.id, IMPOUNDED)
    dispose_after_hold(kind, db, operator, imp.id, adopter, profile)
    extra = {"basis": "hold_ended", "decided_by": "Off. Lee"} if kind == "euthanized" else {}
    with pytest.raises(ValidationError) as exc:
        correct_disposition(
            db,
            supervisor,
            imp.id,
            kind=kind,
            at=DURING_HOLD,
            reason="Clock misread",
            profile=profile,
            **extra,
        )
    assert set(exc.value.by_field()) == ({"basis"} if kind == "euthanized" else {"at"})
    assert get_impoundment(db, imp.id, profile).disposition.at == AFTER_HOLD
    # after the hold, the same correction stands
    later = correct_disposition(
        db,
        supervisor,
        imp.id,
        kind=kind,
        at=AFTER_HOLD.replace(hour=11),
        reason="Clock misread",
        profile=profile,
        **extra,
    )
    assert later.disposition.at == AFTER_HOLD.replace(hour=11)


def test_a_correction_to_euthanized_needs_a_lawful_basis_given_in_it(
    db, operator, supervisor, rex, impound, profile
):
    """Wis. Stat. 173.23(4): inside the hold, a destruction rests on a veterinarian's or
    officer's finding, recorded with who decided: a correction says so itself."""
    imp = impound(rex.id, IMPOUNDED)
    record_escape(db, operator, imp.id, profile, at=DURING_HOLD, notes="gate")
    fix = {"kind": "euthanized", "at": DURING_HOLD, "reason": "Put down, not lost"}
    with pytest.raises(ValidationError) as exc:
        correct_disposition(db, supervisor, imp.id, profile=profile, **fix)
    assert {"basis", "decided_by"} <= set(exc.value.by_field())
    with pytest.raises(ValidationError) as exc:  # the escape's notes are no finding
        correct_disposition(
            db,
            supervisor,
            imp.id,
            profile=profile,
            basis="hopelessly_injured",
            decided_by="Dr Vet, veterinarian",
            **fix,
        )
    assert set(exc.value.by_field()) == {"notes"}
    assert get_impoundment(db, imp.id, profile).disposition.kind == "escaped"
    view = correct_disposition(
        db,
        supervisor,
        imp.id,
        profile=profile,
        basis="hopelessly_injured",
        decided_by="Dr Vet, veterinarian",
        notes="Hit by a car at the gate; spine broken",
        **fix,
    )
    d = view.disposition
    assert (d.kind, d.euthanasia_basis, d.decided_by, d.hopeless_or_threat) == (
        "euthanized",
        "hopelessly_injured",
        "Dr Vet, veterinarian",
        True,
    )


def test_correcting_an_adoption_away_gives_the_animal_back_to_its_owner(
    db, operator, supervisor, owner, adopter, rex, impound, profile
):
    """An adoption makes the adopter the registry owner; corrected to an escape (entered in
    error), the animal goes back to its owner before the adoption, audited on the animal."""
    imp = impound(rex.id, IMPOUNDED)
    adopt(db, operator, imp.id, adopter, profile)
    assert get_animal(db, rex.id).owner_id == adopter.id
    view = correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="escaped",
        at=AFTER_HOLD,
        reason="Adoption entered on the wrong record; the dog ran off",
        profile=profile,
    )
    assert get_animal(db, rex.id).owner_id == owner.id
    assert view.notice == ""
    changes = [(b, a) for b, a in events(db, "animal", rex.id, "update") if "owner_id" in a]
    assert changes[-1] == ({"owner_id": adopter.id}, {"owner_id": owner.id})


def test_a_correction_leaves_an_owner_changed_since_the_adoption(
    db, operator, supervisor, adopter, rex, impound, profile, today
):
    """The registry owner changed again after the adoption (by someone else): the
    correction does not overwrite it, and says so in its result and its audit."""
    imp = impound(rex.id, IMPOUNDED)
    adopt(db, operator, imp.id, adopter, profile)
    third = create_person(db, operator, PersonInput(full_name="Cy Dale", address="7 Ash Rd"))
    update_animal(
        db,
        operator,
        rex.id,
        AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=third.id),
        expected_version=get_animal(db, rex.id).version,
        today=today,
    )
    view = correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="escaped",
        at=AFTER_HOLD,
        reason="Adoption entered in error",
        profile=profile,
    )
    assert get_animal(db, rex.id).owner_id == third.id
    assert view.notice
    ((_before, after),) = events(db, "impoundment", imp.id, "correct_disposition")
    assert after["registry_owner_left"] == view.notice


def test_a_correction_of_an_adoptions_time_keeps_the_adopter(
    db, operator, supervisor, adopter, rex, impound, profile
):
    imp = impound(rex.id, IMPOUNDED)
    adopt(db, operator, imp.id, adopter, profile)
    correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="adopted",
        at=AFTER_HOLD.replace(hour=9),
        reason="Time typed wrong",
        profile=profile,
    )
    assert get_animal(db, rex.id).owner_id == adopter.id
