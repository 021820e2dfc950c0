"""The impoundment record: the hold and why, history, kennel, and the other dispositions."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from support import local

from ui.impounds import opening
from ui.impounds.documents import DocumentsWidget


@pytest.fixture
def open_record(ctx, host, wait_dialog, wait_idle):
    def open_(impoundment_id: int):
        opening.open_impoundment(ctx, impoundment_id, host)
        record = wait_dialog("ImpoundmentDialog")
        wait_idle()
        return record

    return open_


@pytest.fixture
def biter(pound):
    """A dog that bit someone, impounded Wed 25 Nov: a 10-day hold, to Mon 7 Dec."""
    max_ = pound.animal("Max", breed="Boxer", owner=pound.bo)
    return pound.impound(
        max_, local(2026, 11, 25, 14, 30), reason="bite", bit_person=True, kennel="ISO-1"
    )


@pytest.fixture
def past_hold(pound):
    """Impounded Thu 12 Nov; the owner could claim until Thu 19 Nov."""
    return pound.impound(pound.animal("Penny", breed="Husky"), local(2026, 11, 12, 9, 30))


def test_the_hold_counts_down_and_says_why(qtbot, open_record, biter):
    record = open_record(biter.id)
    hold = record.summary.hold
    assert record.countdown.text() == "8 days left in the hold."
    assert hold.pairs.value("Custody day") == "Wed 25 Nov 2026"
    assert hold.pairs.value("Owner may claim until") == "Sat 5 Dec 2026 (end of the day)"
    assert hold.pairs.value("May go to others from") == (
        "Sun 6 Dec 2026 12:00 AM CST (start of the day)"
    )
    assert hold.pairs.value("Hold length") == "10 days, because the animal bit a person"
    assert hold.why.isHidden()
    qtbot.mouseClick(hold.why_button, Qt.MouseButton.LeftButton)
    assert not hold.why.isHidden()
    assert hold.why.text().startswith(
        "Owner may claim until Sat 5 Dec 2026: 10 days after impoundment on 25 Nov"
    )
    assert "the animal bit a person" in hold.why.text()
    assert (
        "May be adopted by someone else or humanely destroyed from the start of Sun 6 Dec"
        in hold.why.text()
    )
    assert record.summary.impoundment.value("Impounded at") == "Wed 25 Nov 2026 2:30 PM CST"
    record.close()


def test_history_and_a_kennel_move(qtbot, open_record, biter, wait_idle, qtmodeltester):
    record = open_record(biter.id)
    record.summary.kennel.setText("ISO-2")
    qtbot.mouseClick(record.summary.move_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert record.view().kennel == "ISO-2"
    assert record.banner.text() == "Kennel changed."
    what = [record.history_model.index(r, 2).data() for r in range(record.history_model.rowCount())]
    assert what == ["Changed", "Impounded"]
    qtmodeltester.check(record.history_model)
    qtmodeltester.check(record.fees.fee_model)
    qtmodeltester.check(record.fees.payment_model)
    record.close()


def test_humane_destruction_is_refused_before_the_hold_ends(
    qtbot, open_record, biter, wait_idle, wait_dialog, errors
):
    # Issue 7.2: the dialog asks why and who decided; "the hold ended" is refused on its
    # field before the hold ends, and only a veterinarian's or officer's finding allows it.
    record = open_record(biter.id)
    record.other_actions["euthanized"].trigger()
    dialog = wait_dialog("DispositionDialog")
    dialog.basis.setCurrentIndex(dialog.basis.findData("hold_ended"))
    qtbot.keyClicks(dialog.decided_by, "Sgt. Ortiz, officer")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert dialog.isVisible()
    assert dialog.fields.error_text("basis") == (
        "The hold has not ended: it ends at Sun 6 Dec 2026 12:00 AM CST (start of the day). "
        "Before then, humane destruction needs a veterinarian's or officer's finding that the "
        "animal is hopelessly injured or an imminent threat."
    )
    assert record.view().in_custody
    # With the finding of an imminent threat it is allowed, and the body is kept for a necropsy.
    dialog.basis.setCurrentIndex(dialog.basis.findData("imminent_threat"))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert dialog.fields.error_text("notes").startswith("Record what the veterinarian or officer")
    qtbot.keyClicks(dialog.notes, "Dr. Kim: aggressive, imminent threat to staff")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert "Record the humane destruction of #" in errors.questions[-1]
    assert "Max" in errors.questions[-1]
    assert record.view().disposition.label == "Euthanized"
    assert record.summary.disposition.value("Preserve for necropsy until") == "Fri 4 Dec 2026"
    assert record.summary.disposition.value("Basis").startswith("An imminent threat")
    assert record.summary.disposition.value("Decided by") == "Sgt. Ortiz, officer"
    assert record.summary.disposition.value("Hopelessly injured or imminent threat") == "Yes"
    assert not record.other_button.isEnabled()
    record.close()


def test_a_transfer_after_the_hold(qtbot, open_record, past_hold, wait_idle, wait_dialog):
    record = open_record(past_hold.id)
    dialog = record.open_disposition("transferred")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert dialog.fields.error_text("transfer_to") != ""
    qtbot.keyClicks(dialog.transfer_to, "Dane County Humane Society")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert record.summary.disposition.value("Transferred to") == "Dane County Humane Society"
    assert record.status_chip.text() == "Transferred"
    assert not record.documents.receipt_button.isEnabled()  # not a release to a person
    record.close()


@pytest.mark.parametrize(
    ("kind", "label", "notes"),
    [
        ("died", "Died", "Found dead in kennel; vet notified"),
        ("escaped", "Escaped", "Slipped the lead in the yard"),
    ],
)
def test_death_and_escape_need_their_circumstances(
    qtbot, open_record, past_hold, wait_idle, kind, label, notes
):
    record = open_record(past_hold.id)
    dialog = record.open_disposition(kind)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert dialog.fields.is_marked("notes")
    qtbot.keyClicks(dialog.notes, notes)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert record.view().disposition.label == label
    assert record.summary.disposition.value("Notes") == notes
    record.close()


def test_the_record_sheet_prints(qtbot, open_record, biter, wait_idle, monkeypatch, tmp_path):
    record = open_record(biter.id)
    # Not beside the test database: no document is saved in the database's folder.
    (tmp_path / "documents").mkdir()
    out = tmp_path / "documents" / "sheet.pdf"
    monkeypatch.setattr(DocumentsWidget, "ask_save_path", lambda self, name: str(out))
    qtbot.mouseClick(record.documents.sheet_button, Qt.MouseButton.LeftButton)
    wait_idle()
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Max" in text and "Boxer" in text and "ISO-1" in text
    assert not record.documents.receipt_button.isEnabled()
    record.close()


def test_a_payment_shows_its_errors_beside_each_line(qtbot, open_record, biter, wait_idle):
    record = open_record(biter.id)
    payment = record.open_payment()
    items = payment.line_items
    assert [items.row(i).value().amount for i in range(items.count())] == ["40.00", "30.00"]
    items.row(1).amount.setText("ten")
    extra = items.add_line("other", "5.00")
    assert items.total.text() == "Total: check the amounts"
    qtbot.mouseClick(payment.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert payment.fields.error_text("lines.1.amount") == (
        "Enter an amount in dollars and cents, e.g. 40.00."
    )
    assert payment.fields.error_text("lines.2.description") == "Say what the payment was for."
    assert payment.fields.error_text("receipt_number") == "Receipt number is required."
    assert payment.fields.is_marked("lines.1.amount")
    assert not payment.fields.is_marked("lines.0.amount")
    items.remove_line(2)
    assert extra.amount is not None and items.count() == 2
    items.row(1).amount.setText("30")
    qtbot.keyClicks(payment.receipt_number, "R-77")
    qtbot.mouseClick(payment.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert record.fees.totals.text() == "Total $70.00   ·   Paid $70.00   ·   Balance due $0.00"
    assert record.fees.payment_model.index(0, 5).data() == (
        "Impound fee (dog) $40.00; Boarding, 2 days at $15.00 a day $30.00"
    )
    record.close()
