"""The one ReportLab document base every FieldOps PDF derives from.

Data in, PDF bytes out: nothing here opens a file, a session or a window.

Text safety. ``Paragraph`` parses its text as markup, so raw user text there
is dangerous ("S&P" prints as "S&P;", ``<img src=...>`` opens a local file).
The rule in this package: a ``Paragraph`` is only ever built from a
:class:`Markup` string, and the only ways to get one are :func:`esc` (which
escapes) and :func:`markup` (which escapes every argument into a fixed
template). Plain ``str`` table cells and canvas strings are drawn literally
and need no escaping.

Times are stored as aware UTC instants and printed in the jurisdiction's
local time, with the weekday: "Mon 9 Mar 2026, 14:05 CST". Day and month
names are spelled here rather than with ``strftime``: Qt sets the process
locale at start-up, which would otherwise translate them.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, partial
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as _xml_escape
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

# --------------------------------------------------------------------------- text


class Markup(str):
    """Text that is safe to hand to a ``Paragraph``. Build it with esc() or markup()."""

    __slots__ = ()


# Control characters other than tab and newline are not text anyone typed on
# purpose, and some of them make ReportLab's markup parser fail.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean(text: object) -> str:
    """User text as a plain string for a table cell or the canvas: None -> ""."""
    if text is None:
        return ""
    return _CONTROL.sub("", str(text)).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")


def esc(text: object) -> Markup:
    """The one escaping helper: user text -> markup that prints exactly as typed.

    ``<``, ``>``, ``&`` and both quotes become entities; line breaks become
    ``<br/>``; None becomes "". Already-escaped :class:`Markup` passes
    through unchanged, so nothing is escaped twice.
    """
    if isinstance(text, Markup):
        return text
    escaped = _xml_escape(clean(text), {'"': "&quot;", "'": "&#39;"})
    return Markup(escaped.replace("\n", "<br/>"))


def markup(template: str, *args: object) -> Markup:
    """A fixed markup template (written in this package) with every argument escaped.

    ``markup("<b>{}</b> {}", label, value)``; the template must never come from data.
    """
    return Markup(template.format(*(esc(a) for a in args)))


def para(text: object, style: ParagraphStyle) -> Paragraph:
    """A Paragraph of user text (escaped) or of :class:`Markup`."""
    return Paragraph(esc(text), style)


# --------------------------------------------------------------------- formatting

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
NOT_RECORDED = "—"


def require_aware(moment: datetime, what: str = "datetime") -> None:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (instants are stored in UTC)")


def fmt_date(day: date | None) -> str:
    """"Mon 9 Mar 2026"; None -> ""."""
    if day is None:
        return ""
    if isinstance(day, datetime):
        raise TypeError("fmt_date takes a date; use fmt_datetime for an instant")
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def local(moment: datetime, tz: ZoneInfo) -> datetime:
    require_aware(moment)
    return moment.astimezone(tz)


def fmt_datetime(moment: datetime | None, tz: ZoneInfo) -> str:
    """"Mon 9 Mar 2026, 14:05 CST": an aware instant in the jurisdiction's time; None -> ""."""
    if moment is None:
        return ""
    here = local(moment, tz)
    return f"{fmt_date(here.date())}, {here.hour:02d}:{here.minute:02d} {here.tzname() or ''}".rstrip()


def fmt_local_date(moment: datetime | None, tz: ZoneInfo) -> str:
    """The local calendar day of an instant, "Mon 9 Mar 2026"; None -> ""."""
    if moment is None:
        return ""
    return fmt_date(local(moment, tz).date())


_CENT = Decimal("0.01")


def money(amount: Decimal | int | None) -> str:
    """"$1,234.50" from a Decimal (or int); floats are refused, None -> ""."""
    if amount is None:
        return ""
    if isinstance(amount, float | bool) or not isinstance(amount, Decimal | int):
        raise TypeError(f"money needs a Decimal, not {type(amount).__name__}")
    value = Decimal(amount).quantize(_CENT, rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def yes_no(flag: bool | None) -> str:
    return {True: "Yes", False: "No"}.get(flag, "Unknown")  # type: ignore[arg-type]


def wrap_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` broken into lines of at most ``width`` points, joined by newlines.

    A Table draws a plain string literally, one line per newline, so this wraps
    a cell without a Paragraph: no markup parsing, and in a register of 10,000
    rows several times faster (Paragraph.wrap runs again on every page split).
    A word wider than the column is broken between characters.
    """
    if "\n" not in text and stringWidth(text, font, size) <= width:
        return text
    space = stringWidth(" ", font, size)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line, line_w = "", 0.0
        for word in paragraph.split():
            word_w = stringWidth(word, font, size)
            if word_w > width:
                if line:
                    lines.append(line)
                pieces = _break_word(word, font, size, width)
                lines.extend(pieces[:-1])
                line = pieces[-1]
                line_w = stringWidth(line, font, size)
            elif not line:
                line, line_w = word, word_w
            elif line_w + space + word_w <= width:
                line, line_w = f"{line} {word}", line_w + space + word_w
            else:
                lines.append(line)
                line, line_w = word, word_w
        lines.append(line)
    return "\n".join(lines)


def _break_word(word: str, font: str, size: float, width: float) -> list[str]:
    pieces, current = [], ""
    for char in word:
        if current and stringWidth(current + char, font, size) > width:
            pieces.append(current)
            current = ""
        current += char
    return [*pieces, current]


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` points on one line."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


# -------------------------------------------------------------------------- fonts

UNICODE_FONT = "FieldOpsSans"

# The PDF standard fonts (Helvetica) only know Western European letters: a
# recipient named "Nguyễn" or "Łukasz" printed with black boxes. So we embed
# (subset) a TrueType sans with wide Latin coverage found on the machine:
# Arial on Windows and macOS, Liberation Sans or DejaVu Sans Condensed on Linux.
# (regular, bold, italic) file paths; italic is optional.
def _font_candidates() -> list[tuple[Path, Path, Path]]:
    windir = Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"
    mac = Path("/System/Library/Fonts/Supplemental")
    liberation = Path("/usr/share/fonts/truetype/liberation")
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    return [
        (windir / "arial.ttf", windir / "arialbd.ttf", windir / "ariali.ttf"),
        (mac / "Arial.ttf", mac / "Arial Bold.ttf", mac / "Arial Italic.ttf"),
        (liberation / "LiberationSans-Regular.ttf", liberation / "LiberationSans-Bold.ttf",
         liberation / "LiberationSans-Italic.ttf"),
        # Condensed: the width of Helvetica and Arial, so layouts match.
        (dejavu / "DejaVuSansCondensed.ttf", dejavu / "DejaVuSansCondensed-Bold.ttf",
         dejavu / "DejaVuSansCondensed-Oblique.ttf"),
    ]


@cache
def unicode_font() -> tuple[str, str] | None:
    """Register the first wide-coverage TrueType family found, once per process.

    Returns the (regular, bold) names, or None when none is installed.
    """
    for regular, bold, italic in _font_candidates():
        if not (regular.is_file() and bold.is_file()):
            continue
        try:
            names = {"normal": UNICODE_FONT, "bold": f"{UNICODE_FONT}-Bold"}
            pdfmetrics.registerFont(TTFont(names["normal"], str(regular)))
            pdfmetrics.registerFont(TTFont(names["bold"], str(bold)))
            names["italic"] = names["normal"]
            if italic.is_file():
                pdfmetrics.registerFont(TTFont(f"{UNICODE_FONT}-Italic", str(italic)))
                names["italic"] = f"{UNICODE_FONT}-Italic"
            pdfmetrics.registerFontFamily(UNICODE_FONT, boldItalic=names["bold"], **names)
        except (OSError, TTFError):
            continue
        return names["normal"], names["bold"]
    return None


# ------------------------------------------------------------------- page numbers


class _NumberedCanvas(Canvas):
    """Holds every page until the end so each footer can say "Page X of Y"."""

    def __init__(self, *args: Any, page_label: Callable[[Canvas, int, int], None],
                 pdf_date: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held_pages: list[dict[str, Any]] = []
        self._page_label = page_label
        # With invariant=1 ReportLab stamps 2000-01-01; stamp the print time instead,
        # which keeps the bytes reproducible and the document info truthful.
        self.setDateFormatter(lambda *_: pdf_date)

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        self._held_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._held_pages)
        for state in self._held_pages:
            self.__dict__.update(state)
            self._page_label(self, self._pageNumber, total)
            Canvas.showPage(self)
        Canvas.save(self)


# ----------------------------------------------------------------------- document

GRID = colors.HexColor("#9aa3ad")
HEAD_BG = colors.HexColor("#e4e8ec")
ZEBRA = colors.HexColor("#f5f7f9")
MUTED = colors.HexColor("#555b61")
ALERT = "#a3120f"  # overrides and other things a reader must not miss

CELL_PAD = 3


class Document:
    """A FieldOps PDF. Subclasses set ``title`` and override ``story()``.

    Override points: ``fonts()``, ``styles()``, ``subtitle()``,
    ``footer_note()``, ``first_page()``, ``later_pages()``, ``story()``,
    and ``pagesize``/``margin`` as class attributes. The first page carries
    the full header (jurisdiction, title, subtitle); later pages a one-line
    header, so their frame is taller. Every page gets the footer: print time,
    an optional note and "Page X of Y".
    """

    title = "Document"
    pagesize: tuple[float, float] = letter
    margin = 0.6 * inch
    first_header_height = 0.85 * inch
    later_header_height = 0.45 * inch
    footer_height = 0.35 * inch

    def __init__(self, *, jurisdiction: str, tz: ZoneInfo, printed_at: datetime) -> None:
        require_aware(printed_at, "printed_at")
        self.jurisdiction = clean(jurisdiction)
        self.tz = tz
        self.printed_at = printed_at
        self.font, self.bold = self.fonts()
        self.s = self.styles()

    # -- override points ------------------------------------------------------

    def fonts(self) -> tuple[str, str]:
        """(regular, bold) font names: a Unicode TrueType family if the machine has one."""
        return unicode_font() or ("Helvetica", "Helvetica-Bold")

    def styles(self) -> dict[str, ParagraphStyle]:
        f, b = self.font, self.bold
        body = ParagraphStyle("body", fontName=f, fontSize=9.5, leading=12)
        return {
            "body": body,
            "h2": ParagraphStyle("h2", parent=body, fontName=b, fontSize=11.5, leading=14,
                                 spaceBefore=10, spaceAfter=4),
            "small": ParagraphStyle("small", parent=body, fontSize=8, leading=10, textColor=MUTED),
            "note": ParagraphStyle("note", parent=body, fontSize=8.5, leading=11),
            "cell": ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5),
            "cell_bold": ParagraphStyle("cell_bold", parent=body, fontName=b, fontSize=8.5,
                                        leading=10.5),
        }

    def subtitle(self) -> str:
        """Plain text at the right of the header, e.g. "Impoundment no. 1042"."""
        return ""

    def footer_note(self) -> str:
        """Plain text at the centre of every footer, e.g. the code section."""
        return ""

    def story(self) -> list[Flowable]:
        raise NotImplementedError

    def first_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        self._draw_header(canvas, first=True)
        self._draw_footer(canvas)

    def later_pages(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        self._draw_header(canvas, first=False)
        self._draw_footer(canvas)

    # -- rendering ------------------------------------------------------------

    def render(self) -> bytes:
        """The finished PDF, built in memory."""
        width, height = self.pagesize
        m = self.margin
        body_bottom = m + self.footer_height
        frames = {
            "first": height - m - self.first_header_height,
            "later": height - m - self.later_header_height,
        }
        buffer = io.BytesIO()
        doc = BaseDocTemplate(
            buffer,
            pagesize=self.pagesize,
            leftMargin=m, rightMargin=m, topMargin=m, bottomMargin=m,
            title=f"{self.title} — {self.subtitle()}".rstrip(" —"),
            author=self.jurisdiction,
            subject=self.title,
            creator="FieldOps",
            invariant=1,
        )
        doc.addPageTemplates([
            PageTemplate(
                id="first",
                frames=[Frame(m, body_bottom, width - 2 * m, frames["first"] - body_bottom,
                              id="first", leftPadding=0, rightPadding=0,
                              topPadding=0, bottomPadding=0)],
                onPage=self.first_page,
                autoNextPageTemplate="later",
            ),
            PageTemplate(
                id="later",
                frames=[Frame(m, body_bottom, width - 2 * m, frames["later"] - body_bottom,
                              id="later", leftPadding=0, rightPadding=0,
                              topPadding=0, bottomPadding=0)],
                onPage=self.later_pages,
            ),
        ])
        utc = self.printed_at.astimezone(ZoneInfo("UTC"))
        canvasmaker = partial(_NumberedCanvas, page_label=self._draw_page_number,
                              pdf_date=f"D:{utc:%Y%m%d%H%M%S}+00'00'")
        doc.build(self.story(), canvasmaker=canvasmaker)
        return buffer.getvalue()

    @property
    def body_width(self) -> float:
        return self.pagesize[0] - 2 * self.margin

    # -- page furniture -------------------------------------------------------

    def _draw_header(self, canvas: Canvas, *, first: bool) -> None:
        width, height = self.pagesize
        m = self.margin
        top = height - m
        right = width - m
        sub = clean(self.subtitle())
        canvas.saveState()
        canvas.setFillColor(colors.black)
        if first:
            canvas.setFont(self.bold, 10)
            canvas.drawString(m, top - 10, fit(self.jurisdiction, self.bold, 10, self.body_width))
            canvas.setFont(self.bold, 17)
            sub_w = stringWidth(sub, self.bold, 11) + 12 if sub else 0
            canvas.drawString(m, top - 32, fit(self.title, self.bold, 17, self.body_width - sub_w))
            if sub:
                canvas.setFont(self.bold, 11)
                canvas.drawRightString(right, top - 32, sub)
            rule_y = top - 42
            canvas.setLineWidth(1.2)
        else:
            canvas.setFont(self.font, 8.5)
            sub_w = stringWidth(sub, self.bold, 8.5) + 12 if sub else 0
            left = fit(f"{self.jurisdiction} — {self.title} (continued)", self.font, 8.5,
                       self.body_width - sub_w)
            canvas.drawString(m, top - 9, left)
            if sub:
                canvas.setFont(self.bold, 8.5)
                canvas.drawRightString(right, top - 9, sub)
            rule_y = top - 15
            canvas.setLineWidth(0.6)
        canvas.setStrokeColor(colors.black)
        canvas.line(m, rule_y, right, rule_y)
        canvas.restoreState()

    def _draw_footer(self, canvas: Canvas) -> None:
        width, _ = self.pagesize
        m = self.margin
        canvas.saveState()
        canvas.setStrokeColor(GRID)
        canvas.setLineWidth(0.5)
        canvas.line(m, m + 12, width - m, m + 12)
        canvas.setFont(self.font, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(m, m + 2, f"Printed {fmt_datetime(self.printed_at, self.tz)}")
        note = clean(self.footer_note())
        if note:
            canvas.drawCentredString(width / 2, m + 2, fit(note, self.font, 7.5, width / 2 - m))
        canvas.restoreState()

    def _draw_page_number(self, canvas: Canvas, number: int, total: int) -> None:
        width, _ = self.pagesize
        canvas.saveState()
        canvas.setFont(self.font, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawRightString(width - self.margin, self.margin + 2, f"Page {number} of {total}")
        canvas.restoreState()

    # -- building blocks ------------------------------------------------------

    def heading(self, text: str, *, keep: float = 1.1 * inch) -> list[Flowable]:
        """A section heading that starts a new page rather than end one.

        CondPageBreak, not ``keepWithNext``: ReportLab keeps a heading with a
        table by moving both to the next page, even when the table is longer
        than a page and would have split anyway, leaving a half-empty page.
        """
        return [CondPageBreak(keep), para(text, self.s["h2"])]

    def text(self, text: object, style: str = "body") -> Paragraph:
        return para(text, self.s[style])

    def key_values(self, pairs: Iterable[tuple[str, object]], *, columns: int = 1,
                   label_width: float = 1.7 * inch, width: float | None = None) -> Table:
        """A block of bold labels and wrapping values, ``columns`` pairs side by side.

        A value may be user text (escaped here; "" prints "—"), :class:`Markup`,
        a Flowable, or a list of Flowables.
        """
        width = width or self.body_width
        cells = [[para(label, self.s["cell_bold"]), self._value_cell(value)]
                 for label, value in pairs]
        per_row = 2 * columns
        rows = [sum(cells[i:i + columns], []) for i in range(0, len(cells), columns)]
        if rows and len(rows[-1]) < per_row:
            rows[-1] += [""] * (per_row - len(rows[-1]))
        value_width = width / columns - label_width
        table = Table(rows, colWidths=[label_width, value_width] * columns, hAlign="LEFT")
        table.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#d5dade")),
        ]))
        return table

    def _value_cell(self, value: object) -> object:
        if isinstance(value, Flowable | list):
            return value
        shown = value if isinstance(value, Markup) or clean(value).strip() else NOT_RECORDED
        return para(shown, self.s["cell"])

    def data_table(
        self,
        header: Sequence[str],
        rows: Iterable[Sequence[object]],
        widths: Sequence[float],
        *,
        wrap: Collection[int] = (),
        right: Collection[int] = (),
        total_rows: Sequence[Sequence[object]] = (),
        chunk: int = 500,
        font_size: float = 8.5,
        zebra: bool = True,
    ) -> list[Flowable]:
        """Rows as one or more tables with the header repeated on every page.

        Cells are plain strings, drawn literally (no markup, nothing to
        escape) and fast; in a ``wrap`` column they are broken into lines by
        :func:`wrap_text`, elsewhere they stay on one line. A cell may also be
        :class:`Markup` (becomes a Paragraph) or a Flowable, for the few cells
        that need bold or colour. Long row lists are split into tables of
        ``chunk`` rows, because ReportLab's page-splitting of one long table
        grows with the square of its length. ``total_rows`` are appended,
        bold, to the last table.
        """
        widths = list(widths)
        wrap_set, right_set = frozenset(wrap), frozenset(right)
        cell_style = ParagraphStyle("dt_cell", parent=self.s["cell"], fontSize=font_size,
                                    leading=font_size + 2)
        limits = [w - 2 * CELL_PAD - 0.5 for w in widths]
        font = self.font

        def cell(col: int, value: object) -> object:
            if isinstance(value, Flowable):
                return value
            if isinstance(value, Markup):
                return Paragraph(value, cell_style)
            text = clean(value)
            if col in wrap_set:
                return wrap_text(text, font, font_size, limits[col])
            return text.replace("\n", " ")

        body = [[cell(c, v) for c, v in enumerate(row)] for row in rows]
        totals = [[cell(c, v) for c, v in enumerate(row)] for row in total_rows]
        head = [wrap_text(clean(h), self.bold, font_size, limits[c]) for c, h in enumerate(header)]
        if not body:
            body = [["No entries."] + [""] * (len(head) - 1)]
        pieces = [body[i:i + chunk] for i in range(0, len(body), chunk)]
        flowables: list[Flowable] = []
        for n, piece in enumerate(pieces):
            last = n == len(pieces) - 1
            data = [head, *piece, *(totals if last else [])]
            commands: list[tuple] = [
                ("FONTNAME", (0, 0), (-1, -1), self.font),
                ("FONTSIZE", (0, 0), (-1, -1), font_size),
                ("LEADING", (0, 0), (-1, -1), font_size + 2),
                ("FONTNAME", (0, 0), (-1, 0), self.bold),
                ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, GRID),
            ]
            for col in right_set:
                commands.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
            if zebra:
                commands.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, ZEBRA]))
            if last and totals:
                first_total = len(data) - len(totals)
                commands += [
                    ("FONTNAME", (0, first_total), (-1, -1), self.bold),
                    ("LINEABOVE", (0, first_total), (-1, first_total), 0.8, colors.black),
                    ("BACKGROUND", (0, first_total), (-1, -1), colors.white),
                ]
            table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
            table.setStyle(TableStyle(commands))
            flowables.append(table)
        return flowables

    def spacer(self, points: float = 6) -> Spacer:
        return Spacer(1, points)
