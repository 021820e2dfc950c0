"""The Reports page: the 58-528 register of impounded animals for a period, saved as a PDF.

Beside the pound's other tests because it reads the impoundments the pound
fixtures make through the services.
"""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import pytest
from print_service import install_fake_lp
from pypdf import PdfReader
from PySide6.QtCore import Qt
from support import local

from fieldops.services.dispositions import record_escape
from ui.common.documents import PrintJob
from ui.common.widgets import set_date
from ui.reports import page as reports_page
from ui.reports.page import ReportsWidget


@pytest.fixture
def november(pound, sqlite_db, operator):
    """Three impoundments in November (one released, one escaped, one in custody) and one
    in October."""
    p = pound
    p.october = p.impound(p.animal("Ollie", breed="Pug"), local(2026, 10, 30, 16, 0))
    old = p.animal("Biscuit", breed="Corgi", owner=p.bo)
    p.reclaimed = p.impound(old, local(2026, 11, 2, 11, 0), kennel="K-3")
    p.pay_all(p.reclaimed, local(2026, 11, 4, 12, 0), True, p.bo)
    p.vaccinate(old)
    p.release(
        p.reclaimed,
        p.ReleaseRequest(True, p.bo.id, at=local(2026, 11, 4, 12, 0), licence_receipt="L-9"),
    )
    p.escaped = p.impound(p.animal("Dash", breed="Whippet"), local(2026, 11, 10, 8, 0))
    record_escape(
        sqlite_db,
        operator,
        p.escaped.id,
        p.profile,
        at=local(2026, 11, 11, 7, 0),
        notes="Slipped the lead in the yard",
    )
    p.held = p.impound(p.animal("Mochi", species="cat"), local(2026, 11, 26, 9, 30))
    return p


@pytest.fixture
def reports(qtbot, ctx):
    page = ReportsWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    yield page.register  # noqa: PT022 (the page must stay alive while the test runs)


@pytest.fixture
def folder(tmp_path):
    """A folder of its own for the PDF (the test database sits in tmp_path)."""
    path = tmp_path / "reports"
    path.mkdir()
    return path


@pytest.fixture
def save_to(monkeypatch, folder):
    """Answer the save dialog with a file in ``folder``; ``asked`` keeps the names suggested."""
    asked: list[str] = []
    out = folder / "register.pdf"

    def answer(self, suggested_name: str) -> str:
        asked.append(suggested_name)
        return str(out)

    monkeypatch.setattr(reports_page.ImpoundRegisterWidget, "ask_save_path", answer)
    return out, asked


def pdf_text(path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_register_for_the_month_so_far_is_saved_as_a_pdf(
    qtbot, reports, november, save_to, wait_idle, monkeypatch, folder
):
    out, asked = save_to
    # The current month up to today (Fri 27 Nov 2026), and the same report's command line.
    assert reports.period() == (date(2026, 11, 1), date(2026, 11, 27))
    assert reports.cli_hint.text() == (
        "fieldops report register --from 2026-11-01 --to 2026-11-27 "
        "--out impound-register-2026-11-01-to-2026-11-27.pdf"
    )
    # Hold the query back to see the page while it prepares.
    gate = threading.Event()
    real_views = reports_page.impound_register_rows

    def slow_views(*args, **kwargs):
        gate.wait(10)
        return real_views(*args, **kwargs)

    monkeypatch.setattr(reports_page, "impound_register_rows", slow_views)
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    assert not reports.save_button.isEnabled()
    assert reports.save_button.text() == "Preparing…"
    assert reports.progress.isVisible()
    assert reports.status.text() == "Preparing the register…"
    assert asked == []  # nothing to save yet: no question
    gate.set()
    wait_idle()
    wait_idle()  # the render, then the write
    assert asked == ["impound-register-2026-11-01-to-2026-11-27.pdf"]
    assert reports.banner.text() == f"3 impoundments written to {out}"
    assert reports.save_button.isEnabled() and reports.save_button.text() == "&Save PDF…"
    assert not reports.progress.isVisible()
    assert [p.name for p in folder.iterdir()] == ["register.pdf"]  # no temporary file left
    text = pdf_text(out)
    assert "Register of impounded animals" in text
    assert "Sun 1 Nov 2026 to Fri 27 Nov 2026" in text
    for view, name in (
        (november.reclaimed, "Biscuit"),
        (november.escaped, "Dash"),
        (november.held, "Mochi"),
    ):
        assert f"{view.id} " in text and name in text
    assert "Reclaimed by owner" in text and "Bo Adler" in text
    assert "Escaped" in text and "In custody" in text
    assert "Ollie" not in text  # impounded in October
    assert "Total: 3 impoundments" in text


def test_a_backwards_period_is_refused_beside_the_date_and_writes_nothing(
    qtbot, reports, november, save_to, wait_idle, folder
):
    _out, asked = save_to
    set_date(reports.start, date(2026, 11, 20))
    set_date(reports.end, date(2026, 11, 10))
    assert "--from 2026-11-20 --to 2026-11-10" in reports.cli_hint.text()
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert reports.fields.error_text("period_end") == "The period cannot end before it starts."
    assert reports.fields.is_marked("period_end")
    assert reports.banner.text() == "Nothing was written: correct the period."
    assert asked == []
    assert list(folder.iterdir()) == []
    assert reports.save_button.isEnabled()
    # Put right, the error goes and the register is written.
    set_date(reports.end, date(2026, 11, 27))
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert reports.fields.error_text("period_end") == ""
    assert reports.banner.text().startswith("1 impoundment written to ")  # Mochi, 26 Nov


def test_cancelling_the_save_dialog_writes_nothing(
    qtbot, reports, november, wait_idle, monkeypatch, folder
):
    monkeypatch.setattr(reports_page.ImpoundRegisterWidget, "ask_save_path", lambda self, name: "")
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert reports.status.text() == "Not saved: no file was chosen."
    assert reports.save_button.isEnabled()
    assert list(folder.iterdir()) == []


def test_a_folder_that_cannot_be_written_says_so_and_leaves_no_file(
    qtbot, reports, november, wait_idle, monkeypatch, folder
):
    out = folder / "no such folder" / "register.pdf"
    monkeypatch.setattr(
        reports_page.ImpoundRegisterWidget, "ask_save_path", lambda self, name: str(out)
    )
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert reports.banner.text().startswith(f"Nothing was written to {out}: No such file")
    assert list(folder.iterdir()) == []


def test_the_register_is_never_saved_into_the_database_folder(
    qtbot, reports, november, wait_idle, monkeypatch, sqlite_db
):
    out = sqlite_db.folder / "register.pdf"
    monkeypatch.setattr(
        reports_page.ImpoundRegisterWidget, "ask_save_path", lambda self, name: str(out)
    )
    before = sorted(p.name for p in sqlite_db.folder.iterdir())
    qtbot.mouseClick(reports.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert not out.exists()
    assert sorted(p.name for p in sqlite_db.folder.iterdir()) == before
    assert reports.banner.text().startswith(f"Nothing was written to {out}.")
    assert "holds the FieldOps database" in reports.banner.text()
    assert reports.save_button.isEnabled()


def test_the_register_prints_on_the_printer_chosen(
    qtbot, reports, november, wait_idle, monkeypatch, tmp_path
):
    args_file, input_file = install_fake_lp(tmp_path, monkeypatch)
    asked: list[str] = []

    def choose(self, title):
        asked.append(title)
        return PrintJob(printer="Back-office", copies=1, title=title)

    monkeypatch.setattr(reports_page.ImpoundRegisterWidget, "ask_printer", choose)
    qtbot.mouseClick(reports.print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert asked == ["Register of impounded animals, 2026-11-01 to 2026-11-27"]
    assert args_file.read_text().split("\n")[:2] == ["-d", "Back-office"]
    text = " ".join(p.extract_text() for p in PdfReader(input_file).pages)
    assert "Register of impounded animals" in text and "Total: 3 impoundments" in text
    assert reports.banner.text().startswith("3 impoundments sent to Back-office.")
    assert reports.print_button.isEnabled() and reports.print_button.text() == "&Print…"


def test_cancelling_the_print_dialog_prints_nothing(
    qtbot, reports, november, wait_idle, monkeypatch, tmp_path
):
    args_file, _ = install_fake_lp(tmp_path, monkeypatch)
    monkeypatch.setattr(reports_page.ImpoundRegisterWidget, "ask_printer", lambda self, title: None)
    qtbot.mouseClick(reports.print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert reports.status.text() == "Not printed: no printer was chosen."
    assert not args_file.exists()
    assert reports.save_button.isEnabled()


def test_open_shows_the_register_from_a_temporary_copy(
    qtbot, reports, november, wait_idle, monkeypatch, sqlite_db
):
    opened: list[str] = []
    monkeypatch.setattr(
        reports_page.ImpoundRegisterWidget, "open_in_viewer", lambda self, path: opened.append(path)
    )
    qtbot.mouseClick(reports.open_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert len(opened) == 1
    path = Path(opened[0])
    assert path.name == "impound-register-2026-11-01-to-2026-11-27.pdf"
    assert path.parent != sqlite_db.folder
    assert "Total: 3 impoundments" in pdf_text(path)
    assert reports.open_button.isEnabled()


def test_the_reports_area_shows_the_register(window):
    page = window.show_area("reports")
    assert isinstance(page, ReportsWidget)
    assert page.register.save_button.isEnabled()
