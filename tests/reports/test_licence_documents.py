"""The licence certificate with its tag receipt, and the renewal letters (issue 15),
checked by their text, with a hostile owner's name."""

from __future__ import annotations

import io
from datetime import date

import pytest
from pypdf import PdfReader

from fieldops.errors import ValidationError
from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences.documents import certificate_pdf, letters_pdf
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.licences.renewals import renewals_due
from fieldops.services.people import PersonInput, create_person

HOSTILE = "O'Brien & <Sons>"


def text_of(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def test_certificate_and_tag_receipt_and_letters(sqlite_db, operator):
    db, profile = sqlite_db, Profile.default()
    owner = create_person(db, operator, PersonInput(full_name=HOSTILE, address="1 <Elm> & Co"))
    dogs = [
        create_animal(
            db,
            operator,
            AnimalInput(species="dog", name=n, breed="Beagle", owner_id=owner.id, altered=False),
            today=date(2026, 6, 1),
        )
        for n in ("Rex", "Bo")
    ]
    views = [
        issue_licence(
            db,
            operator,
            LicenceInput(
                animal_id=d.id,
                licence_year=y,
                tag_number=f"{y % 100}-{d.id}",
                applied_on=on,
                rabies_certificate="RV-<1>",
                rabies_vaccinated_on=date(2025, 1, 2),
            ),
            profile,
        )
        for d in dogs
        for y, on in ((2025, date(2025, 2, 1)),)
    ]
    late = issue_licence(
        db,
        operator,
        LicenceInput(
            animal_id=dogs[0].id,
            licence_year=2026,
            tag_number="26-77",
            applied_on=date(2026, 6, 1),
            rabies_certificate="RV-<1>",
            rabies_vaccinated_on=date(2025, 1, 2),
            renews_id=views[0].id,
        ),
        profile,
    )
    (page,) = text_of(certificate_pdf(db, late.id, profile))
    assert HOSTILE in page and "1 <Elm> & Co" in page and "RV-<1>" in page
    assert "Applied on Mon 1 Jun 2026" in page.replace("\n", " ")
    assert "26-77" in page and "Tag receipt" in page and late.receipt_number in page
    assert f"late fee ${late.late_fee:,.2f}" in page and f"${late.total:,.2f}" in page
    rows = renewals_due(db, 2026, date(2026, 3, 1), profile)
    (letter,) = text_of(letters_pdf(rows, 2026, date(2026, 3, 1), profile))
    assert HOSTILE in letter and "Bo" in letter and "25-" in letter
    assert "Rex" not in letter  # renewed
    pages = text_of(letters_pdf((), 2026, date(2026, 3, 1), profile))
    assert len(pages) == 1 and "No dog" in pages[0]


def test_the_licence_register_lists_the_period_and_withholds_addresses(sqlite_db, operator):
    from datetime import datetime, timedelta

    from fieldops import modules
    from fieldops.services.context import now

    db, profile = sqlite_db, Profile.default()
    owner = create_person(db, operator, PersonInput(full_name=HOSTILE, address="1 Elm St"))
    dog = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", owner_id=owner.id, altered=True),
        today=date(2026, 6, 1),
    )
    issue_licence(
        db,
        operator,
        LicenceInput(
            animal_id=dog.id,
            licence_year=2026,
            tag_number="26-5",
            applied_on=date(2026, 6, 1),
            rabies_vaccinated_on=date(2026, 1, 2),
        ),
        profile,
    )
    kind = modules.report_kind("licence-register")
    assert kind is not None
    today = now().astimezone(profile.timezone).date()

    def build(redacted: bool, start: date = today):
        return kind.build(
            modules.ReportRequest(
                db, start, today, profile, datetime.now(profile.timezone), "Opal", redacted
            )
        )

    full = build(False)
    assert [r[2] for r in full.table.rows] == ["26-5"] and "1 Elm St" in full.table.rows[0][7]
    (page,) = text_of(full.pdf)
    assert HOSTILE in page and "26-5" in page
    public = build(True)
    assert public.table.rows[0][7] == "withheld" and public.table.withheld
    with pytest.raises(ValidationError) as exc:
        build(False, today - timedelta(days=400))
    assert exc.value.field == "period_end"


def _letters(db, operator, profile, day):
    owner = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    dog = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", owner_id=owner.id, altered=False),
        today=date(2025, 1, 1),
    )
    issue_licence(
        db,
        operator,
        LicenceInput(
            animal_id=dog.id,
            licence_year=2025,
            tag_number="25-1",
            applied_on=date(2025, 2, 1),
            rabies_vaccinated_on=date(2025, 1, 2),
        ),
        profile,
    )
    rows = renewals_due(db, 2026, day, profile)
    (letter,) = text_of(letters_pdf(rows, 2026, day, profile))
    return rows, " ".join(letter.split())


def test_a_letter_after_the_due_day_says_its_fee_already_has_the_late_fee(sqlite_db, operator):
    # Printed in June it said "Please renew by Wed 1 Apr 2026" (past) and "a licence bought
    # after that day pays the late fee of $10.00" beside a fee of $30.00 that has it: the
    # owner read $30 + $10. The letter says what is owed on its own day.
    profile = Profile.default()
    rows, letter = _letters(sqlite_db, operator, profile, date(2026, 6, 1))
    (row,) = rows
    assert row.late and row.amount == profile.licence_unaltered + profile.licence_late_fee
    assert f"${row.amount:,.2f}" in letter
    assert "Please renew by" not in letter and "on top of" not in letter
    assert "was Wed 1 Apr 2026" in letter and "already includes the late fee" in letter
    assert "owed as of Mon 1 Jun 2026" in letter and "Fee with late fee" in letter


def test_a_letter_before_the_due_day_asks_to_renew_by_it(sqlite_db, operator):
    profile = Profile.default()
    rows, letter = _letters(sqlite_db, operator, profile, date(2026, 3, 1))
    (row,) = rows
    assert not row.late and row.amount == profile.licence_unaltered
    assert f"${row.amount:,.2f}" in letter and "Please renew by Wed 1 Apr 2026" in letter
    late_fee = f"${profile.licence_late_fee:,.2f}"
    assert f"late fee of {late_fee} a dog on top of the fee below" in letter
    assert "already includes" not in letter
