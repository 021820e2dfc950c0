"""The field calls documents (issue 16), checked by their text: a citation, the owner's
notice of a complaint, and the petition form with its five parts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import BytesIO

import pytest
from calls_support import complained_call
from pypdf import PdfReader

from fieldops.reports.calls import citation_pdf, complaint_notice_pdf, petition_pdf
from fieldops.rules import Profile
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.complaints import PetitionInput, file_petition
from fieldops.services.calls.records import get_call
from fieldops.services.people import PersonInput, create_person

HOSTILE = "O'Brien & <Sons>"
PRINTED = datetime(2026, 11, 21, 15, tzinfo=UTC)


@pytest.fixture(scope="module")
def profile():
    return Profile.default()


def _kw(profile):
    return {"jurisdiction": "City of Riverton", "tz": profile.timezone, "printed_at": PRINTED}


@pytest.fixture
def case(sqlite_db, officer, profile):
    owner = create_person(sqlite_db, officer, PersonInput(full_name=HOSTILE, address="12 Elm St"))
    call = complained_call(sqlite_db, officer, owner.id)
    day = datetime.now(UTC).date() - timedelta(days=2)
    cited = cite(
        sqlite_db,
        officer,
        CitationInput(owner.id, "58-531", (day,), "Off. Lee", call_id=call.id, address="12 Elm St"),
        profile,
    )
    return call, cited[0]


def test_the_citation_names_the_offence_its_number_and_forfeiture(case, profile, read_pdf):
    _call, c = case
    text = " ".join(read_pdf(citation_pdf(c, **_kw(profile))))
    assert HOSTILE in text and "58-531" in text and "58-534(b)" in text
    assert "1 against 58-531" in text
    assert (f"${c.forfeiture}" if c.forfeiture else "a warning") in text
    assert "separate offence" in text


def test_the_complaint_notice_and_the_petition_form(case, sqlite_db, officer, profile, read_pdf):
    call, _ = case
    text = " ".join(read_pdf(complaint_notice_pdf(call, call.complaints[0], **_kw(profile))))
    assert "Notice of a complaint" in text and HOSTILE in text and "58-534(a)" in text
    assert "Barking" in text
    blank = " ".join(read_pdf(petition_pdf(call, **_kw(profile))))
    for part in (
        "petitioners' names",
        "description of the animal",
        "dates and times",
        "dates the violations were reported",
        "will testify",
    ):
        assert part in blank
    v = file_petition(
        sqlite_db,
        officer,
        call.complaints[0].id,
        PetitionInput(received_on=datetime.now(profile.timezone).date(), petitioners=HOSTILE),
        record_refusal=True,
    )
    refused = " ".join(read_pdf(petition_pdf(v, v.complaints[0].petitions[0], **_kw(profile))))
    assert "Refused" in refused and "will testify" in refused and HOSTILE in refused


def test_the_notice_goes_to_the_owners_own_address_not_the_calls(
    sqlite_db, officer, profile, read_pdf
):
    owner = create_person(
        sqlite_db,
        officer,
        PersonInput(full_name="Olga Owner", address="500 Far Away Rd", city="Madison"),
    )
    call = get_call(sqlite_db, complained_call(sqlite_db, officer, owner.id).id)  # at 12 Elm St
    pdf = complaint_notice_pdf(call, call.complaints[0], **_kw(profile))
    lines = PdfReader(BytesIO(pdf)).pages[0].extract_text().splitlines()
    value = {label: lines[n + 1] for n, label in enumerate(lines[:-1])}  # label, then value
    assert value["Address"] == "500 Far Away Rd, Madison, WI"
    assert value["Place of the complaint"] == "12 Elm St"
    blank = " ".join(read_pdf(petition_pdf(call, **_kw(profile))))
    assert "owner Olga Owner, 500 Far Away Rd" in blank
