"""The bite-quarantine module's part of the activity summary (issue 11): counts in SQL for the
period and the same period a year earlier, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, days_ago, local_today

from fieldops import modules
from fieldops.services import quarantine as qs


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


def test_the_activity_figures_count_the_period_and_a_year_earlier(db, operator, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    # Ordered before the period, its certificate due in it and not returned.
    qs.report_bite(
        db, operator, bite_input(days_ago(20), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    # The same days a year earlier: one clinic quarantine, its certificate never returned.
    qs.report_bite(
        db, operator, bite_input(days_ago(371), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    other = qs.report_bite(
        db,
        operator,
        bite_input(days_ago(4), species="other", animal_description="Bat", owner_unknown=True),
        PROFILE,
    )
    qs.record_referral_sent(db, operator, other.bite_report_id, days_ago(3), "Dr. Health")
    sections = {
        s.title: {f.label: (f.value, f.year_earlier) for f in s.figures}
        for s in modules.activity_sections(db, local_today() - timedelta(days=10), local_today())
        if "quarantine" in s.title.lower()
        or "referred" in s.title.lower()
        or "Certificates" in s.title
    }
    assert sections["Bite quarantines ordered, by placement"]["At a clinic"] == (1, 1)
    assert sections["Bite quarantines ordered, by placement"]["At home"] == (0, 0)
    assert sections["Bite quarantines ordered, by outcome"]["Open"] == (1, 1)
    referred = sections["Bites referred to the health officer (not a dog or cat)"]
    assert referred == {"Bites to refer": (1, 0), "Referrals sent": (1, 0)}
    assert sections["Certificates of quarantine"] == {
        "Due in the period and not returned on time": (1, 0)
    }


def test_the_log_reads_its_rows_on_both_databases(db, operator, supervisor, rex):
    from fieldops.services.context import now

    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    qs.record_exam(
        db,
        operator,
        r.quarantine_id,
        qs.ExamInput(days_ago(3).date(), "Dr. Kim", "no_signs", Decimal("0.00")),
        PROFILE,
    )
    qs.correct_record(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "place",
        "Olin Park",
        "typo",
    )
    out = modules.report_kind("quarantine-log").build(
        modules.ReportRequest(
            db, local_today() - timedelta(days=7), local_today(), PROFILE, now(), "Sam"
        )
    )
    (row,) = out.table.rows
    assert row[1] == "Olin Park" and row[6] == "1 of 3" and row[7] == "Open"
    assert row[5] == "clinic: Eastside Veterinary Clinic"


def test_a_certificate_not_yet_due_is_not_counted_as_late(db, operator, supervisor, rex):
    """A summary of the whole year printed in December: the certificates due later in the
    month are not late yet; one due last week and never returned is."""
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    for ago in (20, 5, 2):  # due 5 days ago; in 10 days; in 13 days
        qs.report_bite(
            db, operator, bite_input(days_ago(ago), animal_id=rex.id, clinic_id=clinic.id), PROFILE
        )
    today = local_today()
    (section,) = [
        s
        for s in modules.activity_sections(db, today - timedelta(days=30), today + timedelta(30))
        if s.title == "Certificates of quarantine"
    ]
    assert [(f.value, f.year_earlier) for f in section.figures] == [(1, 0)]
