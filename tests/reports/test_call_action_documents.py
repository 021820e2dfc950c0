"""A voided citation prints VOID; a permit cites its own town's text in its footer, not the
city's 58-533(b) (checked by text under the city's profile and Dodgeville's)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from fieldops.reports.calls import citation_pdf
from fieldops.reports.permit import permit_pdf
from fieldops.rules import Profile
from fieldops.services.calls.citation_corrections import void_citation
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import ChickenInput, apply_chicken
from fieldops.services.permits.issuing import issue_permit

HOSTILE = "O'Brien & <Sons>"
PRINTED = datetime(2026, 11, 28, 15, tzinfo=UTC)


def _kw(profile: Profile) -> dict[str, object]:
    return {"jurisdiction": profile.name, "tz": profile.timezone, "printed_at": PRINTED}


def test_a_voided_citation_prints_void_with_its_reason(sqlite_db, officer, supervisor, read_pdf):
    profile = Profile.default()
    owner = create_person(sqlite_db, officer, PersonInput(full_name=HOSTILE, address="1 Elm St"))
    day = datetime.now(UTC).date() - timedelta(days=2)
    (c,) = cite(sqlite_db, officer, CitationInput(owner.id, "58-531", (day,), "Off. Lee"), profile)
    assert "VOID" not in " ".join(read_pdf(citation_pdf(c, **_kw(profile))))
    v = void_citation(sqlite_db, supervisor, c.id, c.version, "Wrong <house> & resident")
    text = " ".join(read_pdf(citation_pdf(v, **_kw(profile))))
    assert "VOID" in text and "Wrong <house> & resident" in text and HOSTILE in text
    assert "58-531" in text  # what was cited stays readable


@pytest.mark.parametrize(
    ("name", "cites", "not_cited"),
    [("", "City code 58-533(b)", "Dodgeville"), ("dodgeville", "Dodgeville code 12.16", "58-533")],
)
def test_a_chicken_permit_cites_its_own_towns_text(
    sqlite_db, operator, read_pdf, name, cites, not_cited
):
    profile = Profile.named(name) if name else Profile.default()
    holder = create_person(sqlite_db, operator, PersonInput(full_name=HOSTILE, address="3 Oak"))
    inp = ChickenInput(
        date(2026, 3, 2),
        2026,
        4,
        0,
        60,
        residence_setback_feet=40,
        state_registered_on=date(2025, 6, 1),
    )
    v = apply_chicken(sqlite_db, operator, holder.id, holder.address, inp, profile)
    v = issue_permit(sqlite_db, operator, v.id, date(2026, 3, 3), profile)
    text = " ".join(read_pdf(permit_pdf(v, **_kw(profile))))
    assert cites in text and not_cited not in text
