"""The quarantine order, the certification form and the officer's week: Save PDF, Print and
Open, as on the pound's record (issue 9, "Documents")."""

from __future__ import annotations

import io

import pytest
from print_service import install_fake_lp
from pypdf import PdfReader
from PySide6.QtCore import Qt
from quarantine_support import PROFILE, bite_input, days_ago

from fieldops.services import quarantine as qs
from ui.common.documents import PrintJob
from ui.quarantine.documents import DocumentButtons
from ui.quarantine.record_dialog import QuarantineDialog
from ui.quarantine.schedule_dialog import WeekScheduleDialog


def text_of(content: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def record(qtbot, ctx, bites, operator):
    r = qs.report_bite(
        bites.db,
        operator,
        bite_input(days_ago(1, 8), animal_id=bites.tom.id, clinic_id=bites.clinic.id),
        PROFILE,
    )
    dialog = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE))
    qtbot.addWidget(dialog)
    return dialog


def wait_status(qtbot, buttons: DocumentButtons, start: str) -> None:
    qtbot.waitUntil(lambda: buttons.status.text().startswith(start), timeout=15_000)


def test_the_order_is_saved_and_the_form_printed_and_opened(qtbot, record, tmp_path, monkeypatch):
    docs = record.documents
    out = tmp_path / "out" / "order.pdf"
    out.parent.mkdir()
    monkeypatch.setattr(DocumentButtons, "ask_save_path", lambda self, name: str(out))
    save, print_, open_ = docs.buttons["Order of rabies quarantine (for the owner)"]
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    wait_status(qtbot, docs, "Saved")
    text = text_of(out.read_bytes())
    assert "Order of rabies quarantine" in text and "O'Brien & <Sons>" in text
    assert "608-555-0199" not in text  # the bitten person's contact stays off the order

    args, given = install_fake_lp(tmp_path, monkeypatch)
    monkeypatch.setattr(
        DocumentButtons, "ask_printer", lambda self, title: PrintJob("Front", copies=2)
    )
    save, print_, open_ = docs.buttons["Certification of quarantine"]
    qtbot.mouseClick(print_, Qt.MouseButton.LeftButton)
    wait_status(qtbot, docs, "Sent to Front (2 copies)")
    assert "Certification of quarantine" in text_of(given.read_bytes())
    assert "Front" in args.read_text().split()

    opened: list[str] = []
    monkeypatch.setattr(DocumentButtons, "open_in_viewer", lambda self, path: opened.append(path))
    qtbot.mouseClick(open_, Qt.MouseButton.LeftButton)
    wait_status(qtbot, docs, "Opened")
    assert opened and opened[0].endswith(f"certification-of-quarantine-{record.view.id}.pdf")


def test_a_cancelled_print_dialog_prints_nothing(qtbot, record, tmp_path, monkeypatch):
    _args, given = install_fake_lp(tmp_path, monkeypatch)
    monkeypatch.setattr(DocumentButtons, "ask_printer", lambda self, title: None)
    _save, print_, _open = record.documents.buttons["Certification of quarantine"]
    qtbot.mouseClick(print_, Qt.MouseButton.LeftButton)
    qtbot.wait(200)
    assert not given.exists() and record.documents.status.text() == ""


def test_the_officers_week_is_saved_as_a_pdf(qtbot, ctx, record, tmp_path, monkeypatch):
    week = WeekScheduleDialog(ctx)
    qtbot.addWidget(week)
    qtbot.waitUntil(lambda: bool(week.items), timeout=10_000)
    out = tmp_path / "out" / "week.pdf"  # tmp_path itself is the database's folder
    out.parent.mkdir()
    monkeypatch.setattr(DocumentButtons, "ask_save_path", lambda self, name: str(out))
    (save, _print, _open) = next(iter(week.documents.buttons.values()))
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    wait_status(qtbot, week.documents, "Saved")
    text = text_of(out.read_bytes())
    assert "the week's schedule" in text and f"#{record.view.id}" in text
    assert any(i.text.split(":")[0][:20] in text for i in week.items)


def test_the_order_is_never_saved_into_the_database_folder(qtbot, record, tmp_path, monkeypatch):
    target = tmp_path / "order.pdf"  # beside the database
    monkeypatch.setattr(DocumentButtons, "ask_save_path", lambda self, name: str(target))
    save, _print, _open = record.documents.buttons["Order of rabies quarantine (for the owner)"]
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "database" in record.documents.status.text(), timeout=10_000)
    assert not target.exists()
