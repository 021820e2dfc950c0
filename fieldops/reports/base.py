"""The one ReportLab document base every FieldOps PDF derives from.

Data in, PDF bytes out: ``render()`` builds the PDF in memory and returns its
bytes; nothing here writes a file or opens a session or a window. (The only
file ever read is a system font, once per process: see ``fonts.unicode_font``.)

Override points follow pretix's invoice renderer: fonts, styles, first and
later page templates, and the story. Text helpers (``esc`` and friends) live
in ``text.py`` and are re-exported here.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime, tzinfo
from functools import lru_cache, partial
from typing import Any, TypedDict
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
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

from fieldops import __version__, resources
from fieldops.reports.flowables import FirstThatFits, TallRowTable
from fieldops.reports.text import (
    NOT_RECORDED,
    Markup,
    clean,
    esc,
    fit,
    fmt_date,
    fmt_datetime,
    fmt_local_date,
    markup,
    money,
    para,
    require_aware,
    unicode_font,
    wrap_text,
    yes_no,
)

__all__ = [
    "ALERT",
    "NOT_RECORDED",
    "Document",
    "FirstThatFits",
    "Markup",
    "clean",
    "esc",
    "fit",
    "fmt_date",
    "fmt_datetime",
    "fmt_local_date",
    "markup",
    "money",
    "para",
    "require_aware",
    "unicode_font",
    "wrap_text",
    "yes_no",
]


# ------------------------------------------------------------------- page numbers


class _NumberedCanvas(Canvas):
    """Holds every page until the end so each footer can say "Page X of Y"."""

    def __init__(
        self,
        *args: Any,
        page_label: Callable[[Canvas, int, int], None],
        pdf_date: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._held_pages: list[dict[str, Any]] = []
        self._page_label = page_label
        # With invariant=1 ReportLab stamps 2000-01-01; stamp the print time instead,
        # which keeps the bytes reproducible and the document info truthful.
        self.setDateFormatter(lambda *_: pdf_date)

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        # The page's operators as one string (ReportLab joins them with newlines
        # anyway): a held page of many small strings costs a third more memory.
        self._code[:] = ["\n".join(self._code)]
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
LETTERHEAD_SIZE = 36  # points: the badge spans the jurisdiction and title lines


@lru_cache(maxsize=1)
def letterhead_mark() -> ImageReader | None:
    """The badge of the letterhead (resources/letterhead), read once; None if missing.

    A broken install prints documents without the badge rather than not at all.
    """
    try:
        return ImageReader(io.BytesIO(resources.read_bytes(resources.LETTERHEAD_MARK)))
    except resources.ResourceMissing:
        return None


class PageDetails(TypedDict):
    """What every document is printed with (``Document``'s keyword arguments)."""

    jurisdiction: str
    tz: tzinfo
    printed_at: datetime


class Document:
    """A FieldOps PDF. Subclasses set ``title`` and override ``story()``.

    Override points: ``fonts()``, ``styles()``, ``subtitle()``,
    ``footer_note()``, ``first_page()``, ``later_pages()``, ``story()``,
    and ``pagesize``/``margin`` as class attributes. The first page carries
    the full header (jurisdiction, title, subtitle); later pages a one-line
    header, so their frame is taller. Every page gets the footer: print time
    (and who printed it, when given), the app's version, an optional note,
    "Page X of Y" and, when given, the audit trail's latest link.
    """

    title = "Document"
    pagesize: tuple[float, float] = letter
    margin: float = 0.6 * inch
    first_header_height = 0.85 * inch
    later_header_height = 0.45 * inch
    footer_height = 0.35 * inch

    def __init__(
        self,
        *,
        jurisdiction: str,
        tz: tzinfo,
        printed_at: datetime,
        printed_by: str = "",
        audit_head: str = "",
    ) -> None:
        require_aware(printed_at, "printed_at")
        # The audit trail's latest link when printed (fieldops.services.audit.audit_head):
        # a trail later cut back or rewritten no longer holds it. Set it before render().
        self.audit_head = clean(audit_head)
        self.jurisdiction = clean(jurisdiction)
        self.tz = tz
        self.printed_at = printed_at
        self.printed_by = clean(printed_by).strip()
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
            "h2": ParagraphStyle(
                "h2",
                parent=body,
                fontName=b,
                fontSize=11.5,
                leading=14,
                spaceBefore=10,
                spaceAfter=4,
            ),
            "small": ParagraphStyle("small", parent=body, fontSize=8, leading=10, textColor=MUTED),
            "note": ParagraphStyle("note", parent=body, fontSize=8.5, leading=11),
            "cell": ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5),
            "cell_bold": ParagraphStyle(
                "cell_bold", parent=body, fontName=b, fontSize=8.5, leading=10.5
            ),
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
            leftMargin=m,
            rightMargin=m,
            topMargin=m,
            bottomMargin=m,
            title=f"{self.title} — {self.subtitle()}".rstrip(" —"),
            author=self.jurisdiction,
            subject=self.title,
            creator="FieldOps",
            invariant=1,
        )
        doc.addPageTemplates(
            [
                PageTemplate(
                    id="first",
                    frames=[
                        Frame(
                            m,
                            body_bottom,
                            width - 2 * m,
                            frames["first"] - body_bottom,
                            id="first",
                            leftPadding=0,
                            rightPadding=0,
                            topPadding=0,
                            bottomPadding=0,
                        )
                    ],
                    onPage=self.first_page,
                    autoNextPageTemplate="later",
                ),
                PageTemplate(
                    id="later",
                    frames=[
                        Frame(
                            m,
                            body_bottom,
                            width - 2 * m,
                            frames["later"] - body_bottom,
                            id="later",
                            leftPadding=0,
                            rightPadding=0,
                            topPadding=0,
                            bottomPadding=0,
                        )
                    ],
                    onPage=self.later_pages,
                ),
            ]
        )
        utc = self.printed_at.astimezone(ZoneInfo("UTC"))
        canvasmaker = partial(
            _NumberedCanvas,
            page_label=self._draw_page_number,
            pdf_date=f"D:{utc:%Y%m%d%H%M%S}+00'00'",
        )
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
            # The letterhead: the badge, then the jurisdiction over the title beside it;
            # the subtitle (the record's number) at the top right, leaving the title the
            # whole width the badge leaves.
            mark = letterhead_mark()
            left = m
            if mark is not None:
                canvas.drawImage(
                    mark, m, top - LETTERHEAD_SIZE, LETTERHEAD_SIZE, LETTERHEAD_SIZE, mask="auto"
                )
                left = m + LETTERHEAD_SIZE + 8
            room = right - left
            sub_w = stringWidth(sub, self.bold, 11) + 12 if sub else 0
            canvas.setFont(self.bold, 10)
            canvas.drawString(left, top - 10, fit(self.jurisdiction, self.bold, 10, room - sub_w))
            if sub:
                canvas.setFont(self.bold, 11)
                canvas.drawRightString(right, top - 10, sub)
            canvas.setFont(self.bold, 17)
            canvas.drawString(left, top - 32, fit(self.title, self.bold, 17, room))
            rule_y = top - 42
            canvas.setLineWidth(1.2)
        else:
            canvas.setFont(self.font, 8.5)
            sub_w = stringWidth(sub, self.bold, 8.5) + 12 if sub else 0
            heading = fit(
                f"{self.jurisdiction} — {self.title} (continued)",
                self.font,
                8.5,
                self.body_width - sub_w,
            )
            canvas.drawString(m, top - 9, heading)
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
        left = fit(self.printed_line(), self.font, 7.5, 0.4 * self.body_width)
        canvas.drawString(m, m + 2, left)
        note = clean(self.footer_note())
        if note:
            # Centred between the print line and the page number, never over either.
            side = max(
                stringWidth(left, self.font, 7.5),
                stringWidth(self._page_label(999, 999), self.font, 7.5),
            )
            room = self.body_width - 2 * side - 24
            if room > 40:
                canvas.drawCentredString(width / 2, m + 2, fit(note, self.font, 7.5, room))
        if self.audit_head:
            canvas.setFont(self.font, 6.5)
            canvas.drawString(m, m - 7, f"Audit trail at printing: {self.audit_head}")
        canvas.restoreState()

    def printed_line(self) -> str:
        """The footer's left: when it was printed and, when given, by whom."""
        by = f" by {self.printed_by}" if self.printed_by else ""
        return f"Printed {fmt_datetime(self.printed_at, self.tz)}{by}"

    @staticmethod
    def _page_label(number: int, total: int) -> str:
        return f"FieldOps {__version__} · Page {number} of {total}"

    def _draw_page_number(self, canvas: Canvas, number: int, total: int) -> None:
        width, _ = self.pagesize
        canvas.saveState()
        canvas.setFont(self.font, 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawRightString(
            width - self.margin, self.margin + 2, self._page_label(number, total)
        )
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

    def key_values(
        self,
        pairs: Iterable[tuple[str, object]],
        *,
        columns: int = 1,
        label_width: float = 1.7 * inch,
        width: float | None = None,
    ) -> Table:
        """A block of bold labels and wrapping values, ``columns`` pairs side by side.

        A value may be user text (escaped here; "" prints "—"), :class:`Markup`,
        a Flowable, or a list of Flowables.
        """
        width = width or self.body_width
        cells = [
            [para(label, self.s["cell_bold"]), self._value_cell(value)] for label, value in pairs
        ]
        per_row = 2 * columns
        rows = [
            [c for pair in cells[i : i + columns] for c in pair]
            for i in range(0, len(cells), columns)
        ]
        if rows and len(rows[-1]) < per_row:
            rows[-1] += [""] * (per_row - len(rows[-1]))
        value_width = width / columns - label_width
        table = TallRowTable(rows, colWidths=[label_width, value_width] * columns, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
                    ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#d5dade")),
                ]
            )
        )
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
        show_header: bool = True,
    ) -> list[Flowable]:
        """Rows as one or more tables with the header repeated on every page.

        ``show_header=False`` draws the rows alone, styled as a continuation of a
        table just above (the last rows of a table kept with what follows it).

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
        cell_style = ParagraphStyle(
            "dt_cell", parent=self.s["cell"], fontSize=font_size, leading=font_size + 2
        )
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
            body = [["No entries.", *[""] * (len(head) - 1)]]
        pieces = [body[i : i + chunk] for i in range(0, len(body), chunk)]
        flowables: list[Flowable] = []
        for n, piece in enumerate(pieces):
            last = n == len(pieces) - 1
            data = [*([head] if show_header else []), *piece, *(totals if last else [])]
            top = 1 if show_header else 0  # the first body row
            commands: list[tuple[object, ...]] = [
                ("FONTNAME", (0, 0), (-1, -1), self.font),
                ("FONTSIZE", (0, 0), (-1, -1), font_size),
                ("LEADING", (0, 0), (-1, -1), font_size + 2),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
                ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LINEBELOW", (0, top), (-1, -1), 0.25, GRID),
            ]
            if show_header:
                commands += [
                    ("FONTNAME", (0, 0), (-1, 0), self.bold),
                    ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ]
            for col in right_set:
                commands.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
            if zebra:
                commands.append(("ROWBACKGROUNDS", (0, top), (-1, -1), [None, ZEBRA]))
            if last and totals:
                first_total = len(data) - len(totals)
                commands += [
                    ("FONTNAME", (0, first_total), (-1, -1), self.bold),
                    ("LINEABOVE", (0, first_total), (-1, first_total), 0.8, colors.black),
                    ("BACKGROUND", (0, first_total), (-1, -1), colors.white),
                ]
            table = TallRowTable(data, colWidths=widths, repeatRows=top, hAlign="LEFT")
            table.setStyle(TableStyle(commands))
            flowables.append(table)
        return flowables

    def spacer(self, points: float = 6) -> Spacer:
        return Spacer(1, points)
