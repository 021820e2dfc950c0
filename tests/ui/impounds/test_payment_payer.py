"""Who pays, and for what, follows the release being made (issue 7, item 4).

The owner pays the impound fee (doubled on a repeat) and boarding; someone
else pays the impound fee (never doubled), boarding and the adoption fee.
"""

from __future__ import annotations

import pytest
from support import local

from ui.impounds import opening


@pytest.fixture
def open_record(ctx, host, wait_dialog, wait_idle):
    def open_(impoundment_id: int):
        opening.open_impoundment(ctx, impoundment_id, host)
        record = wait_dialog("ImpoundmentDialog")
        wait_idle()
        return record

    return open_


def lines(payment):
    items = payment.line_items
    return [(items.row(i).value().kind, items.row(i).value().amount) for i in range(items.count())]


def test_the_fees_tab_bills_the_owner_only_for_the_owners_fees(
    qtbot, open_record, pound, wait_dialog, wait_idle
):
    tom = pound.animal("Tom", species="cat", owner=pound.bo)
    stray = pound.impound(tom, local(2026, 11, 12, 9, 30))
    record = open_record(stray.id)
    record.fees.record_button.click()
    payment = wait_dialog("PaymentDialog")
    assert payment.payer.person_id() == pound.bo.id
    assert [k for k, _ in lines(payment)] == ["impound", "boarding"]
    payment.close()

    record.fees.for_other.setChecked(True)
    wait_idle()
    record.fees.record_button.click()
    payment = wait_dialog("PaymentDialog")
    # Someone else's fees, with the adoption fee: never billed to the owner by default.
    assert payment.payer.person_id() is None
    assert [k for k, _ in lines(payment)] == ["impound", "boarding", "adoption"]
    payment.close()
    record.close()


def test_the_wizard_bills_the_adopter_and_the_owner_each_for_their_release(
    qtbot, open_record, pound, wait_dialog, wait_idle
):
    rex = pound.animal("Rex", owner=pound.ana, breed="Beagle")
    first = pound.impound(rex, local(2026, 10, 20, 10, 0))
    pound.pay_all(first, local(2026, 10, 21, 10, 0), True, pound.ana)
    pound.vaccinate(rex)
    pound.release(
        first,
        pound.ReleaseRequest(
            True, pound.ana.id, at=local(2026, 10, 21, 10, 0), licence_receipt="L-1"
        ),
    )
    again = pound.impound(rex, local(2026, 11, 12, 16, 0))  # a repeat; the hold is over
    record = open_record(again.id)
    wizard = record.open_release()
    wizard.who.to_other.setChecked(True)
    wizard.who.recipient.set_person(pound.bo.id, pound.bo.full_name)
    wizard.next()
    qtbot.waitUntil(wizard.requirements.is_checked, timeout=10_000)
    wizard.requirements.pay_button.click()
    payment = wait_dialog("PaymentDialog")
    assert payment.payer.person_id() == pound.bo.id
    assert lines(payment) == [
        ("impound", "40.00"),
        ("boarding", "225.00"),
        ("adoption", "75.00"),
    ]  # the impound fee is not doubled
    payment.close()
    wizard.back()
    wizard.who.to_owner.setChecked(True)
    wizard.next()
    qtbot.waitUntil(wizard.requirements.is_checked, timeout=10_000)
    wait_idle()
    wizard.requirements.pay_button.click()
    payment = wait_dialog("PaymentDialog")
    assert payment.payer.person_id() == pound.ana.id
    assert lines(payment) == [("impound", "80.00"), ("boarding", "225.00")]  # doubled for her
    payment.close()
    wizard.reject()
    record.close()
