"""The officer's day is the officer's own (issue 16): the other modules' items naming the
officer are on it, another officer's and the counter's are not."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, days_ago, local_today
from vicious_cases import declaration, owner_and_dog

from fieldops import modules
from fieldops.reports.calls_day import officer_day_pdf
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.calls.citations import CitationInput, cite
from fieldops.services.calls.day import officer_day
from fieldops.services.vicious.declaring import declare


def test_my_quarantine_exam_is_on_my_day_and_another_officers_is_not(
    db, officer, supervisor, owner, rex, today
):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    bo = create_animal(
        db, officer, AnimalInput(species="dog", name="Bo", owner_id=owner.id), today=today
    )
    # The bite report names its officer as typed: the account's name, spaced and cased anyhow.
    mine = qs.report_bite(
        db,
        officer,
        bite_input(days_ago(5), animal_id=rex.id, clinic_id=clinic.id, officer=" olly  OFFICER "),
        PROFILE,
    )
    theirs = qs.report_bite(
        db, officer, bite_input(days_ago(5), animal_id=bo.id, clinic_id=clinic.id), PROFILE
    )
    offence, court = local_today() - timedelta(days=10), local_today() - timedelta(days=2)
    (my_citation,) = cite(
        db,
        officer,
        CitationInput(owner.id, "58-531", (offence,), "Olly Officer", court_on=court),
        PROFILE,
    )
    cite(
        db,
        officer,
        CitationInput(owner.id, "58-529", (offence,), "Sam Supervisor", court_on=court),
        PROFILE,
    )
    due = [i for i in modules.due_items(db, local_today(), PROFILE) if i.module == "quarantine"]
    # Both quarantines are due something today (the fixture's bites are alike)...
    assert {i.record_id for i in due} == {mine.quarantine_id, theirs.quarantine_id}
    assert all("officer" in i.as_json() for i in due)  # fieldops due --json names them

    day = officer_day(db, officer.username, local_today(), PROFILE)
    quarantine = [x for x in day.others if x.module == "quarantine"]
    # ...but only mine is on my day; another officer's is on theirs.
    assert quarantine and {x.record_id for x in quarantine} == {mine.quarantine_id}
    assert any("exam" in x.text.lower() for x in quarantine)
    citations = [x.record_id for x in day.others if x.kind == "citation"]
    assert citations == [my_citation.id]  # unpaid past its court date, issued by me
    theirs_day = officer_day(db, supervisor.username, local_today(), PROFILE)
    assert mine.quarantine_id not in {x.record_id for x in theirs_day.others}

    pdf = officer_day_pdf(
        day,
        officer_name="Olly Officer",
        jurisdiction="City",
        tz=PROFILE.timezone,
        printed_at=datetime.now(UTC),
    )
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert f"#{mine.quarantine_id} Rex" in text
    assert f"#{theirs.quarantine_id} Bo" not in text and "58-529" not in text


def test_an_item_naming_no_officer_is_on_no_officers_day(db, officer, rex, impound, profile):
    impound(rex.id, datetime.now(UTC) - timedelta(days=profile.hold_days + 3))
    today = datetime.now(profile.timezone).date()
    pound = [i for i in modules.due_items(db, today, profile) if i.module == "impound"]
    assert pound and all(i.officer == "" for i in pound)
    assert officer_day(db, officer.username, today, profile).others == ()


def test_my_declared_case_is_on_my_day_and_another_officers_is_not(db, officer, profile, today):
    _, rex = owner_and_dog(db, officer, today)
    _, max_ = owner_and_dog(db, officer, today, "Bea Quinn", "Max")
    mine = declare(db, officer, replace(declaration(rex.id), officer="Olly Officer"), profile)
    theirs = declare(db, officer, declaration(max_.id), profile)  # Off. Dana Lee's
    due = [i for i in modules.due_items(db, today, profile) if i.module == "vicious"]
    assert {(i.record_id, i.officer) for i in due} == {
        (mine.id, "Olly Officer"),
        (theirs.id, "Off. Dana Lee"),
    }
    day = officer_day(db, officer.username, today, profile)
    assert [x.record_id for x in day.others if x.module == "vicious"] == [mine.id]
