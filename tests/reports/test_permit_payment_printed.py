"""The fee paid prints on the permit: the amount, how it was paid, the receipt (as typed)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from fieldops.reports.permit import permit_pdf
from fieldops.rules import Profile
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import ChickenInput, apply_chicken
from fieldops.services.permits.issuing import issue_permit


def test_the_permit_prints_the_fee_paid_and_its_receipt(sqlite_db, officer, read_pdf):
    profile = Profile.default()
    who = create_person(sqlite_db, officer, PersonInput(full_name="Ana Ruiz", address="4 Elm"))
    form = ChickenInput(date(2026, 3, 2), 2026, 4, 0, 60)
    v = apply_chicken(sqlite_db, officer, who.id, who.address, form, profile, first=False)
    v = issue_permit(
        sqlite_db,
        officer,
        v.id,
        date(2026, 3, 3),
        profile,
        paid_amount="30.00",
        payment_method="card",
        receipt_number="R-<9>&1",
    )
    pdf = permit_pdf(
        v,
        jurisdiction="City of Riverton",
        tz=profile.timezone,
        printed_at=datetime(2026, 11, 28, 15, tzinfo=UTC),
    )
    text = " ".join(read_pdf(pdf))
    assert "$30.00 (card)" in text and "R-<9>&1" in text


def test_a_village_permit_prints_the_residence_distance_and_the_state_registration(
    sqlite_db, officer, read_pdf
):
    profile = Profile.named("village")
    who = create_person(sqlite_db, officer, PersonInput(full_name="Ana Ruiz", address="4 Elm"))
    form = ChickenInput(
        date(2026, 3, 2),
        2026,
        4,
        0,
        60,
        hoa_exists=False,
        residence_setback_feet=31,
        state_registered_on=date(2024, 5, 1),
    )
    v = apply_chicken(sqlite_db, officer, who.id, who.address, form, profile, first=False)
    v = issue_permit(sqlite_db, officer, v.id, date(2026, 3, 3), profile)
    pdf = permit_pdf(
        v,
        jurisdiction="Village",
        tz=profile.timezone,
        printed_at=datetime(2026, 11, 28, tzinfo=UTC),
    )
    text = " ".join(read_pdf(pdf))
    assert "31 feet" in text and "2024" in text and "State registration" in text
