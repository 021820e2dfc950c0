"""The quarantine order and the certification form print the dates of a corrected bite time
(issue 9 follow-up): every date comes from the view, which asks the rules again."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from io import BytesIO

import pytest
from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, day

from fieldops.reports.base import fmt_datetime
from fieldops.reports.quarantine import certification_form, quarantine_order
from fieldops.rules import format_day
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person

PRINTED = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(BytesIO(pdf)).pages)


def test_the_documents_print_the_corrected_dates(sqlite_db, operator, supervisor):
    db = sqlite_db
    owner = create_person(db, operator, PersonInput(full_name="O'Brien & <Sons>", address="1 Elm"))
    dog = create_animal(
        db, operator, AnimalInput(species="dog", name="Rex", owner_id=owner.id), today=day(0)
    )
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Clinic", "2 Vet Way"))
    written = datetime.combine(day(9), time(0, 30), PROFILE.timezone)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            written, animal_id=dog.id, clinic_id=clinic.id, ordered_at=written + timedelta(hours=2)
        ),
        PROFILE,
    )
    old = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    truly = written - timedelta(hours=1)
    qs.correct_record(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "bitten_at",
        truly.astimezone(UTC).isoformat(),
        "after midnight by mistake",
        PROFILE,
    )
    v = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert v.last_day == old.last_day - timedelta(days=1)
    tz = PROFILE.timezone
    order = text_of(quarantine_order(v, jurisdiction="City", tz=tz, printed_at=PRINTED))
    assert format_day(v.last_day) in order and format_day(old.last_day) not in order
    assert format_day(v.certificate_due) in order
    form = text_of(certification_form(v, jurisdiction="City", tz=tz, printed_at=PRINTED))
    assert fmt_datetime(truly, tz) in form and fmt_datetime(written, tz) not in form
    assert fmt_datetime(truly, tz) in order
    assert format_day(v.certificate_due) in form
