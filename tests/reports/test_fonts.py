"""The fallback chain behind the PDF fonts: emoji, CJK and the rest print, never as a box,
and the text layer gives back exactly what was typed (issue 13)."""

from __future__ import annotations

import os
from io import BytesIO

import pytest
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from fieldops.reports.fonts import REPLACEMENT, ChainFont, fallback_chain, unicode_font
from fieldops.reports.text import esc
from tests.reports.fonts_support import squeeze, text_layer

# On CI the fonts are installed (.ci/run): a missing one must fail there, not skip.
pytestmark = pytest.mark.skipif(
    unicode_font() is None and not os.environ.get("CI"), reason="no TrueType family installed"
)

EMOJI = "Rex 🐕🐶 ❤️ 🦮"
CJK = "王小明 김철수 ひらがな"
MIXED = f"Nguyễn Łukasz {EMOJI} {CJK} e\u0301"
NOBODY_HAS = "\ue000\U000e0041"  # a private-use character and a tag: in no font


def _pdf(draw) -> bytes:
    buf = BytesIO()
    canvas = Canvas(buf)
    draw(canvas)
    canvas.save()
    return buf.getvalue()


def _story_pdf(story) -> bytes:
    buf = BytesIO()
    SimpleDocTemplate(buf).build(story)
    return buf.getvalue()


def test_the_shipped_fallbacks_are_in_the_chain():
    names = [f.face.name for f in fallback_chain()]
    assert b"NotoEmoji-Regular" in names and b"DroidSansFallback" in names


def test_each_run_goes_to_the_first_font_that_has_it():
    font = getFont(unicode_font()[0])
    assert isinstance(font, ChainFont)
    runs = font.runs("Rex 🐕 王")
    assert "".join(r for _, r in runs) == "Rex 🐕 王"
    drawn_by = {run: font.chain[i].face.name for i, run in runs}
    assert drawn_by["🐕"] == b"NotoEmoji-Regular"
    assert drawn_by["王"] == b"DroidSansFallback"
    assert drawn_by["Rex "] == font.face.name  # the main font keeps what it has


def test_a_combining_mark_stays_with_its_letter():
    font = getFont(unicode_font()[0])
    assert font.runs("e\u0301") == [(0, "e\u0301")]


def test_canvas_strings_round_trip_with_no_box():
    pdf = _pdf(lambda c: (c.setFont(unicode_font()[0], 12), c.drawString(40, 700, MIXED)))
    layer = text_layer(pdf)
    assert layer.pages == [MIXED]
    assert layer.notdef == []


def test_paragraph_and_table_cell_use_the_same_chain():
    regular, bold = unicode_font()
    style = ParagraphStyle("p", fontName=regular, fontSize=10)
    table = Table([[MIXED]], style=TableStyle([("FONTNAME", (0, 0), (-1, -1), bold)]))
    pdf = _story_pdf(
        [Paragraph(esc(MIXED), style), Paragraph(f"<b>{esc(MIXED)}</b>", style), table]
    )
    layer = text_layer(pdf)
    assert squeeze(layer.pages[0]) == squeeze(MIXED) * 3
    assert layer.notdef == []
    # pypdf's own reader agrees (no right-to-left text here for it to reorder).
    assert squeeze(PdfReader(BytesIO(pdf)).pages[0].extract_text()) == squeeze(MIXED) * 3


def test_emoji_beyond_the_basic_plane_stay_in_the_text_layer():
    # ReportLab wrote U+1F415 as "<1F415>" in the ToUnicode map, which readers drop.
    pdf = _pdf(lambda c: (c.setFont(unicode_font()[0], 12), c.drawString(40, 700, EMOJI)))
    assert squeeze(PdfReader(BytesIO(pdf)).pages[0].extract_text()) == squeeze(EMOJI)


def test_a_character_no_font_has_prints_as_the_replacement_mark_and_reads_back_as_typed():
    """Decision: drawn as "�" (visible, not an empty box), kept as itself in the text layer."""
    text = f"a{NOBODY_HAS}b"
    font = getFont(unicode_font()[0])
    pdf = _pdf(lambda c: (c.setFont(font.fontName, 12), c.drawString(40, 700, text)))
    layer = text_layer(pdf)
    assert layer.pages == [text] and layer.notdef == []
    replacement_width = stringWidth(chr(REPLACEMENT), font.fontName, 12)
    assert stringWidth(NOBODY_HAS, font.fontName, 12) == pytest.approx(2 * replacement_width)
    # The glyph drawn is the replacement mark's: the same glyph id as U+FFFD in that font.
    ((index, _run),) = [r for r in font.runs(text) if NOBODY_HAS in r[1]]
    face = font.chain[index].face
    assert {face.charToGlyph[ord(ch)] for ch in NOBODY_HAS} == {face.charToGlyph[REPLACEMENT]}


def test_widths_count_each_run_in_its_own_font():
    font = getFont(unicode_font()[0])
    emoji = font.chain[font.runs("🐕")[0][0]]
    assert stringWidth("a🐕", font.fontName, 10) == pytest.approx(
        stringWidth("a", font.fontName, 10) + emoji.stringWidth("🐕", 10)
    )
    assert stringWidth("🐕", font.fontName, 10) > 0


def test_right_to_left_text_keeps_every_character_in_typed_order():
    """Decision: RTL is written in logical (typed) order; ReportLab lays it out left to
    right. The text layer holds it exactly; pypdf's extract_text reverses it, as it
    assumes visual order, so it is read back through the ToUnicode maps."""
    text = "שלום עולם مرحبا"
    pdf = _pdf(lambda c: (c.setFont(unicode_font()[0], 12), c.drawString(40, 700, text)))
    layer = text_layer(pdf)
    assert layer.pages == [text] and layer.notdef == []
