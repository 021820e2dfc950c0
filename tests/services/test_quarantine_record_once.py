"""One quarantine's record view reads each row of its case once (issue 14): the view and its
fees used to read the bite report, its events, its exams and its corrections two or three
times, and the payment lines twice, one statement each. The view must be the one the two
separate reads give, on SQLite and PostgreSQL, with and without each part."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, timedelta
from decimal import Decimal

import pytest
from due_support import sent_selects
from quarantine_support import PROFILE, bite_input, day, days_ago, exam, local_today

from fieldops.db.models import Quarantine
from fieldops.services import quarantine as qs
from fieldops.services.context import fetch, now
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.quarantine.fees import Fees, charges_of, fees_in
from fieldops.services.quarantine.views import quarantine_view


@pytest.fixture
def operator(supervisor):
    """The pound's counter and the officer's bite work: a supervisor may do both."""
    return supervisor


@pytest.fixture
def selects(db):
    with sent_selects(db, lambda statement, parameters: (statement, repr(parameters))) as sent:
        yield sent


def _old_view(db, qid, today):
    """The view as its parts read it on their own (each reading the case again)."""
    with db.read() as s:
        q = fetch(s, Quarantine, qid)
        view = quarantine_view(s, q, PROFILE, today)
        alone = fees_in(s, q, PROFILE, now())
        return replace(view, fees=Fees(charges_of(s, q, now(), PROFILE), alone.payments))


def _same(db, qid, selects):
    today = local_today()
    expected = _old_view(db, qid, today)
    selects.clear()
    got = qs.get_quarantine(db, qid, PROFILE, today)
    assert got == expected
    twice = [" ".join(q[0].split())[:200] for q in set(selects) if selects.count(q) > 1]
    assert twice == [], "sent twice"
    return got


def test_a_clinic_quarantine_without_exams_corrections_or_payments(db, operator, rex, selects):
    vets = qs.create_clinic(db, operator, qs.ClinicInput("Eastside Veterinary Clinic"))
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=vets.id), PROFILE
    )
    view = _same(db, r.quarantine_id, selects)
    assert view.fees.charges == () and view.fees.payments == ()


def test_a_pound_quarantine_with_exams_a_correction_and_a_part_payment(
    db, operator, rex, impound, selects
):
    pound = qs.create_clinic(
        db, operator, qs.ClinicInput("City Animal Control Pound", is_pound=True)
    )
    r = qs.report_bite(
        db, operator, bite_input(days_ago(12, 8), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid = r.quarantine_id
    qs.record_delivery(db, operator, qid, days_ago(12, 12), PROFILE)
    for on in (day(12), day(7)):
        exam(db, operator, qid, on, clinic=pound.id)
    qs.correct_record(
        db,
        operator,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "bitten_at",
        days_ago(12, 7).astimezone(UTC).isoformat(),
        "mistyped",
        PROFILE,
    )
    imp = impound(rex.id, days_ago(3))
    at = now() - timedelta(minutes=2)
    first = next(f for f in quote(db, imp.id, at, True, PROFILE).lines if ":exam:" in f.charge)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(
            (LineInput(first.kind, first.amount, first.label, first.charge),),
            "cash",
            "R-1",
            payer_id=rex.owner_id,
            paid_at=at,
        ),
        PROFILE,
    )
    view = _same(db, qid, selects)
    paid = {c.code: c.paid for c in view.fees.charges}
    assert paid[first.charge] == first.amount == Decimal("45.00")
    assert sum(paid.values()) == Decimal("45.00") and len(view.fees.payments) == 1
    assert view.bite.bitten_at == days_ago(12, 7)  # the correction in force
