"""The contact of the person bitten is kept private to the case (issue 9): not in the shared
people registry, the audit data, the list, Today or any document; read only through
``bite_victim_contact``. On SQLite and PostgreSQL."""

from __future__ import annotations

import io
from dataclasses import asdict

import pytest
from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import select, text

from fieldops import modules
from fieldops.db.models import Person
from fieldops.reports.quarantine import certification_form, quarantine_order
from fieldops.services import quarantine as qs
from fieldops.services.context import now


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


CONTACT = "608-555-0199, 4 Secret Lane"


def _pdf_text(content: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)


def test_the_contact_stays_on_the_case(db, operator, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    r = qs.report_bite(
        db,
        operator,
        bite_input(days_ago(20), animal_id=rex.id, clinic_id=clinic.id, victim_contact=CONTACT),
        PROFILE,
    )
    other = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(2),
            species="other",
            animal_description="Bat",
            owner_unknown=True,
            victim_contact=CONTACT,
        ),
        PROFILE,
    )
    assert qs.bite_victim_contact(db, operator, r.bite_report_id) == CONTACT
    view = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert CONTACT not in repr(view) and view.bite.has_victim_contact
    assert CONTACT not in repr(qs.get_bite(db, other.bite_report_id, PROFILE))
    with db.read() as s:
        audit = " ".join(
            str(x) for x in s.execute(text("SELECT before, after, reason FROM audit_event")).all()
        )
        people = list(s.scalars(select(Person.full_name)))
    assert "Secret" not in audit
    with db.read() as s:  # who looked at the contact is on the audit trail (issue 12)
        reads = s.execute(
            text("SELECT actor, entity_id FROM audit_event WHERE action = 'read:victim_contact'")
        ).all()
    assert [tuple(row) for row in reads] == [(operator.username, r.bite_report_id)]
    assert "Jack O'Brien" not in people  # the person bitten is not put in the registry
    page = qs.quarantine_page(db, qs.QuarantineFilter("all"), local_today(), PROFILE, 0, 50)
    assert CONTACT not in repr(page) and "Secret" not in repr(page)
    assert qs.quarantine_ids(db, qs.QuarantineFilter("all", text="Secret"), local_today()) == ()
    due = modules.due_items(db, local_today(), PROFILE)
    assert due and not any("Secret" in i.text for i in due)
    for render in (quarantine_order, certification_form):
        pdf = render(view, jurisdiction="City", tz=PROFILE.timezone, printed_at=now())
        assert "Secret" not in _pdf_text(pdf)
    assert "Secret" not in repr([asdict(x) for x in qs.week_schedule(db, local_today(), PROFILE)])
