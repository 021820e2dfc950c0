"""A clinic quarantine at the pound is paid at the pound's counter (issue 9, "Fees"): the
pound's payment form offers the quarantine's unpaid lines, and the quarantine's Payments tab
shows what is owed, what was paid, by whom and when."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.services import quarantine as qs
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from ui.impounds.payment_dialog import PaymentDialog
from ui.quarantine import opening


def _shown(name: str) -> QWidget | None:
    found = [w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()]
    return found[-1] if found else None


@pytest.fixture
def counter(qapp, sqlite_db, supervisor, errors):
    """The pound's counter, where the quarantine's fees are paid: payments are a pound
    operator's or a supervisor's (issue 12), the bite work beside them an officer's."""
    from quarantine_support import local_today

    from ui.app import build_context, configure_application

    configure_application(qapp)
    context = build_context(sqlite_db, supervisor, today=local_today, errors=errors)
    yield context
    context.shutdown()
    QApplication.processEvents()


def test_the_pound_takes_the_quarantines_fees_and_the_record_shows_them(
    qtbot, counter, host, bites, supervisor, operator
):
    ctx = counter
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
        supervisor,
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


def test_a_supervisor_corrects_a_fee_and_the_record_shows_it(
    qtbot, qapp, sqlite_db, supervisor, operator, errors, bites
):
    from ui.app import build_context
    from ui.quarantine.record_dialog import QuarantineDialog

    db = bites.db
    r = qs.report_bite(
        db,
        operator,
        bite_input(days_ago(2, 8), animal_id=bites.tom.id, clinic_id=bites.clinic.id),
        PROFILE,
    )
    exam(db, operator, r.quarantine_id, day(2), fee="450.00")
    ctx = build_context(db, supervisor, errors=errors)
    try:
        record = QuarantineDialog(ctx, qs.get_quarantine(db, r.quarantine_id, PROFILE))
        qtbot.addWidget(record)
        assert record.correct_button.isEnabled()
        dialog = record.open_correction()
        dialog.what.setCurrentIndex(dialog.what.findText("fee", Qt.MatchFlag.MatchContains))
        assert dialog.current.text() == "$450.00"
        dialog.new_value.setText("45.00")
        dialog.save_button.click()  # no reason: refused beside the field, nothing written
        qtbot.waitUntil(lambda: dialog.fields.error_text("reason") != "", timeout=10_000)
        dialog.reason.setText("An extra zero was typed")
        dialog.save_button.click()
        qtbot.waitUntil(lambda: record.view.exams[0].fee == Decimal("45.00"), timeout=10_000)
        assert record.exams.rowCount() == 1
    finally:
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        ctx.shutdown()
        QApplication.processEvents()


def test_an_operator_cannot_open_a_correction(qtbot, ctx, bites, operator):
    from ui.quarantine.record_dialog import QuarantineDialog

    r = qs.report_bite(
        bites.db,
        operator,
        bite_input(days_ago(2, 8), animal_id=bites.tom.id, clinic_id=bites.clinic.id),
        PROFILE,
    )
    record = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE))
    qtbot.addWidget(record)
    assert not record.correct_button.isEnabled()


def test_the_contact_of_the_person_bitten_shows_only_when_asked(qtbot, ctx, bites, operator):
    from ui.quarantine.record_dialog import QuarantineDialog

    r = qs.report_bite(
        bites.db,
        operator,
        bite_input(days_ago(2, 8), animal_id=bites.tom.id, clinic_id=bites.clinic.id),
        PROFILE,
    )
    record = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE))
    qtbot.addWidget(record)
    assert "608-555-0199" not in record.bite.text()
    assert record.contact.value.text() == "hidden"
    record.contact.show_button.click()
    qtbot.waitUntil(lambda: record.contact.value.text() == "608-555-0199", timeout=10_000)
    assert not record.contact.show_button.isEnabled()
