"""The quarantine order and the certification of quarantine (city code 58-527; issue 9),
checked by their text, with a hostile name in every user field."""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.reports.quarantine import certification_form, quarantine_order
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person

HOSTILE = "O'Brien & <Sons>"
CHICAGO = ZoneInfo("America/Chicago")
PRINTED = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(BytesIO(pdf)).pages)


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    records printed here are recorded by one."""
    return officer


@pytest.fixture
def case(sqlite_db, operator, supervisor):
    db = sqlite_db
    owner = create_person(
        db, operator, PersonInput(full_name=HOSTILE, address="1 <b>Elm</b> St", city="Madison")
    )
    dog = create_animal(
        db, operator, AnimalInput(species="dog", name=HOSTILE, owner_id=owner.id), today=day(0)
    )
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput(f"{HOSTILE} Clinic", "2 Vet Way"))

    def make(proof: bool):
        kw = (
            {
                "rabies_certificate": "RV-1",
                "rabies_vaccinated_on": day(100),
                "rabies_expires_on": day(-100),
            }
            if proof
            else {"clinic_id": clinic.id}
        )
        r = qs.report_bite(
            db,
            operator,
            bite_input(days_ago(3), animal_id=dog.id, place=HOSTILE, victim_name=HOSTILE, **kw),
            PROFILE,
        )
        exam(db, operator, r.quarantine_id, day(3), vet=HOSTILE)
        return qs.get_quarantine(db, r.quarantine_id, PROFILE)

    return make


def test_the_home_order_states_the_conditions_dates_and_ordinance(case):
    v = case(proof=True)
    text = text_of(quarantine_order(v, jurisdiction=HOSTILE, tz=CHICAGO, printed_at=PRINTED))
    assert "Order of rabies quarantine" in text and f"Quarantine no. {v.id}" in text
    assert HOSTILE in text and "&amp;" not in text and "&lt;" not in text
    assert "confined, tied, leashed or muzzled" in text
    from fieldops.rules import format_day

    for d in (v.last_day, v.certificate_due, v.first_exam_day):
        assert format_day(d) in text  # with the weekday
    assert "(d) An owner of a quarantined animals shall return" in text
    assert "608-555-0199" not in text  # the bitten person's contact stays private
    # The owner reads the law it rests on, never the developers' specification.
    assert "RULES.md" not in text and "Do not damage the head" in text


def test_the_clinic_order_names_the_clinic_and_its_delivery_deadline(case):
    v = case(proof=False)
    text = text_of(quarantine_order(v, jurisdiction="City", tz=CHICAGO, printed_at=PRINTED))
    assert f"{HOSTILE} Clinic" in text and "Deliver the animal by" in text
    assert "24 real hours" in text
    assert "before the animal is released" in text


def test_the_certification_form_lists_the_exams_and_the_return_date(case):
    from fieldops.rules import format_day

    v = case(proof=False)
    text = text_of(certification_form(v, jurisdiction="City", tz=CHICAGO, printed_at=PRINTED))
    assert "Certification of quarantine" in text and format_day(v.certificate_due) in text
    assert "First examination" in text and HOSTILE in text  # the veterinarian of the first
    assert "no signs of rabies" in text and "Signature" in text
    assert "608-555-0199" not in text
