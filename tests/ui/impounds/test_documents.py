"""The record's documents: saved, printed or opened, signed by the staff member's name,
and never written into the database's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from print_service import install_fake_lp
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrinter
from support import local

from fieldops.services.staff import set_staff
from ui.common.documents import PrintJob, print_job_from
from ui.impounds import opening
from ui.impounds.documents import DocumentsWidget


@pytest.fixture
def released(pound):
    p = pound
    dog = p.animal("Biscuit", breed="Corgi", owner=p.bo)
    view = p.impound(dog, local(2026, 11, 20, 11, 0), kennel="K-3")
    p.pay_all(view, local(2026, 11, 24, 12, 0), True, p.bo)
    p.vaccinate(dog)
    p.release(
        view, p.ReleaseRequest(True, p.bo.id, at=local(2026, 11, 24, 12, 0), licence_receipt="L-9")
    )
    return view


@pytest.fixture
def documents(ctx, host, wait_dialog, wait_idle, released):
    opening.open_impoundment(ctx, released.id, host)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    yield record.documents
    record.close()


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    folder = tmp_path / "documents"  # tmp_path itself holds the test database
    folder.mkdir()
    return folder


def pdf_text(data: bytes | Path) -> str:
    from io import BytesIO

    source = BytesIO(data) if isinstance(data, bytes) else data
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(source).pages)


@pytest.fixture
def lp(tmp_path, monkeypatch):
    return install_fake_lp(tmp_path, monkeypatch)


def test_the_operator_signs_the_receipt_under_their_own_name(
    qtbot, documents, sqlite_db, monkeypatch, elsewhere, wait_idle, admin
):
    set_staff(sqlite_db, admin, "opal", "operator", full_name="Opal Operator")
    out = elsewhere / "receipt.pdf"
    monkeypatch.setattr(DocumentsWidget, "ask_save_path", lambda self, name: str(out))
    qtbot.mouseClick(documents.receipt_button, Qt.MouseButton.LeftButton)
    wait_idle()
    text = pdf_text(out)
    assert "Signature for the pound operator Opal Operator" in text
    assert "Released by Opal Operator (opal)" in text


def test_print_sends_the_pdf_to_the_printer_chosen(
    qtbot, documents, lp, monkeypatch, wait_idle, released
):
    args_file, input_file = lp
    asked: list[str] = []

    def choose(self, title):
        asked.append(title)
        return PrintJob(printer="Front", copies=2, sides="two-sided-long-edge", title=title)

    monkeypatch.setattr(DocumentsWidget, "ask_printer", choose)
    qtbot.mouseClick(documents.receipt_print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert asked == [f"Release receipt, impoundment no. {released.id}"]
    assert args_file.read_text().split("\n")[:-1] == [
        "-d",
        "Front",
        "-n",
        "2",
        "-t",
        asked[0],
        "-o",
        "sides=two-sided-long-edge",
    ]
    assert "Receipt for release of impounded animal" in pdf_text(input_file.read_bytes())
    assert "Front" in documents.status.text() and "2 copies" in documents.status.text()


def test_cancelling_the_print_dialog_prints_nothing(qtbot, documents, lp, monkeypatch, wait_idle):
    args_file, _ = lp
    monkeypatch.setattr(DocumentsWidget, "ask_printer", lambda self, title: None)
    qtbot.mouseClick(documents.sheet_print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not args_file.exists()


def test_without_a_print_service_the_clerk_is_told_what_to_do(
    qtbot, documents, tmp_path, monkeypatch, wait_idle, errors
):
    empty = tmp_path / "no-lp"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(DocumentsWidget, "ask_printer", lambda self, title: PrintJob("Front"))
    qtbot.mouseClick(documents.sheet_print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert "no print service" in documents.status.text()
    assert "Open" in documents.status.text()
    assert errors.reports == []  # said beside the buttons, not as a bug


def test_open_shows_a_temporary_copy_outside_the_database_folder(
    qtbot, documents, monkeypatch, wait_idle, sqlite_db, released
):
    opened: list[str] = []
    monkeypatch.setattr(DocumentsWidget, "open_in_viewer", lambda self, path: opened.append(path))
    qtbot.mouseClick(documents.sheet_open_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert len(opened) == 1
    path = Path(opened[0])
    assert path.name == f"impound-record-{released.id}.pdf"
    assert path.parent != sqlite_db.folder
    assert "Record of impounded animal" in pdf_text(path)


def test_a_document_is_never_saved_into_the_database_folder(
    qtbot, documents, monkeypatch, wait_idle, sqlite_db, errors
):
    target = sqlite_db.folder / "receipt.pdf"
    monkeypatch.setattr(DocumentsWidget, "ask_save_path", lambda self, name: str(target))
    before = sorted(p.name for p in sqlite_db.folder.iterdir())
    qtbot.mouseClick(documents.receipt_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert not target.exists()
    assert sorted(p.name for p in sqlite_db.folder.iterdir()) == before
    assert "holds the FieldOps database" in documents.status.text()


def test_the_print_dialog_choices_become_the_print_job(qapp):
    printer = QPrinter()
    printer.setPrinterName("")
    printer.setCopyCount(3)
    printer.setDuplex(QPrinter.DuplexMode.DuplexLongSide)
    printer.setPrintRange(QPrinter.PrintRange.PageRange)
    printer.setFromTo(2, 3)
    job = print_job_from(printer, "Record sheet")
    assert (job.copies, job.pages, job.title) == (3, "2-3", "Record sheet")
    # Without a real printer Qt falls back to one-sided; either is passed on as chosen.
    assert job.sides in ("two-sided-long-edge", "one-sided")
    assert job.command("lp")[:3] == ["lp", "-n", "3"]
