"""The document base: escaping, formatting, page furniture, bytes only."""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.pdfmetrics import stringWidth
from support import images_besides_the_letterhead

from fieldops.reports.base import (
    Document,
    Markup,
    esc,
    fmt_date,
    fmt_datetime,
    markup,
    money,
    wrap_text,
)

CHICAGO = ZoneInfo("America/Chicago")
PRINTED = datetime(2026, 3, 12, 15, 30, tzinfo=UTC)


class _Lines(Document):
    """A document of user strings, one Paragraph each, and a plain table of them."""

    title = "Test document"

    def __init__(self, lines: list[str]) -> None:
        super().__init__(jurisdiction="City of Riverton", tz=CHICAGO, printed_at=PRINTED)
        self.lines = lines

    def story(self):
        return [self.text(line) for line in self.lines]


def test_esc_makes_markup_characters_print_as_themselves():
    assert esc('O\'Brien & <Sons> "Rex"') == "O&#39;Brien &amp; &lt;Sons&gt; &quot;Rex&quot;"
    assert esc(None) == ""
    assert esc("a\nb") == "a<br/>b"
    assert esc(42) == "42"


def test_esc_does_not_escape_twice_and_markup_escapes_its_arguments():
    once = esc("S&P")
    assert isinstance(once, Markup)
    assert esc(once) == "S&amp;P"
    assert markup("<b>{}</b> {}", "<i>", "&") == "<b>&lt;i&gt;</b> &amp;"


def test_esc_drops_control_characters():
    assert esc("a\x00b\x07c\td") == "abc d"


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (Decimal("1234.5"), "$1,234.50"),
        (Decimal("0"), "$0.00"),
        (Decimal("1000000"), "$1,000,000.00"),
        (Decimal("-12.3"), "-$12.30"),
        (Decimal("2.005"), "$2.01"),  # half up, as a cashier rounds
        (35, "$35.00"),
    ],
)
def test_money(amount, text):
    assert money(amount) == text


@pytest.mark.parametrize("amount", [12.5, True])
def test_money_refuses_floats(amount):
    with pytest.raises(TypeError):
        money(amount)


def test_times_print_in_local_time_with_weekday_and_zone():
    # The 12-hour clock the app uses: one format on screen and on paper.
    assert (
        fmt_datetime(datetime(2026, 3, 2, 20, 5, tzinfo=UTC), CHICAGO)
        == "Mon 2 Mar 2026 2:05 PM CST"
    )
    # After the change to daylight time on Sun 8 Mar 2026.
    assert (
        fmt_datetime(datetime(2026, 3, 9, 19, 5, tzinfo=UTC), CHICAGO)
        == "Mon 9 Mar 2026 2:05 PM CDT"
    )
    # Late evening in Chicago is already the next day in UTC.
    assert (
        fmt_datetime(datetime(2026, 3, 3, 3, 30, tzinfo=UTC), CHICAGO)
        == "Mon 2 Mar 2026 9:30 PM CST"
    )
    # Midnight on a record is a time like any other, not a deadline's "end of the day".
    assert (
        fmt_datetime(datetime(2026, 3, 3, 6, 0, tzinfo=UTC), CHICAGO)
        == "Tue 3 Mar 2026 12:00 AM CST"
    )
    assert fmt_date(date(2026, 11, 30)) == "Mon 30 Nov 2026"


def test_the_pdfs_and_the_screens_write_an_instant_the_same_way():
    from fieldops.rules import format_instant, format_local

    moment = datetime(2026, 12, 1, 21, 45, tzinfo=UTC)
    on_screen = format_instant(moment.astimezone(CHICAGO), midnight="plain")
    assert fmt_datetime(moment, CHICAGO) == format_local(moment, CHICAGO) == on_screen
    assert on_screen == "Tue 1 Dec 2026 3:45 PM CST"


def test_naive_times_are_refused():
    with pytest.raises(ValueError, match="aware"):
        fmt_datetime(datetime(2026, 3, 2, 14, 5), CHICAGO)
    with pytest.raises(ValueError, match="aware"):
        Document(jurisdiction="x", tz=CHICAGO, printed_at=datetime(2026, 3, 2))


@settings(max_examples=200)
@given(
    st.text(alphabet=st.sampled_from("ab xyz-WW.,&;<>/"), max_size=120),
    st.floats(min_value=20, max_value=300),
)
def test_wrap_text_fits_every_line_and_keeps_every_word(text, width):
    lines = wrap_text(text, "Helvetica", 8, width).split("\n")
    for line in lines:
        assert stringWidth(line, "Helvetica", 8) <= width or len(line) == 1
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def _render_and_read(lines, read_pdf):
    return read_pdf(_Lines(lines).render())


def test_user_text_in_a_paragraph_prints_exactly_as_typed(read_pdf):
    name = 'O\'Brien & <Sons> "Rex"'
    tag = '<img src="file:///etc/passwd">'
    pdf = _Lines([name, tag, "S&P", "a <unknown> b", "&amp; stays &amp;"]).render()
    text = read_pdf(pdf)[0]
    for expected in (name, tag, "S&P", "a <unknown> b", "&amp; stays &amp;"):
        assert expected in text
    assert images_besides_the_letterhead(pdf) == []  # no image was embedded from the text


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.sampled_from("abcXYZ019 <>&'\"/=;#!?"), min_size=1, max_size=40))
def test_any_text_prints_as_itself(read_pdf, value):
    text = _render_and_read([value], read_pdf)[0]
    assert " ".join(value.split()) in text


def test_render_returns_pdf_bytes_without_touching_files(monkeypatch):
    opened: list[object] = []

    def refuse(*args, **kwargs):
        opened.append(args[0] if args else kwargs)
        raise AssertionError(f"file access during render: {args!r}")

    document = _Lines(["hello"])  # fonts are read once, when the first document is made
    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    pdf = document.render()
    assert pdf.startswith(b"%PDF-")
    assert opened == []


def test_same_input_same_bytes():
    assert _Lines(["one", "two"]).render() == _Lines(["one", "two"]).render()


def test_every_page_says_page_x_of_y_and_the_print_time(read_pdf):
    pages = read_pdf(_Lines([f"Line {n}" for n in range(200)]).render())
    assert len(pages) > 2
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text
        assert "Printed Thu 12 Mar 2026 10:30 AM CDT" in text
        assert "City of Riverton" in text
    assert "Test document" in pages[0]
    assert "Test document (continued)" in pages[1]


def test_reports_import_neither_qt_nor_sqlalchemy():
    code = (
        "import sys, fieldops.reports, fieldops.reports.impound\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'sqlalchemy', 'alembic')]\n"
        "assert not bad, bad\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
