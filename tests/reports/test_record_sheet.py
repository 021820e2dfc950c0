"""The 58-528 record of one impoundment."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from fieldops.reports import impound_record_sheet

TRICKY = 'O\'Brien & <Sons> "Rex"'


@pytest.fixture
def sheet(doc_args, read_pdf):
    def render(view) -> str:
        return " ".join(read_pdf(impound_record_sheet(view, **doc_args)))

    return render


def test_describes_the_animal_with_every_field(sheet, released_view):
    t = sheet(released_view)
    for label, value in [
        ("Name", "Rex <the dog>"),
        ("Species", "dog"),
        ("Breed", "Beagle mix"),
        ("Colour", "Tan & white"),
        ("Sex", "male"),
        ("Spayed / neutered", "Yes"),
        ("Approximate age", "about 4 years"),
        ("Microchip", "985112003456789"),
        ("Licence", "RIV-2026-0412"),
        ("Markings", "Notched left ear; white blaze"),
        ("Photo on file", "Yes"),
    ]:
        assert f"{label} {value}" in t


def test_records_the_impoundment(sheet, released_view):
    t = sheet(released_view)
    assert "Record of impounded animal" in t and "Impoundment no. 1042" in t
    assert "Impounded Mon 2 Mar 2026 2:05 PM CST" in t
    assert "Custody day Mon 2 Mar 2026" in t
    assert "When found Mon 2 Mar 2026 1:40 PM CST" in t
    assert "Where found Behind 55 Mill St" in t
    assert "Officer Ofc. Tran" in t
    assert "Reason At large: running in traffic" in t
    assert "Bit a person No" in t
    assert "Kennel K-7" in t
    assert f"Owner {TRICKY} 12 Elm St & 3rd Ave, Riverton WI 53000 Phone: 608-555-0101" in t
    assert "Repeat No" in t
    assert "Notes Friendly; pulls on lead." in t


def test_explains_the_hold(sheet, released_view):
    t = sheet(released_view)
    assert "Owner's last day to claim Mon 9 Mar 2026 Owner may claim until Mon 9 Mar 2026" in t
    assert "May go to others from Tue 10 Mar 2026 12:00 AM CDT May be adopted by someone else" in t


def test_release_with_recipient_delivery_date_fees_and_evidence(sheet, released_view):
    t = sheet(released_view)
    assert "Disposition Reclaimed by owner" in t
    assert "Date of delivery Mon 9 Mar 2026 2:05 PM CDT" in t
    assert f"Released to {TRICKY} 12 Elm St & 3rd Ave" in t
    assert "Impound fee $35.00" in t and "Boarding, 7 days $87.50" in t
    assert "Total fees $122.50" in t and "Paid $1,392.50" in t and "Balance $0.00" in t
    assert "Fee schedule Resolution 2024-17" in t
    assert "Dog licence Dog licence 2026 $1,250.00" in t
    assert "Total paid $1,392.50" in t
    assert "OVERRIDDEN by sam: Quarantine served at vet <clinic> & released" in t


def test_in_custody(sheet, custody_view):
    t = sheet(custody_view)
    assert "In custody — no disposition yet" in t
    assert "Owner Unknown" in t
    assert "No fees paid" in t
    assert "No fee quote on record" in t


def test_repeat_impoundment_and_doubled_fee(sheet, released_view):
    view = replace(
        released_view,
        repeat_of=977,
        repeat_custody_day=date(2026, 1, 14),
        fees=replace(
            released_view.fees,
            repeat_of=977,
            repeat_note="Impound fee x2: impounded again within 365 days (58-526(a))",
        ),
    )
    t = sheet(view)
    assert "Repeat Yes: impounded before as no. 977 (custody day Wed 14 Jan 2026)" in t
    assert "Impound fee x2: impounded again within 365 days (58-526(a))" in t


def test_euthanized_biting_animal_preserved(sheet, released_view):
    view = replace(
        released_view,
        bit_person=True,
        disposition=replace(
            released_view.disposition,
            kind="euthanized",
            recipient=None,
            to_owner=False,
            preserve_until=date(2026, 3, 16),
            hopeless_or_threat=True,
            evidence=(),
            euthanasia_basis="imminent_threat",
            decided_by="Dr. Kim & <Vet>",
        ),
    )
    t = sheet(view)
    assert "Basis An imminent threat to public health or safety" in t
    assert "Decided by Dr. Kim & <Vet>" in t
    assert "Bit a person Yes" in t
    assert "Disposition Euthanized" in t
    assert "Date and time Mon 9 Mar 2026 2:05 PM CDT" in t
    assert "Hopelessly injured, diseased or a threat Yes" in t
    assert "Preserve the body until Mon 16 Mar 2026" in t
    assert "Released to" not in t.split("Disposition Euthanized")[1]


def test_transfer(sheet, released_view):
    view = replace(
        released_view,
        disposition=replace(
            released_view.disposition,
            kind="transferred",
            recipient=None,
            to_owner=False,
            transfer_to="Dane County Humane Society & <Rescue>",
            evidence=(),
        ),
    )
    t = sheet(view)
    assert "Disposition Transferred" in t
    assert "Transferred to Dane County Humane Society & <Rescue>" in t


def test_corrections_keep_the_superseded_entries_with_their_reasons(
    sheet, released_view, make_disposition
):
    first = make_disposition(
        id=58,
        kind="adopted",
        to_owner=False,
        at=datetime(2026, 3, 10, 15, 0, tzinfo=UTC),
        evidence=(),
    )
    second = make_disposition(
        id=59,
        kind="escaped",
        recipient=None,
        to_owner=False,
        at=datetime(2026, 3, 10, 17, 0, tzinfo=UTC),
        evidence=(),
        corrects_id=58,
        correction_reason="Adopter <changed> mind & left",
    )
    current = make_disposition(
        id=60, corrects_id=59, recorded_by="sam", correction_reason="Entered as escaped by mistake"
    )
    t = sheet(replace(released_view, disposition=current, corrections=(second, first)))
    corrections = t.split("Corrections", 1)[1]
    assert corrections.index("Adopted") < corrections.index("Escaped")  # in time order
    assert "Tue 10 Mar 2026 10:00 AM CDT" in corrections
    assert "Adopter <changed> mind & left Corrected by opal (Escaped)" in corrections
    assert "Entered as escaped by mistake Corrected by sam (Reclaimed by owner)" in corrections
    assert "Corrects an earlier entry Entered as escaped by mistake" in t


def test_numbered_pages_with_repeating_header(doc_args, read_pdf, released_view):
    pages = read_pdf(impound_record_sheet(released_view, **doc_args))
    assert len(pages) == 2
    assert "Page 1 of 2" in pages[0] and "Page 2 of 2" in pages[1]
    assert "Record of impounded animal (continued)" in pages[1]
    assert "Impoundment no. 1042" in pages[1]
