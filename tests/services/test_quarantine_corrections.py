"""Correcting a mistaken bite report, exam or event (issue 9, "nothing is edited in place"): a
supervisor's new, audited correction with a reason; the record shows the corrected value and the
history both. On SQLite and PostgreSQL."""

from __future__ import annotations

from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.history import record_history


@pytest.fixture
def operator(officer):
    """Bites and quarantines are an officer's work (issue 12's roles)."""
    return officer


@pytest.fixture
def case(db, operator, supervisor, rex):
    pound = qs.create_clinic(
        db, supervisor, qs.ClinicInput("City Animal Control Pound", is_pound=True)
    )
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qs.record_delivery(db, operator, r.quarantine_id, days_ago(3, 14), PROFILE, notes="by van")
    exam(db, operator, r.quarantine_id, day(3), fee="450.00")
    return qs.get_quarantine(db, r.quarantine_id, PROFILE)


def fields(exc) -> set[str]:
    return {e.field for e in exc.value.errors}


def test_a_supervisor_corrects_the_report_an_exam_and_an_event(db, supervisor, case):
    bite, x, e = case.bite, case.exams[0], case.events[0]
    qs.correct_record(db, supervisor, bite.id, "bite_report", bite.id, "place", "Olin Park", "typo")
    qs.correct_record(db, supervisor, bite.id, "exam", x.id, "fee", "45", "an extra zero")
    qs.correct_record(db, supervisor, bite.id, "event", e.id, "notes", "by car", "wrong vehicle")
    v = qs.get_quarantine(db, case.id, PROFILE)
    assert v.bite.place == "Olin Park" and v.exams[0].fee == Decimal("45.00")
    assert v.events[0].notes == "by car" and v.exam_fees == Decimal("45.00")
    # What is owed at the pound follows the corrected fee.
    assert [c.amount for c in v.fees.charges if ":exam:" in c.code] == [Decimal("45.00")]
    # A second correction of the same field wins; each one is in the history with both values.
    qs.correct_record(db, supervisor, bite.id, "bite_report", bite.id, "place", "Olin Park N", "x")
    assert qs.get_quarantine(db, case.id, PROFILE).bite.place == "Olin Park N"
    rows = record_history(db, "quarantine", case.id, PROFILE.timezone)
    said = [h for h in rows if h.action == "quarantine_correction"]
    assert len(said) == 4
    assert any("Tenney Park" in h.sentence and "Olin Park" in h.sentence for h in said)
    assert any(h.reason == "an extra zero" for h in said)
    # The original rows are untouched, and the corrections cannot be changed either.
    with db.read() as s:
        assert s.execute(text("SELECT place FROM bite_report")).scalar_one() == "Tenney Park"
    for statement in (
        "UPDATE quarantine_correction SET reason = 'x'",
        "DELETE FROM quarantine_correction",
    ):
        with pytest.raises(DatabaseError, match="never changed"), db.write() as s:
            s.execute(text(statement))


def test_only_a_supervisor_corrects_and_always_with_a_reason(db, operator, supervisor, case):
    bite = case.bite
    with pytest.raises(PermissionDeniedError):
        qs.correct_record(db, operator, bite.id, "bite_report", bite.id, "place", "X", "typo")
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(db, supervisor, bite.id, "bite_report", bite.id, "place", "", " ")
    assert fields(exc) == {"new_value", "reason"}
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(db, supervisor, bite.id, "exam", case.exams[0].id, "fee", "-3", "r")
    assert fields(exc) == {"new_value"}
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(
            db, supervisor, bite.id, "bite_report", bite.id, "bitten_at", "x", "r", PROFILE
        )
    assert fields(exc) == {"new_value"}  # the time of the bite is correctable now (issue 9)
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(db, supervisor, bite.id, "bite_report", bite.id, "species", "cat", "r")
    assert fields(exc) == {"field"}
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(db, supervisor, bite.id, "event", 9999, "notes", "x", "r")
    assert fields(exc) == {"target"}
    with pytest.raises(ValidationError) as exc:
        qs.correct_record(
            db, supervisor, bite.id, "bite_report", bite.id, "place", "Tenney Park", "r"
        )
    assert fields(exc) == {"new_value"}
    with db.read() as s:
        assert s.execute(text("SELECT count(*) FROM quarantine_correction")).scalar_one() == 0
