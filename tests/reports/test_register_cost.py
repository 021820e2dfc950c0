"""The register's drawing at a year's scale (issue 14): the same document, drawn
without the per-page and per-letter work that grew with a year of 100,000 lines.

Each shortcut is checked against the long way it replaces: the same widths to
the last bit, the same bytes in the PDF, every page's header, footer and number."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from fieldops.reports import base, register_draw
from fieldops.reports import register as register_module
from fieldops.reports.register import register_cells, register_lines, register_pdf
from fieldops.reports.register_draw import Widths
from fieldops.services.register_views import RegisterRow, RegisterTally
from tests.reports.conftest import CHICAGO
from tests.reports.test_register_draw import lines

MARCH = {"period_start": date(2026, 3, 1), "period_end": date(2026, 3, 31)}
AUDIT = {"audit_head": "#88 3f9a0c"}
TEXTS = [
    "",
    " ",
    "Dog, brown, male, Labrador mix (about 4 years)",
    'O\'Brien & <Sons> "Rex" \\ (back)slash',
    "Zoë Ñandú, Rue de l'Église 7 — Müller · 3½",
    "山田 太郎, 東京都 1-2-3",
    "Rex 🐶 and\u00a0nbsp",
    "\x7f control",
    "$1,234.50",
]


def register(rows: list[tuple[str, ...]], doc_args: dict[str, object]) -> bytes:
    tally = RegisterTally(
        count=len(rows), total=Decimal("1.00"), dispositions=Counter(adopted=len(rows))
    )
    return register_pdf(rows, tally, **MARCH, **AUDIT, **doc_args)


@pytest.mark.parametrize("bold", [False, True])
def test_a_width_is_stringwidths_to_the_last_bit(bold, doc_args):
    """Line breaks are decided by comparing widths: the table of letters' widths
    must give exactly ReportLab's number, fallback letters included."""
    doc = base.Document(**doc_args)
    font = doc.bold if bold else doc.font
    measure = Widths(font, 8)
    for text in TEXTS * 2:  # twice: the second time from the learnt letters
        assert measure.measure(text) == stringWidth(text, font, 8), text


def test_main_font_text_is_measured_without_reportlab(doc_args, monkeypatch):
    """A year's register measured every cell's text through ReportLab's
    per-letter loop; text in the main font's letters is added up from a table."""
    if base.Document(**doc_args).font == "Helvetica":
        pytest.skip("no TrueType family on this machine")
    calls = []
    real = register_draw.stringWidth

    def counted(text, font, size):
        calls.append(text)
        return real(text, font, size)

    monkeypatch.setattr(register_draw, "stringWidth", counted)
    latin = [r for r in lines(40) if r[4].isascii()]  # no fallback font needed
    register(latin, doc_args)
    assert calls == []


def test_lines_drawn_by_the_letters_table_are_the_same_bytes(doc_args, monkeypatch):
    """Each line's text in the PDF, drawn from the table of letters the document
    has coded already, is byte for byte what splitString and escapePDF write."""
    rows = [(*r[:4], TEXTS[n % len(TEXTS)], *r[5:]) for n, r in enumerate(lines(60))]
    fast = register(rows, doc_args)
    monkeypatch.setattr(register_draw._FirstSubset, "learn", lambda self, line: None)
    assert register(rows, doc_args) == fast


def test_every_page_has_its_header_footer_and_number(doc_args, read_pdf, monkeypatch):
    """The later pages' header and footer are drawn once and repeated: each page
    still carries them, with its own "Page N of M"."""
    drawn = []
    real = base.Document._draw_footer

    def counted(self, canvas):
        drawn.append(canvas.getPageNumber())
        real(self, canvas)

    monkeypatch.setattr(base.Document, "_draw_footer", counted)
    pages = read_pdf(register(lines(150), doc_args))
    assert len(pages) > 4
    assert drawn == [1, 2]  # the first page's, and one later page's
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text
        assert "Printed Thu 12 Mar 2026" in text
        assert "Record kept under city code 58-528" in text
        assert "Audit trail at printing: #88 3f9a0c" in text
        if number > 1:
            assert "Register of impounded animals (continued)" in text
    assert "Total: 150 impoundments" in pages[-1] + pages[-2]


def test_a_years_repeated_amounts_and_days_are_formatted_once(
    released_view, adopted_view, custody_view, monkeypatch
):
    """A year of lines formats a few hundred distinct amounts and days, not
    hundreds of thousands: each is worked out once, and prints as before."""
    views = [released_view, adopted_view, custody_view] * 40
    rows = [RegisterRow.from_view(v) for v in views]
    expected = [register_cells(r, CHICAGO) for r in rows]  # one line at a time
    formatted = []
    real = register_module.money

    def counted(amount):
        formatted.append(amount)
        return real(amount)

    monkeypatch.setattr(register_module, "money", counted)
    lines_, _ = register_lines(rows, CHICAGO)
    assert lines_ == expected
    assert len(formatted) == len(set(formatted)) < 10
