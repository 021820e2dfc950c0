"""The permit and the fancier's non-renewal notice, checked by their text (a hostile name
prints as typed and embeds nothing)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from support import images_besides_the_letterhead

from fieldops.reports.permit import non_renewal_notice, permit_pdf
from fieldops.rules import Profile
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.appeals import mail_notice
from fieldops.services.permits.applying import (
    ChickenInput,
    FancierInput,
    apply_chicken,
    apply_fancier,
)
from fieldops.services.permits.enforcing import IncidentInput, record_incident, review_permit
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import AnimalLine

HOSTILE = "O'Brien & <Sons> <img src='x.png'/>"
PRINTED = datetime(2026, 11, 28, 15, tzinfo=UTC)


@pytest.fixture
def profile():
    return Profile.default()


def render(fn, view, profile):
    return fn(view, jurisdiction="City of Riverton", tz=profile.timezone, printed_at=PRINTED)


@pytest.fixture
def hostile(sqlite_db, officer):
    return create_person(sqlite_db, officer, PersonInput(full_name=HOSTILE, address="9 <Elm> St"))


def test_the_chicken_permit_prints_its_holder_year_and_hens(
    sqlite_db, officer, hostile, profile, read_pdf
):
    v = apply_chicken(
        sqlite_db,
        officer,
        hostile.id,
        hostile.address,
        ChickenInput(date(2026, 3, 2), 2026, 4, 0, 20, neighbour_consent=True),
        profile,
    )
    with pytest.raises(ValueError):  # not issued yet
        render(permit_pdf, v, profile)
    v = issue_permit(sqlite_db, officer, v.id, date(2026, 3, 3), profile)
    pdf = render(permit_pdf, v, profile)
    text = " ".join(read_pdf(pdf))
    assert HOSTILE in text and "9 <Elm> St" in text
    assert "Chicken permit" in text and f"Permit no. {v.id}" in text
    assert "Thu 31 Dec 2026" in text or "31 Dec 2026" in text
    assert "20 feet" in text and "neighbour's written consent" in text
    assert images_besides_the_letterhead(pdf) == []


def test_the_non_renewal_notice_lists_the_incidents_it_rests_on_and_the_appeal_day(
    sqlite_db, officer, hostile, profile, read_pdf
):
    v = apply_fancier(
        sqlite_db,
        officer,
        hostile.id,
        hostile.address,
        FancierInput(date(2026, 1, 5), 2026, (AnimalLine("pigeons", 12, "Racing <homers>"),)),
        profile,
    )
    v = issue_permit(sqlite_db, officer, v.id, date(2026, 1, 6), profile)
    assert "Racing <homers>" in " ".join(read_pdf(render(permit_pdf, v, profile)))
    with pytest.raises(ValueError):  # no decision against it
        render(non_renewal_notice, v, profile)
    incidents = (
        (date(2025, 10, 1), "noise", "warning", ""),  # more than 12 months before: not counted
        (date(2026, 2, 3), "noise", "warning", ""),
        (date(2026, 5, 6), "at_large", "citation", "C-2026-77"),
        (date(2026, 9, 9), "waste", "citation", "C-2026-91"),
    )
    for day, kind, ending, number in incidents:
        record_incident(
            sqlite_db,
            officer,
            v.id,
            IncidentInput(day, kind, ending, f"Complaint of {HOSTILE}", number),
            profile,
        )
    review_permit(sqlite_db, officer, v.id, date(2026, 11, 2), profile)
    v = mail_notice(sqlite_db, officer, v.id, date(2026, 11, 3), "7019 0700 0000 4242", profile)
    pdf = render(non_renewal_notice, v, profile)
    text = " ".join(read_pdf(pdf))
    assert "not renewed" in text and HOSTILE in text
    assert "counted 3 incidents" in text
    assert "C-2026-77" in text and "C-2026-91" in text and "At large" in text
    assert "1 Oct 2025" not in text  # outside the window
    assert "7019 0700 0000 4242" in text
    assert v.appeal_by is not None and "Appeal by" in text
    assert v.review.notice.appeal_why.split(":")[0] in text
    assert images_besides_the_letterhead(pdf) == []
