"""Release, adoption, destruction and the other dispositions: every requirement refuses."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from support import local

from fieldops import modules
from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.rules.release import open_quarantine_block, vicious_block
from fieldops.services.animals import AnimalInput, create_animal, get_animal
from fieldops.services.audit import history
from fieldops.services.dispositions import (
    AlreadyDisposedError,
    ReleaseRequest,
    RequirementsNotMet,
    destroy,
    record_escape,
    release,
    release_check,
    transfer,
)
from fieldops.services.impounds import get_impoundment
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person


def pay(db, actor, imp_id, profile, *lines, receipt="R-100"):
    return record_payment(
        db,
        actor,
        imp_id,
        PaymentInput(tuple(LineInput(k, Decimal(a)) for k, a in lines), "cash", receipt),
        profile,
    )


def pay_quote(db, actor, imp_id, profile, at, to_owner=True):
    fees = quote(db, imp_id, at, to_owner, profile)
    return pay(db, actor, imp_id, profile, ("impound", fees.total))


def codes(exc) -> set[str]:
    return {r.code for r in exc.value.requirements}


def test_release_to_owner_refused_with_every_missing_requirement_named(
    db, operator, rex, impound, profile
):
    nobody = create_person(db, operator, PersonInput(full_name="No Address"))
    imp = impound(rex.id, local(2026, 11, 2))
    with pytest.raises(RequirementsNotMet) as exc:
        release(
            db, operator, imp.id, ReleaseRequest(True, nobody.id, at=local(2026, 11, 3)), profile
        )
    assert codes(exc) == {"name_address", "rabies", "licence", "fees_paid"}
    assert "rabies" in str(exc.value).lower() and "58-526(b)(1)" in str(exc.value)
    assert get_impoundment(db, imp.id, profile).in_custody


@pytest.mark.parametrize("missing", ["rabies", "licence", "fees_paid", "name_address"])
def test_each_owner_requirement_alone_refuses(db, operator, owner, rex, impound, profile, missing):
    imp = impound(rex.id, local(2026, 11, 2))
    at = local(2026, 11, 4)
    recipient = owner.id
    if missing == "name_address":
        recipient = create_person(db, operator, PersonInput(full_name="Walk In")).id
    if missing != "fees_paid":
        pay_quote(db, operator, imp.id, profile, at)
    req = ReleaseRequest(
        True,
        recipient,
        at=at,
        rabies_certificate="" if missing == "rabies" else "RV-1 exp 2027",
        licence_receipt="" if missing == "licence" else "L-2026-9",
    )
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, profile)
    assert codes(exc) == {missing}


def test_completed_release_to_owner_with_doubled_fee(
    db, operator, owner, rex, impound, escaped, profile, vaccinate
):
    escaped(impound(rex.id, local(2026, 9, 20)).id, local(2026, 9, 21))
    imp = impound(rex.id, local(2026, 11, 2))
    vaccinate(rex.id)
    at = local(2026, 11, 5, 16)
    fees = quote(db, imp.id, at, True, profile)
    dog = profile.fees["dog"]
    assert fees.total == dog.impound * 2 + dog.boarding_per_day * 3
    # a licence bought at the counter does not pay the pound's fees
    pay(db, operator, imp.id, profile, ("licence", "20.00"), ("impound", dog.impound * 2))
    req = ReleaseRequest(True, owner.id, at=at, licence_receipt="City licence L-2026-77")
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, profile)
    assert codes(exc) == {"fees_paid"}
    pay(db, operator, imp.id, profile, ("boarding", dog.boarding_per_day * 3), receipt="R-101")
    view = release(db, operator, imp.id, req, profile)
    d = view.disposition
    assert d.kind == "reclaimed" and d.to_owner and d.recipient.full_name == "Ana Ruiz"
    evidence = {e.code: e.evidence for e in d.evidence}
    assert "RV-77" in evidence["rabies"] and "L-2026-77" in evidence["licence"]
    # Issue 7.5: until those modules land, the evidence says the app cannot know, not "none".
    # Issues 9 and 10: both modules keep their records, so the evidence says what was searched.
    assert evidence["no_open_quarantine"] == "No open bite quarantine on record for this animal."
    assert evidence["not_vicious"] == "No vicious-animal declaration in force for this animal."
    assert view.fees_paid_total == Decimal("20.00") + fees.total
    assert view.fees.balance == 0
    assert history(db, "impoundment", imp.id)[0].action == "reclaimed"


def test_adoption_refused_during_the_hold_and_allowed_after(
    db, operator, adopter, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2))  # owner may claim until Mon 9 Nov
    req = {"rabies_prepaid_receipt": "Vet receipt 555", "licence_agreement": True}
    pay_quote(db, operator, imp.id, profile, local(2026, 11, 10, 9), to_owner=False)
    with pytest.raises(RequirementsNotMet) as exc:
        release(
            db,
            operator,
            imp.id,
            ReleaseRequest(False, adopter.id, at=local(2026, 11, 9, 23, 59), **req),
            profile,
        )
    assert codes(exc) == {"hold_ended"}
    assert "Mon 9 Nov 2026" in str(exc.value)
    view = release(
        db,
        operator,
        imp.id,
        ReleaseRequest(False, adopter.id, at=local(2026, 11, 10, 9), **req),
        profile,
    )
    assert view.disposition.kind == "adopted"
    assert get_animal(db, rex.id).owner_id == adopter.id


def test_adopter_of_a_dog_must_agree_to_license_unless_licensed(
    db, operator, adopter, rex, impound, profile
):
    imp = impound(rex.id, local(2026, 11, 2))
    at = local(2026, 11, 12)
    pay_quote(db, operator, imp.id, profile, at, to_owner=False)
    checked = release_check(
        db, imp.id, ReleaseRequest(False, adopter.id, at=at, rabies_prepaid_receipt="V-1"), profile
    )
    assert [c.requirement.code for c in checked if not c.met] == ["licence"]


def test_open_quarantine_blocks_until_a_supervisor_overrides_with_a_reason(
    db, operator, supervisor, owner, rex, impound, profile, vaccinate, install
):
    # The quarantine module, once built, takes the placeholder's place and finds one open.
    quarantine = modules.Module(
        "quarantine",
        "Bite quarantines",
        release_blocks=lambda s, a, r: (open_quarantine_block(True, "In an open bite quarantine"),),
    )
    install(quarantine)
    imp = impound(rex.id, local(2026, 11, 2))
    vaccinate(rex.id)
    at = local(2026, 11, 4)
    pay_quote(db, operator, imp.id, profile, at)
    req = ReleaseRequest(True, owner.id, at=at, licence_receipt="L-1")
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, supervisor, imp.id, req, profile)
    assert codes(exc) == {"no_open_quarantine"}
    with_reason = ReleaseRequest(
        True,
        owner.id,
        at=at,
        licence_receipt="L-1",
        overrides={"no_open_quarantine": "Vet certified early, Dr Vet"},
    )
    with pytest.raises(PermissionDeniedError):
        release(db, operator, imp.id, with_reason, profile)
    view = release(db, supervisor, imp.id, with_reason, profile)
    ev = {e.code: e for e in view.disposition.evidence}["no_open_quarantine"]
    assert ev.overridden and ev.override_by == "sam" and "Dr Vet" in ev.override_reason
    overrides = [h for h in history(db, "impoundment", imp.id) if h.action == "override"]
    assert overrides and overrides[0].reason == "Vet certified early, Dr Vet"


def test_once_the_modules_track_them_the_checklist_says_none_on_record(
    db, owner, rex, impound, profile, install
):
    tracked = (
        modules.Module(
            "quarantine",
            "Bite quarantines",
            release_blocks=lambda s, a, r: (
                open_quarantine_block(False, "No open bite quarantine on record"),
            ),
        ),
        modules.Module(
            "vicious",
            "Vicious animals",
            release_blocks=lambda s, a, r: (
                vicious_block(False, r.recipient_in_city, "Not declared vicious"),
            ),
        ),
    )
    install(*tracked)
    imp = impound(rex.id, local(2026, 11, 2))
    checked = {
        c.requirement.code: c
        for c in release_check(
            db, imp.id, ReleaseRequest(True, owner.id, at=local(2026, 11, 4)), profile
        )
    }
    assert checked["no_open_quarantine"].evidence == "No open bite quarantine on record"
    assert checked["not_vicious"].evidence == "Not declared vicious"
    assert checked["no_open_quarantine"].met and checked["not_vicious"].met


def test_statutory_requirements_cannot_be_overridden(db, supervisor, owner, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2))
    req = ReleaseRequest(
        True,
        owner.id,
        at=local(2026, 11, 4),
        overrides={"fees_paid": "waived", "rabies": "trust me"},
    )
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, supervisor, imp.id, req, profile)
    assert {"fees_paid", "rabies"} <= codes(exc)


def test_humane_destruction_refused_before_the_hold_ends(db, operator, rex, impound, profile):
    # Issue 7: the basis and who decided are recorded, and a basis the rules do not allow
    # ("hold ended" before it has) is refused on the field that chose it.
    imp = impound(rex.id, local(2026, 11, 2))
    with pytest.raises(ValidationError) as exc:
        destroy(
            db,
            operator,
            imp.id,
            profile,
            at=local(2026, 11, 9, 18),
            basis="hold_ended",
            decided_by="Sgt. Ortiz",
        )
    assert exc.value.field == "basis"
    assert "The hold has not ended" in exc.value.errors[0].message
    with pytest.raises(ValidationError) as exc2:
        destroy(
            db,
            operator,
            imp.id,
            profile,
            at=local(2026, 11, 3),
            basis="hopelessly_injured",
            decided_by="Dr. Vet (veterinarian)",
        )
    assert exc2.value.field == "notes"
    view = destroy(
        db,
        operator,
        imp.id,
        profile,
        at=local(2026, 11, 3),
        basis="hopelessly_injured",
        decided_by="Dr. Vet (veterinarian)",
        notes="Hit by car, hopelessly injured",
    )
    d = view.disposition
    assert d.kind == "euthanized" and d.preserve_until is None
    assert (d.euthanasia_basis, d.decided_by, d.hopeless_or_threat) == (
        "hopelessly_injured",
        "Dr. Vet (veterinarian)",
        True,
    )
    latest = history(db, "impoundment", imp.id)[0]
    assert latest.action == "euthanized"
    assert "euthanasia_basis=hopelessly_injured" in latest.summary
    assert "decided_by=Dr. Vet (veterinarian)" in latest.summary


def test_humane_destruction_needs_a_basis_and_who_decided(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 10, 1))
    with pytest.raises(ValidationError) as exc:
        destroy(db, operator, imp.id, profile, at=local(2026, 10, 20))
    assert {e.field for e in exc.value.errors} == {"basis", "decided_by"}
    with pytest.raises(ValidationError) as exc:
        destroy(
            db,
            operator,
            imp.id,
            profile,
            at=local(2026, 10, 20),
            basis="because",
            decided_by="Sgt. Ortiz",
        )
    assert exc.value.field == "basis"
    assert get_impoundment(db, imp.id, profile, local(2026, 10, 20)).in_custody
    view = destroy(
        db,
        operator,
        imp.id,
        profile,
        at=local(2026, 10, 20),
        basis="hold_ended",
        decided_by="Sgt. Ortiz (officer)",
    )
    assert (view.disposition.euthanasia_basis, view.disposition.hopeless_or_threat) == (
        "hold_ended",
        False,
    )


def test_a_euthanized_biting_animal_is_preserved_seven_days(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 10, 1), reason="bite", bit_person=True)
    view = destroy(
        db,
        operator,
        imp.id,
        profile,
        at=local(2026, 10, 20),
        basis="hold_ended",
        decided_by="Sgt. Ortiz (officer)",
    )
    assert view.disposition.preserve_until == date(2026, 10, 27)


def test_transfer_needs_the_hold_over_and_a_destination(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2))
    with pytest.raises(RequirementsNotMet):
        transfer(db, operator, imp.id, "Dane County Humane Society", profile, at=local(2026, 11, 5))
    with pytest.raises(ValidationError) as exc:
        transfer(db, operator, imp.id, " ", profile, at=local(2026, 11, 12))
    assert exc.value.field == "transfer_to"
    view = transfer(
        db, operator, imp.id, "Dane County Humane Society", profile, at=local(2026, 11, 12)
    )
    assert view.disposition.transfer_to == "Dane County Humane Society"


def test_cat_needs_no_licence_and_other_species_no_rabies(
    db, operator, owner, impound, profile, today
):
    cat = create_animal(db, operator, AnimalInput(species="cat", name="Tom"), today=today)
    imp = impound(cat.id, local(2026, 11, 2))
    checked = release_check(
        db, imp.id, ReleaseRequest(True, owner.id, at=local(2026, 11, 3)), profile
    )
    assert {c.requirement.code for c in checked} >= {"rabies"}
    assert "licence" not in {c.requirement.code for c in checked}
    goat = create_animal(
        db, operator, AnimalInput(species="other", species_detail="goat"), today=today
    )
    imp2 = impound(goat.id, local(2026, 11, 2))
    checked2 = release_check(
        db, imp2.id, ReleaseRequest(True, owner.id, at=local(2026, 11, 3)), profile
    )
    assert not {"licence", "rabies"} & {c.requirement.code for c in checked2}


def test_payment_validation_names_the_line(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2))
    with pytest.raises(ValidationError) as exc:
        record_payment(
            db,
            operator,
            imp.id,
            PaymentInput((LineInput("impound", "0"), LineInput("other", "5.00")), "bitcoin", ""),
            profile,
        )
    assert {"lines.0.amount", "lines.1.description", "method", "receipt_number"} <= set(
        exc.value.by_field()
    )
    assert get_impoundment(db, imp.id, profile).payments == ()


def test_a_payment_cannot_predate_the_impoundment(db, operator, rex, impound, profile):
    imp = impound(rex.id, local(2026, 11, 2))
    with pytest.raises(ValidationError) as exc:
        record_payment(
            db,
            operator,
            imp.id,
            PaymentInput(
                (LineInput("impound", "40.00"),), "cash", "R-1", paid_at=local(2026, 11, 1)
            ),
            profile,
        )
    assert exc.value.field == "paid_at"


def test_two_workstations_cannot_both_dispose_of_one_animal(db, operator, rex, impound, profile):
    """The second of two simultaneous dispositions waits for the first and is refused."""
    import threading

    from fieldops.db.models import Disposition
    from fieldops.services.impound_rows import load_impoundment

    imp = impound(rex.id, local(2026, 11, 2))
    outcome: dict[str, object] = {}
    first_holds_lock = threading.Event()
    with db.write() as s:
        load_impoundment(s, imp.id, lock=True)  # workstation A is mid-disposition

        def workstation_b():
            first_holds_lock.wait()
            try:
                record_escape(db, operator, imp.id, profile, at=local(2026, 11, 3), notes="B")
                outcome["b"] = "recorded"
            except AlreadyDisposedError:
                outcome["b"] = "refused"
            except Exception as exc:  # a lock timeout would show here
                outcome["b"] = repr(exc)

        thread = threading.Thread(target=workstation_b)
        thread.start()
        first_holds_lock.set()
        thread.join(timeout=0.5)
        assert thread.is_alive(), "B must wait while A holds the impoundment"
        s.add(
            Disposition(
                impoundment_id=imp.id,
                kind="died",
                at=local(2026, 11, 3),
                notes="A",
                recorded_by="opal",
                recorded_at=local(2026, 11, 3),
            )
        )
        load_impoundment(s, imp.id).disposed = True
    thread.join(timeout=30)
    assert outcome == {"b": "refused"}
    assert get_impoundment(db, imp.id, profile).disposition.notes == "A"


def test_the_owner_cannot_take_the_dog_back_as_an_adoption(
    db, operator, owner, rex, impound, profile, vaccinate
):
    """58-526(b)(2) is a release to a person *other than* the owner: the owner (of record on
    the impoundment, or in the registry) reclaims under (b)(1), with a licence receipt
    rather than an agreement to license."""
    vaccinate(rex.id)
    imp = impound(rex.id, local(2026, 10, 1, 10))
    at = local(2026, 10, 20, 10)
    pay_quote(db, operator, imp.id, profile, at, to_owner=False)
    req = ReleaseRequest(False, owner.id, at=at, licence_agreement=True)
    with pytest.raises(ValidationError) as exc:
        release(db, operator, imp.id, req, profile)
    assert set(exc.value.by_field()) == {"recipient_id"}
    assert get_impoundment(db, imp.id, profile).in_custody


def test_the_registry_owner_is_the_owner_when_the_intake_named_none(
    db, operator, owner, impound, profile, today
):
    """An impoundment's owner comes from the registry; here the intake left it blank and
    the registry gained the owner later: still the owner, still refused as an adopter."""
    stray = create_animal(db, operator, AnimalInput(species="cat", breed="Tabby"), today=today)
    imp = impound(stray.id, local(2026, 10, 1, 10))
    assert get_impoundment(db, imp.id, profile).owner is None
    from fieldops.services.animals import update_animal

    update_animal(
        db,
        operator,
        stray.id,
        AnimalInput(species="cat", breed="Tabby", owner_id=owner.id),
        expected_version=get_animal(db, stray.id).version,
        today=today,
    )
    at = local(2026, 10, 20, 10)
    pay_quote(db, operator, imp.id, profile, at, to_owner=False)
    req = ReleaseRequest(False, owner.id, at=at, rabies_prepaid_receipt="VR-1")
    with pytest.raises(ValidationError) as exc:
        release(db, operator, imp.id, req, profile)
    assert set(exc.value.by_field()) == {"recipient_id"}


def test_a_dog_renewed_early_for_next_year_is_still_licensed_this_year_at_release(
    db, operator, supervisor, owner, rex, impound, profile, vaccinate
):
    """RULES.md section 6 (licence year = calendar year): a dog licensed for 2026 is licensed
    all of 2026, though renewed in December for 2027 (the registry shows only 2027). The
    release reads the licence records for the release day's year."""
    from fieldops.services.licences.changes import void_licence
    from fieldops.services.licences.issue import LicenceInput, issue_licence

    vaccinate(rex.id)
    rabies = {
        "altered": True,
        "rabies_certificate": "RV-77",
        "rabies_vaccinated_on": date(2026, 1, 10),
        "rabies_expires_on": date(2027, 1, 10),
    }
    first = issue_licence(
        db,
        operator,
        LicenceInput(rex.id, 2026, "26-0007", applied_on=date(2026, 3, 1), **rabies),
        profile,
    )
    issue_licence(
        db,
        operator,
        LicenceInput(
            rex.id, 2027, "27-0007", applied_on=date(2026, 12, 1), renews_id=first.id, **rabies
        ),
        profile,
    )
    assert get_animal(db, rex.id).licence_year == 2027
    imp = impound(rex.id, local(2026, 12, 2))
    at = local(2026, 12, 3)
    pay_quote(db, operator, imp.id, profile, at)
    req = ReleaseRequest(True, owner.id, at=at)
    assert {
        r.requirement.code for r in release_check(db, imp.id, req, profile) if not r.met
    } == set()
    void_licence(db, supervisor, first.id, "Issued to the wrong dog")
    unmet = {r.requirement.code for r in release_check(db, imp.id, req, profile) if not r.met}
    assert unmet == {"licence"}  # a voided licence is no licence
    view = release(
        db, operator, imp.id, ReleaseRequest(True, owner.id, at=at, licence_receipt="L-9"), profile
    )
    assert view.disposition.kind == "reclaimed"


@pytest.mark.parametrize("licences_module", [True, False])
def test_a_licence_on_the_registry_record_alone_still_counts_at_release(
    db, operator, owner, impound, profile, vaccinate, install, licences_module
):
    """A dog whose licence was typed on its registry record, with no licence issued here
    (kept from before the licences module, or a town without one), is licensed as before."""
    if not licences_module:
        install(modules.Module("licence", "Dog licences"))  # a module keeping none
    dog = create_animal(
        db,
        operator,
        AnimalInput(
            species="dog",
            name="Bo",
            owner_id=owner.id,
            licence_number="D-2026-17",
            licence_year=2026,
        ),
        today=date(2026, 11, 30),
    )
    vaccinate(dog.id)
    imp = impound(dog.id, local(2026, 12, 2))
    at = local(2026, 12, 3)
    pay_quote(db, operator, imp.id, profile, at)
    checked = release_check(db, imp.id, ReleaseRequest(True, owner.id, at=at), profile)
    assert [c.requirement.code for c in checked if not c.met] == []
    assert "D-2026-17" in {c.requirement.code: c for c in checked}["licence"].evidence
