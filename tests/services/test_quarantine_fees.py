"""A clinic quarantine at the pound is paid before release, through the pound's payment
lines (city code 58-527(c), (e); issue 9 "Fees"), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.errors import ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.context import now
from fieldops.services.dispositions import (
    ReleaseRequest,
    RequirementsNotMet,
    release,
    release_check,
)
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment


@pytest.fixture
def operator(supervisor):
    """This walk crosses the pound's counter and the officer's bite work: a supervisor may do
    both (issue 12's roles; tests/services/test_role_matrix.py checks each role apart)."""
    return supervisor


@pytest.fixture
def pound(db, supervisor):
    return qs.create_clinic(
        db, supervisor, qs.ClinicInput("City Animal Control Pound", is_pound=True)
    )


@pytest.fixture
def vets(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))


def _pay(db, operator, imp_id, lines, receipt, payer_id, at):
    return record_payment(
        db,
        operator,
        imp_id,
        PaymentInput(tuple(lines), "cash", receipt, payer_id=payer_id, paid_at=at),
        PROFILE,
    )


def _quarantine_at_pound(db, operator, rex, pound):
    """Rex bit without proof of vaccination: 10 days at the pound, three exams there."""
    r = qs.report_bite(
        db, operator, bite_input(days_ago(12, 8), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid = r.quarantine_id
    qs.record_delivery(db, operator, qid, days_ago(12, 12), PROFILE)
    for on in (day(12), day(7), day(2)):
        exam(db, operator, qid, on, clinic=pound.id)
    return qid


def test_boarding_and_exams_at_the_pound_are_owed_and_refuse_the_release_until_paid(
    db, operator, rex, impound, pound
):
    qid = _quarantine_at_pound(db, operator, rex, pound)
    # The owner did not collect Rex: the pound impounded him three days ago.
    imp = impound(rex.id, days_ago(3))
    qs.release_certified(db, operator, qid, days_ago(2, 16), "Dr. Kim", PROFILE)
    fees = qs.quarantine_fees(db, qid, PROFILE)
    board = next(c for c in fees.charges if c.code.endswith(":boarding"))
    # Day 12 to day 2 is 10 days; the day the impoundment already charges is left out.
    assert (board.amount, board.kind) == (Decimal("135.00"), "boarding")
    assert "already charged" in board.why
    assert [c.amount for c in fees.charges if ":exam:" in c.code] == [Decimal("45.00")] * 3
    assert fees.balance == Decimal("270.00") and all(c.at_pound for c in fees.charges)

    at = now() - timedelta(minutes=2)
    summary = quote(db, imp.id, at, True, PROFILE)
    theirs = [f for f in summary.lines if f.charge]
    assert {f.charge for f in theirs} == {c.code for c in fees.charges}
    own = [f for f in summary.lines if not f.charge]
    _pay(db, operator, imp.id, [LineInput(f.kind, f.amount) for f in own], "R-1", rex.owner_id, at)
    req = ReleaseRequest(True, rex.owner_id, at=at, rabies_certificate="RV-1", licence_receipt="L")
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, PROFILE)}
    assert not checked["fees_paid"].met and "$270.00" not in checked["fees_paid"].evidence
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, PROFILE)
    assert {r.code for r in exc.value.requirements} == {"fees_paid"}

    after = _pay(
        db,
        operator,
        imp.id,
        [LineInput(f.kind, f.amount, f.label, f.charge) for f in theirs],
        "R-2",
        rex.owner_id,
        at,
    )
    assert after.balance == 0
    fees = qs.quarantine_fees(db, qid, PROFILE)
    assert fees.balance == 0 and fees.paid == Decimal("270.00")
    assert {(p.receipt_number, p.payer) for p in fees.payments} == {("R-2", "Ana Ruiz")}
    assert release(db, operator, imp.id, req, PROFILE).disposition.kind == "reclaimed"


def test_a_stray_quarantined_in_the_pound_is_not_charged_boarding_twice(
    db, operator, rex, impound, pound
):
    imp = impound(rex.id, days_ago(5), reason="bite", bit_person=True)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(5) - timedelta(hours=2),
            impoundment_id=imp.id,
            owner_unknown=True,
            clinic_id=pound.id,
            ordered_at=days_ago(5),
        ),
        PROFILE,
    )
    qs.record_delivery(db, operator, r.quarantine_id, days_ago(5) + timedelta(minutes=5), PROFILE)
    exam(db, operator, r.quarantine_id, day(5), clinic=pound.id)
    fees = qs.quarantine_fees(db, r.quarantine_id, PROFILE)
    assert [c.kind for c in fees.charges] == ["other"]  # the exam; boarding is the pound's
    summary = quote(db, imp.id, now(), True, PROFILE)
    assert sum(f.amount for f in summary.lines if f.charge) == Decimal("45.00")
    # Someone adopting the animal does not pay the owner's quarantine costs (58-527(e)).
    assert not [f for f in quote(db, imp.id, now(), False, PROFILE).lines if f.charge]


def test_exams_at_another_clinic_are_paid_there_and_never_reach_the_pound(
    db, operator, rex, impound, vets
):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(4, 8), animal_id=rex.id, clinic_id=vets.id), PROFILE
    )
    qs.record_delivery(db, operator, r.quarantine_id, days_ago(4, 12), PROFILE)
    exam(db, operator, r.quarantine_id, day(4), clinic=vets.id)
    fees = qs.quarantine_fees(db, r.quarantine_id, PROFILE)
    assert [(c.amount, c.at_pound) for c in fees.charges] == [(Decimal("45.00"), False)]
    assert fees.balance == 0
    imp = impound(rex.id, days_ago(1))
    assert not [f for f in quote(db, imp.id, now(), True, PROFILE).lines if f.charge]


def test_a_payment_naming_a_charge_not_owed_is_refused(db, operator, rex, impound, pound):
    imp = impound(rex.id, days_ago(1))
    with pytest.raises(ValidationError) as exc:
        _pay(
            db,
            operator,
            imp.id,
            [LineInput("other", "10.00", "exam", "quarantine:999:exam:1")],
            "R-3",
            None,
            now() - timedelta(minutes=1),
        )
    assert {e.field for e in exc.value.errors} == {"lines.0.kind"}
    assert quote(db, imp.id, now(), True, PROFILE).paid == 0
