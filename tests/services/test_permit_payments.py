"""The permit fee recorded when a permit is issued or renewed: at least the application's
total, how it was paid, the receipt; kept on the issue and in the history."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select, text

from fieldops.db.models import PermitIssue
from fieldops.errors import ValidationError
from fieldops.services.history import record_history
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import ChickenInput, apply_chicken, renew_chicken
from fieldops.services.permits.issuing import issue_permit

FORM = {"hens": 4, "setback_feet": 60, "hoa_exists": False}


@pytest.fixture
def applied(db, operator, profile):
    holder = create_person(
        db, operator, PersonInput(full_name="Hana Novak", address="21 Maple Dr", city="Madison")
    )
    form = ChickenInput(date(2026, 3, 2), 2026, **FORM)  # type: ignore[arg-type]
    return apply_chicken(db, operator, holder.id, holder.address, form, profile)


def _issues(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(PermitIssue)) or 0


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"paid_amount": "1.00"}, "paid_amount"),  # less than the total
        ({"paid_amount": "abc"}, "paid_amount"),
        ({"payment_method": "barter"}, "payment_method"),
        ({"receipt_number": "R" * 31}, "receipt_number"),
    ],
)
def test_a_bad_payment_is_refused_beside_its_field_and_nothing_is_issued(
    db, operator, profile, applied, kw, field
):
    if kw.get("paid_amount") == "1.00":
        assert applied.application.total > Decimal("1.00")
    with pytest.raises(ValidationError) as e:
        issue_permit(db, operator, applied.id, date(2026, 3, 3), profile, **kw)
    assert set(e.value.by_field()) == {field}
    assert _issues(db) == 0


def test_the_payment_is_on_the_issue_and_in_the_history_and_a_renewal_pays_again(
    db, operator, profile, applied
):
    total = applied.application.total
    v = issue_permit(
        db,
        operator,
        applied.id,
        date(2026, 3, 3),
        profile,
        paid_amount=str(total + 5),
        payment_method="check",
        receipt_number="R-77",
    )
    issue = v.issues[-1]
    assert (issue.paid_amount, issue.payment_method, issue.receipt_number) == (
        total + 5,
        "check",
        "R-77",
    )
    lines = record_history(db, "permit", v.id, profile.timezone)
    assert any(h.action == "permit_issued" and "R-77" in h.sentence for h in lines)
    form = ChickenInput(date(2026, 11, 20), 2027, **FORM)  # type: ignore[arg-type]
    v = renew_chicken(db, operator, v.id, form, profile)
    v = issue_permit(db, operator, v.id, date(2026, 11, 25), profile)  # blank: the total, own
    renewal = v.issues[-1]
    assert renewal.paid_amount == v.application.total and renewal.payment_method == "cash"
    assert renewal.receipt_number and renewal.receipt_number.startswith("PT-")


def test_the_payment_cannot_be_changed_afterwards(db, operator, profile, applied):
    issue_permit(db, operator, applied.id, date(2026, 3, 3), profile)
    with pytest.raises(Exception, match=r"(?i)never changed"), db.write() as s:
        s.execute(text("UPDATE permit_issue SET paid_amount = 0"))
