"""The bite case's record exported in full or as a public-records copy (issue 11): the
person bitten, their contact and who reported it are withheld from the public copy, which
says so on page 1; the full copy reads the contact through the audited path; either export
is on the audit trail. On SQLite and PostgreSQL."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, days_ago, exam
from sqlalchemy import text

from fieldops.errors import PermissionDeniedError
from fieldops.services import quarantine as qs
from fieldops.services.history import record_history
from fieldops.services.quarantine.record_copy import bite_record_pdf

HOSTILE = "O'Brien & <Sons>"
CONTACT = "608-555-0199, 4 Secret Lane"


@pytest.fixture
def operator(officer):
    """Bites and quarantines are an officer's work (issue 12's roles)."""
    return officer


def pages(content: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(content)).pages]


@pytest.fixture
def case(db, operator, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(12),
            animal_id=rex.id,
            clinic_id=clinic.id,
            victim_name=HOSTILE,
            victim_contact=CONTACT,
            reported_by="Mary Caller",
            notes=f"{HOSTILE} was bitten on the left hand",
        ),
        PROFILE,
    )
    exam(db, operator, r.quarantine_id, days_ago(11).date())
    qs.correct_record(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "place",
        "Tenney Park, north gate",
        "the report said the park only",
    )
    return r


def events(db, action):
    with db.read() as s:
        return s.execute(
            text(
                "SELECT actor, entity, entity_id, after FROM audit_event WHERE action = :a "
                "ORDER BY id"
            ),
            {"a": action},
        ).all()


def test_the_public_copy_withholds_the_person_bitten_and_says_so(db, operator, case):
    pdf = bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=True)
    texts = pages(pdf)
    whole = "\n".join(texts)
    for private in ("O'Brien", "Sons", "608-555-0199", "Secret", "Mary Caller"):
        assert private not in whole, private
    assert "(withheld)" in whole
    assert "Public-records copy" in texts[0] and "withheld from this copy" in texts[0]
    # The rest of the record is there: the bite, the plan, the exam, the correction.
    for shown in (
        "Tenney Park, north gate",
        "Rex",
        "Eastside Veterinary Clinic",
        "Dr. Kim",
        "Corrections in force",
        "Observation ends",
        "Off. Dana Lee",
    ):
        assert shown in whole, shown
    # A public copy does not read the contact; its export is audited as redacted.
    assert events(db, "read:victim_contact") == []
    exported = events(db, "record_exported")
    assert len(exported) == 1
    actor, entity, entity_id, after = exported[0]
    assert (actor, entity, entity_id) == (operator.username, "bite_report", case.bite_report_id)
    assert "true" in str(after).lower() and "Secret" not in str(after)


def test_the_full_copy_has_the_person_bitten_and_reads_the_contact_audited(db, operator, case):
    pdf = bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=False)
    whole = "\n".join(pages(pdf))
    assert HOSTILE in whole and CONTACT in whole and "Mary Caller" in whole
    assert "Public-records copy" not in whole and "(withheld)" not in whole
    reads = events(db, "read:victim_contact")
    assert [(r[0], r[2]) for r in reads] == [(operator.username, case.bite_report_id)]
    (exported,) = events(db, "record_exported")
    assert "false" in str(exported[3]).lower()


def test_the_export_reads_in_words_in_the_bite_reports_history(db, operator, case):
    bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=True)
    bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=False)
    lines = [
        h
        for h in record_history(db, "bite_report", case.bite_report_id, PROFILE.timezone)
        if h.action == "record_exported"
    ]
    assert len(lines) == 2
    said = " ".join(h.sentence for h in lines)
    assert "public-records copy" in said and "in full" in said


def test_an_administrator_cannot_export_the_case_record(db, admin, case):
    with pytest.raises(PermissionDeniedError):
        bite_record_pdf(db, admin, case.bite_report_id, PROFILE, redacted=True)
    assert events(db, "record_exported") == []


def test_a_corrected_name_is_withheld_before_and_after(db, operator, supervisor, case):
    qs.correct_record(
        db,
        supervisor,
        case.bite_report_id,
        "bite_report",
        case.bite_report_id,
        "victim_name",
        "Jon Smithers",
        f"misheard on the phone: not {HOSTILE}",
    )
    public = "\n".join(
        pages(bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=True))
    )
    assert "Smithers" not in public and "O'Brien" not in public and "Sons" not in public
    assert "misheard on the phone" in public  # the reason stays, the names in it do not
    full = "\n".join(
        pages(bite_record_pdf(db, operator, case.bite_report_id, PROFILE, redacted=False))
    )
    assert "Jon Smithers" in full and HOSTILE in full
