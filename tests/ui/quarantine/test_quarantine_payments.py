"""A clinic quarantine at the pound is paid at the pound's counter (issue 9, "Fees"): the
pound's payment form offers the quarantine's unpaid lines, and the quarantine's Payments tab
shows what is owed, what was paid, by whom and when."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtWidgets import QApplication, QWidget
from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.services import quarantine as qs
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from ui.impounds.payment_dialog import PaymentDialog
from ui.quarantine import opening


def _shown(name: str) -> QWidget | None:
    found = [w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()]
    return found[-1] if found else None


def test_the_pound_takes_the_quarantines_fees_and_the_record_shows_them(
    qtbot, ctx, host, bites, supervisor, operator
):
    db = bites.db
    pound = qs.create_clinic(db, supervisor, qs.ClinicInput("The Pound", is_pound=True))
    # Tom (no proof of vaccination) quarantined at the pound, examined there.
    r = qs.report_bite(
        db,
        operator,
        bite_input(days_ago(4, 8), animal_id=bites.tom.id, clinic_id=pound.id),
        PROFILE,
    )
    qid = r.quarantine_id
    qs.record_delivery(db, operator, qid, days_ago(4, 12), PROFILE)
    exam(db, operator, qid, day(4), clinic=pound.id)
    imp = intake(
        db,
        operator,
        IntakeInput(
            days_ago(1), "Off. Dana Lee", "at_large", animal_id=bites.tom.id, found_place="Elm St"
        ),
        PROFILE,
    )
    view = get_impoundment(db, imp.id, PROFILE)
    dialog = PaymentDialog(ctx, view, view.fees, host)
    dialog.show()
    items = dialog.line_items
    rows = [items.row(i).value() for i in range(items.count())]
    theirs = [x for x in rows if x.charge]
    # The exam and the 3 days' boarding before the impoundment (cat, $12.00 a day).
    assert sorted(Decimal(x.amount) for x in theirs) == [Decimal("36.00"), Decimal("45.00")]
    assert all(x.charge.startswith(f"quarantine:{qid}:") for x in theirs)
    dialog.receipt_number.setText("R-77")
    dialog.save_button.click()
    qtbot.waitUntil(lambda: _shown("PaymentDialog") is None, timeout=10_000)
    assert get_impoundment(db, imp.id, PROFILE).fees.balance == 0

    opening.open_quarantine(ctx, qid, host)
    qtbot.waitUntil(lambda: _shown("QuarantineDialog") is not None, timeout=10_000)
    record = _shown("QuarantineDialog")
    record.tabs.setCurrentWidget(record.payments)
    assert record.payments.charges.rowCount() == 2
    assert record.payments.payments.rowCount() == 2
    assert "Balance due $0.00" in record.payments.totals.text()
    record.close()
