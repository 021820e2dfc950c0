"""The Reports page: pick a report and a period, preview it, cancel it, save it as PDF or
CSV, print it; nothing half-written, every export audited (issue 11).

Re-homed from tests/ui/impounds/test_reports_page.py when the page stopped being the
register's alone: the register's save, refusals and printing are checked here still.
"""

from __future__ import annotations

import csv
import io
import threading
from datetime import date

import pytest
from print_service import install_fake_lp
from pypdf import PdfReader
from PySide6.QtCore import Qt
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from sqlalchemy import select

from fieldops import modules
from fieldops.db.models import AuditEvent
from fieldops.modules import ReportKind, ReportOutput, ReportTable, report_kinds
from fieldops.reports.frame import ReportDocument, request_details
from ui.common.documents import PrintJob
from ui.common.widgets import set_date
from ui.reports import jobs
from ui.reports import page as reports_page
from ui.reports.page import ReportsWidget
from ui.reports.preview import renderer


@pytest.fixture
def page(qtbot, ctx, demo):
    widget = ReportsWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    return widget


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "reports"
    path.mkdir()
    return path


@pytest.fixture
def save_to(monkeypatch, folder):
    """Answer the save dialog with ``name`` in ``folder``; ``asked`` keeps the suggestions."""
    asked: list[tuple[str, str]] = []
    target = {"name": "report.pdf"}

    def answer(self, suggested_name, fmt):
        asked.append((suggested_name, fmt))
        return str(folder / target["name"])

    monkeypatch.setattr(ReportsWidget, "ask_save_path", answer)
    return target, asked


@pytest.fixture
def gate(monkeypatch):
    """Hold the report's build back until the test lets it go."""
    event = threading.Event()
    real = jobs.reports_run.produce

    def held(*args, **kwargs):
        event.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(jobs.reports_run, "produce", held)
    yield event
    event.set()


def events(db):
    with db.read() as s:
        return [
            (e.action, e.after)
            for e in s.scalars(select(AuditEvent).where(AuditEvent.entity == "report"))
        ]


def pdf_text(path) -> str:
    return " ".join(p.extract_text() for p in PdfReader(path).pages)


def test_every_report_on_the_seam_is_offered_with_the_period_presets(page):
    assert [page.kind.itemData(i) for i in range(page.kind.count())] == [
        k.name for k in report_kinds()
    ]
    assert page.report_name() == "impound-register"
    assert page.period() == (date(2026, 10, 1), date(2026, 10, 31))  # last month
    page.choose_preset("this_year")
    assert page.period() == (date(2026, 1, 1), date(2026, 11, 27))
    set_date(page.start, date(2026, 11, 2))
    assert page.preset.currentData() == "custom"
    assert page.cli_hint.text() == (
        "fieldops report impound-register --from 2026-11-02 --to 2026-11-27 "
        "-o impound-register-2026-11-02-to-2026-11-27.pdf"
    )
    page.redacted.setChecked(True)
    assert page.cli_hint.text().endswith("-public-2026-11-02-to-2026-11-27.pdf --redacted")


@pytest.mark.skipif(not renderer(), reason="nothing on this computer draws PDF pages")
def test_preview_shows_the_pages_off_the_gui_thread_and_is_audited(
    qtbot, page, gate, wait_idle, demo
):
    page.choose_preset("this_year")
    qtbot.mouseClick(page.preview_button, Qt.MouseButton.LeftButton)
    assert page.is_busy() and page.progress.isVisible() and page.cancel_button.isVisible()
    assert not page.save_button.isEnabled()
    assert page.preview_button.text() == "Preparing…"
    gate.set()
    wait_idle()
    assert not page.is_busy() and not page.cancel_button.isVisible()
    assert len(page.page_labels) >= 1
    pixmap = page.page_labels[0].pixmap()
    assert pixmap.width() > pixmap.height() > 500  # a landscape page, big enough to read
    assert "page" in page.preview_note.text()
    ((action, after),) = events(demo)
    assert action == "produced" and after["report"] == "impound-register"
    assert after["period_start"] == "2026-01-01" and after["redacted"] is False


def test_cancel_stops_the_build_and_nothing_is_saved_or_audited(
    qtbot, page, gate, wait_idle, save_to, folder, demo
):
    _target, asked = save_to
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert page.cancel_button.isVisible()
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    assert not page.is_busy() and page.save_button.isEnabled()
    assert page.status.text().startswith("Cancelled")
    gate.set()
    wait_idle()
    qtbot.wait(50)
    assert asked == [] and list(folder.iterdir()) == []
    assert events(demo) == []


def test_save_pdf_writes_the_whole_register_and_audits_the_export(
    qtbot, page, wait_idle, save_to, folder, demo
):
    _target, asked = save_to
    page.choose_preset("this_year")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert asked == [("impound-register-2026-01-01-to-2026-11-27.pdf", "pdf")]
    out = folder / "report.pdf"
    assert [p.name for p in folder.iterdir()] == ["report.pdf"]  # no temporary file left
    assert page.banner.text().endswith(f"written to {out}")
    text = pdf_text(out)
    assert "Register of impounded animals" in text and "Fees paid by kind" in text
    assert "Page 1 of" in text and "Sam Supervisor" in text
    ((action, after),) = events(demo)
    assert action == "exported" and after["format"] == "pdf" and after["file"] == "report.pdf"


def test_export_csv_is_the_previewed_rows_with_a_bom(
    qtbot, page, wait_idle, save_to, folder, demo, monkeypatch
):
    target, asked = save_to
    target["name"] = "register"  # no suffix typed: the format's is added
    page.choose_preset("this_year")
    page.redacted.setChecked(True)
    qtbot.mouseClick(page.csv_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert asked == [("impound-register-public-2026-01-01-to-2026-11-27.csv", "csv")]
    data = (folder / "register.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0][0] == "No." and len(rows) > 5
    assert all(r[4] == "" or r[4].endswith("[withheld]") for r in rows[1:])
    ((action, after),) = events(demo)
    assert action == "exported" and after["format"] == "csv" and after["redacted"] is True


def test_a_backwards_period_is_refused_beside_the_date_and_writes_nothing(
    qtbot, page, wait_idle, save_to, folder
):
    _target, asked = save_to
    set_date(page.start, date(2026, 11, 20))
    set_date(page.end, date(2026, 11, 10))
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert page.fields.error_text("period_end") == "The period cannot end before it starts."
    assert page.banner.text() == "Nothing was written: correct the period."
    assert asked == [] and list(folder.iterdir()) == []
    assert page.save_button.isEnabled()


def test_a_period_past_the_services_range_is_marked_on_both_dates(
    qtbot, page, wait_idle, save_to, folder
):
    _target, asked = save_to
    set_date(page.start, date(2200, 1, 1))
    set_date(page.end, date(2200, 1, 31))
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert page.fields.error_text("period_start") and page.fields.error_text("period_end")
    assert asked == [] and list(folder.iterdir()) == []


def test_a_failed_save_says_so_and_leaves_no_file(qtbot, page, wait_idle, monkeypatch, folder):
    out = folder / "no such folder" / "register.pdf"
    monkeypatch.setattr(ReportsWidget, "ask_save_path", lambda self, name, fmt: str(out))
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert page.banner.text().startswith(f"Nothing was written to {out}: No such file")
    assert list(folder.iterdir()) == []
    assert page.save_button.isEnabled()


def test_the_report_is_never_saved_into_the_database_folder(
    qtbot, page, wait_idle, monkeypatch, sqlite_db, demo
):
    out = sqlite_db.folder / "register.pdf"
    monkeypatch.setattr(ReportsWidget, "ask_save_path", lambda self, name, fmt: str(out))
    before = sorted(p.name for p in sqlite_db.folder.iterdir())
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert not out.exists()
    assert sorted(p.name for p in sqlite_db.folder.iterdir()) == before
    assert "holds the FieldOps database" in page.banner.text()
    assert events(demo) == []


def test_print_sends_the_pdf_to_the_printer_chosen_and_audits_it(
    qtbot, page, wait_idle, monkeypatch, tmp_path, demo
):
    args_file, input_file = install_fake_lp(tmp_path, monkeypatch)
    asked: list[str] = []

    def choose(self, title):
        asked.append(title)
        return PrintJob(printer="Back-office", copies=1, title=title)

    monkeypatch.setattr(ReportsWidget, "ask_printer", choose)
    qtbot.mouseClick(page.print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert asked == ["Impound record register (58-528), 2026-10-01 to 2026-10-31"]
    assert args_file.read_text().split("\n")[:2] == ["-d", "Back-office"]
    assert "Register of impounded animals" in pdf_text(input_file)
    assert "sent to Back-office." in page.banner.text()
    ((action, after),) = events(demo)
    assert action == "exported" and after["format"] == "print"


def test_cancelling_the_print_dialog_prints_nothing(
    qtbot, page, wait_idle, monkeypatch, tmp_path, demo
):
    args_file, _ = install_fake_lp(tmp_path, monkeypatch)
    monkeypatch.setattr(ReportsWidget, "ask_printer", lambda self, title: None)
    qtbot.mouseClick(page.print_button, Qt.MouseButton.LeftButton)
    wait_idle()
    assert page.status.text() == "Not printed: no printer was chosen."
    assert not args_file.exists()
    assert [a for a, _ in events(demo)] == []


def test_the_reports_area_shows_the_page_and_only_a_supervisor_may_run_them(window):
    # The window's user is a pound operator: record reports are a supervisor's (issue 12),
    # so the page says so and offers no button; the report service refuses anyway.
    shown = window.show_area("reports")
    assert isinstance(shown, ReportsWidget)
    assert not any(b.isEnabled() for b in shown.buttons.values())
    assert "supervisor" in shown.banner.text()


def test_presets_are_whole_months_and_the_year_so_far():
    assert reports_page.preset_period("last_month", date(2026, 3, 5)) == (
        date(2026, 2, 1),
        date(2026, 2, 28),
    )
    assert reports_page.preset_period("last_month", date(2026, 1, 9)) == (
        date(2025, 12, 1),
        date(2025, 12, 31),
    )
    assert reports_page.preset_period("this_year", date(2026, 3, 5)) == (
        date(2026, 1, 1),
        date(2026, 3, 5),
    )
    assert reports_page.preset_period("custom", date(2026, 3, 5)) is None


class ChartReport(ReportDocument):
    """A report of another module with a chart, as the activity summary draws its own."""

    title = "Activity summary (test)"

    def body(self):
        drawing = Drawing(400, 200)
        bars = VerticalBarChart()
        bars.x, bars.y, bars.width, bars.height = 40, 20, 340, 160
        bars.data = [(3, 5, 2)]
        bars.bars[0].fillColor = colors.HexColor("#c0392b")
        drawing.add(bars)
        return [drawing]


def _chart_kind():
    def build(request):
        pdf = ChartReport(
            period_start=request.start, period_end=request.end, **request_details(request)
        ).render()
        return ReportOutput(ReportTable(("Label", "Value"), [("Intakes", "3")]), pdf)

    return ReportKind("chart-test", "Activity summary (test)", build, description="Charts.")


@pytest.mark.skipif(not renderer(), reason="nothing on this computer draws PDF pages")
def test_another_modules_report_and_its_charts_show_in_the_preview(qtbot, ctx, demo, wait_idle):
    with modules.extra(modules.Module("charts", "Charts", reports=(_chart_kind(),))):
        widget = ReportsWidget(ctx)
        qtbot.addWidget(widget)
        widget.show()
        widget.choose("chart-test")
        assert widget.about.text() == "Charts."
        qtbot.mouseClick(widget.preview_button, Qt.MouseButton.LeftButton)
        wait_idle()
    image = widget.page_labels[0].pixmap().toImage()
    red = sum(
        1
        for x in range(0, image.width(), 4)
        for y in range(0, image.height(), 4)
        if (c := image.pixelColor(x, y)).red() > 150 and c.green() < 90 and c.blue() < 90
    )
    assert red > 50  # the bars are drawn on the page shown
