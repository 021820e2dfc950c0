"""History by address and by owner (issue 16): every module's records through the seam."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quarantine_support import bite_input
from vicious_cases import declared

from fieldops.services import quarantine as qs
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.places import address_history, person_history
from fieldops.services.calls.records import CallInput, create_call


def test_address_and_owner_history_show_every_modules_records_newest_first(
    db, officer, operator, owner, rex, impound, profile
):
    t0 = datetime.now(UTC) - timedelta(days=3)
    impound(rex.id, t0, found_place="12 Elm St, front yard", owner_id=owner.id)
    qs.report_bite(
        db,
        officer,
        bite_input(
            t0 + timedelta(hours=5),
            place="Sidewalk at 12 Elm St",
            species="other",
            animal_description="a ferret",
            owner_id=owner.id,
            ordered_at=None,
        ),
        profile,
    )
    declared(db, officer, profile, rex.id)
    call = create_call(
        db,
        officer,
        CallInput(
            received_at=datetime.now(UTC) - timedelta(hours=1),
            received_how="phone",
            kind="at_large",
            address="12 elm st.",
            anonymous=True,
        ),
    )
    cite(
        db,
        officer,
        CitationInput(owner.id, "58-521", (t0.date(),), "Off. Lee", address="12 Elm St"),
        profile,
    )
    other = create_call(
        db, officer, CallInput(datetime.now(UTC), "phone", "dead", "99 Far Rd", anonymous=True)
    )
    for found in (address_history(db, "12 Elm St, Madison"), person_history(db, owner.id)):
        kinds = {(r.module, r.kind) for r in found}
        assert {
            ("impound", "impoundment"),
            ("quarantine", "bite"),
            ("vicious", "case"),
            ("call", "call"),
            ("call", "citation"),
        } <= kinds
        assert [r.when for r in found] == sorted((r.when for r in found), reverse=True)
        assert call.id in [r.record_id for r in found if r.kind == "call"]
        assert other.id not in [r.record_id for r in found if r.kind == "call"]


def test_a_permit_at_the_address_or_of_the_owner_is_in_their_history(db, operator, owner, profile):
    from datetime import date

    from fieldops.services.people import PersonInput, create_person
    from fieldops.services.permits.applying import ChickenInput, apply_chicken

    form = ChickenInput(
        applied_on=date(2026, 3, 1),
        year=2026,
        hens=4,
        roosters=0,
        setback_feet=60,
        hoa_exists=False,
        hoa_consent=False,
        hoa_consent_on=None,
    )
    elsewhere = create_person(
        db, operator, PersonInput(full_name="Ida Park", address="40 Oak Ave", city="Madison")
    )
    at_elm = apply_chicken(db, operator, elsewhere.id, "12 Elm St", form, profile)
    at_oak = apply_chicken(db, operator, elsewhere.id, "40 Oak Ave", form, profile, first=False)
    owners = apply_chicken(db, operator, owner.id, "7 Birch Ln", form, profile)
    at_address = {r.record_id for r in address_history(db, "12 ELM ST.") if r.module == "permit"}
    assert at_elm.id in at_address and at_oak.id not in at_address
    of_owner = {r.record_id for r in person_history(db, owner.id) if r.module == "permit"}
    assert owners.id in of_owner and at_oak.id not in of_owner
