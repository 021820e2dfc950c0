"""History by address and by owner (issue 16): every module's records through the seam."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quarantine_support import bite_input
from vicious_cases import declared

from fieldops.services import quarantine as qs
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.places import address_history, person_history
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
