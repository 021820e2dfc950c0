"""The register's table drawn straight on the canvas (issue 14: a year at a city's scale).

A ReportLab ``Table`` of the register's lines costs about a millisecond of CPU a line:
it re-measures every cell on each page split, keeps a style object per cell and draws
each string as a text object of its own. ``RegisterTable`` lays its lines out once
(each cell's text broken into lines, each line's height), splits at a page end by
adding heights, and draws a page of lines as one text object, its zebra as one fill
and its rules as one path. It draws what ``Document.data_table`` draws for the same
cells (the same fonts, sizes, paddings, colours, rules, header repeated on every page,
zebra restarting on each page, totals bold under a black rule), so the register looks
and reads as before; only the register uses it (its cells are plain strings).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from reportlab.lib import colors
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import PATH_OPS
from reportlab.platypus import Flowable

from fieldops.reports.base import CELL_PAD, GRID, HEAD_BG, ZEBRA
from fieldops.reports.text import clean, wrap_text

__all__ = ["RegisterTable", "Widths"]

TOP_PAD = 2
BOTTOM_PAD = 3
#: A line taller than this continues on the next page (as ``TallRowTable``'s rows do)
#: rather than failing the document.
TALL = 5 * 72.0

Cell = tuple[str, ...]  # a cell's text, one string per printed line
Row = tuple[Cell, ...]


class Widths:
    """``stringWidth`` of one font at one size, each distinct string measured once.

    A string of the main TrueType font's letters (the usual case) is measured here
    from a table of its letters' widths, added up as ReportLab adds them (the same
    widths in the same order, so the very same number); any other string, one that
    needs a fallback font say, through ``stringWidth``."""

    def __init__(self, font: str, size: float) -> None:
        self.font, self.size = font, size
        self._seen: dict[str, float] = {}
        face = getFont(font)
        # The main font's letters and their widths (ChainFont.runs draws a string of
        # these letters with the main font alone); None for a standard font.
        self._main: frozenset[int] | None = getattr(face, "_main", None)
        self._chars: dict[str, float] = {}
        if self._main is not None:
            self._widths = face.face.charWidths
            self._default = face.face.defaultWidth

    def __call__(self, text: str) -> float:
        w = self._seen.get(text)
        if w is None:
            if len(self._seen) > 200_000:  # a year's descriptions: bounded, not a leak
                self._seen.clear()
            w = self._seen[text] = self.measure(text)
        return w

    def measure(self, text: str) -> float:
        """``stringWidth(text, font, size)``, to the last bit."""
        if self._main is not None:
            try:
                return 0.001 * self.size * sum(map(self._chars.__getitem__, text))
            except KeyError:
                if self._learn(text):
                    return 0.001 * self.size * sum(map(self._chars.__getitem__, text))
        return float(stringWidth(text, self.font, self.size))

    def _learn(self, text: str) -> bool:
        """Add ``text``'s letters to the table; False when one is not the main font's."""
        main = self._main
        assert main is not None
        for char in set(text) - self._chars.keys():
            cp = ord(char)
            if cp not in main:
                return False
            self._chars[char] = self._widths.get(cp, self._default)
        return True

    def wrap(self, text: str, width: float) -> Cell:
        """``wrap_text``'s lines, the words measured through the cache (the same
        breaks: its widths are sums of the same word widths)."""
        if "\n" not in text and self(text) <= width:
            return (text,)
        space = self(" ")
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line, line_w = "", 0.0
            for word in paragraph.split():
                word_w = self(word)
                if word_w > width:  # broken between characters: rare, done as before
                    return tuple(wrap_text(text, self.font, self.size, width).split("\n"))
                if not line:
                    line, line_w = word, word_w
                elif line_w + space + word_w <= width:
                    line, line_w = f"{line} {word}", line_w + space + word_w
                else:
                    lines.append(line)
                    line, line_w = word, word_w
            lines.append(line)
        return tuple(lines)


class _Layout:
    """What every piece of one table shares: columns, fonts, measures."""

    def __init__(
        self,
        widths: Sequence[float],
        *,
        font: str,
        bold: str,
        font_size: float,
        wrap: Collection[int],
        right: Collection[int],
    ) -> None:
        self.widths = list(widths)
        self.x = [sum(self.widths[:i]) for i in range(len(self.widths))]
        self.total_width = sum(self.widths)
        self.font, self.bold, self.size = font, bold, font_size
        self.leading = font_size + 2
        self.wrap, self.right = frozenset(wrap), frozenset(right)
        self.limits = [w - 2 * CELL_PAD - 0.5 for w in self.widths]
        self.regular = Widths(font, font_size)
        self.bold_widths = Widths(bold, font_size)

    def cells(self, values: Sequence[object]) -> Row:
        """One line's cells as ``data_table`` prints plain strings: wrapped in a
        ``wrap`` column (measured in the regular font, as there), else on one line."""
        out = []
        for col, value in enumerate(values):
            text = clean(value)
            if col in self.wrap:
                out.append(self.regular.wrap(text, self.limits[col]))
            else:
                out.append((text.replace("\n", " "),))
        return tuple(out)

    def height(self, row: Row) -> float:
        return max(len(c) for c in row) * self.leading + TOP_PAD + BOTTOM_PAD


class RegisterTable(Flowable):  # type: ignore[misc]  # ReportLab is untyped
    """``Document.data_table``'s look for plain-text rows, laid out once and drawn
    straight on the canvas; splits between lines at a page end with the header
    repeated (when it has one).

    ``header`` is bold on a grey band over a black rule; ``rows`` alternate white and
    a pale zebra from the first line of each page; ``totals`` are bold, on white,
    under a black rule, after the last line.
    """

    def __init__(
        self,
        header: Sequence[str] | None,
        rows: Sequence[Sequence[object]],
        widths: Sequence[float],
        *,
        font: str,
        bold: str,
        font_size: float = 8.5,
        wrap: Collection[int] = (),
        right: Collection[int] = (),
        totals: Sequence[Sequence[object]] = (),
    ) -> None:
        super().__init__()
        layout = _Layout(widths, font=font, bold=bold, font_size=font_size, wrap=wrap, right=right)
        head: Row | None = None
        if header is not None:
            head = tuple(
                layout.bold_widths.wrap(clean(h), layout.limits[c]) for c, h in enumerate(header)
            )
        body = [layout.cells(r) for r in rows]
        if not body:
            body = [(("No entries.",), *[("",)] * (len(widths) - 1))]
        lines = [(r, False) for r in body] + [(layout.cells(t), True) for t in totals]
        self._init(layout, head, lines)

    def _init(
        self,
        layout: _Layout,
        head: Row | None,
        lines: list[tuple[Row, bool]],
        heights: list[float] | None = None,
    ) -> None:
        self._layout = layout
        self._head = head
        self._lines = lines  # (cells, is a totals line)
        self._head_h = layout.height(head) if head is not None else 0.0
        self._heights = heights if heights is not None else [layout.height(r) for r, _ in lines]
        self.hAlign = "LEFT"
        self.width = layout.total_width
        self.height = self._head_h + sum(self._heights)

    def _piece(self, start: int, end: int | None = None) -> RegisterTable:
        """Lines ``start:end`` with this table's header, measured already."""
        piece: RegisterTable = RegisterTable.__new__(RegisterTable)
        Flowable.__init__(piece)
        piece._init(self._layout, self._head, self._lines[start:end], self._heights[start:end])
        return piece

    def _cut(self, lines: list[tuple[Row, bool]]) -> RegisterTable:
        piece: RegisterTable = RegisterTable.__new__(RegisterTable)
        Flowable.__init__(piece)
        piece._init(self._layout, self._head, lines)
        return piece

    # -- platypus ---------------------------------------------------------------

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        """Between lines, as a ``Table`` splits: the lines that fit (with the header),
        then the rest (with the header again); nothing when not even one line fits."""
        h = self._head_h
        n = 0
        for rh in self._heights:
            if h + rh > availHeight:
                break
            h += rh
            n += 1
        if n == len(self._lines):
            return [self]
        if n == 0:
            return self._split_tall_line(availHeight)
        return [self._piece(0, n), self._piece(n)]

    def _split_tall_line(self, availHeight: float) -> list[Flowable]:  # noqa: N803
        """A first line taller than ``TALL`` is cut between its printed lines (neither
        part under two of them), as ``TallRowTable`` does; any other moves whole."""
        (row, total), rest = self._lines[0], self._lines[1:]
        lead = self._layout.leading
        fit = int((availHeight - self._head_h - TOP_PAD - BOTTOM_PAD) // lead)
        tallest = max(len(c) for c in row)
        if self._heights[0] <= TALL or fit < 2 or tallest - fit < 2:
            return []
        first = tuple(c[:fit] or ("",) for c in row)
        second = tuple(c[fit:] or ("",) for c in row)
        return [self._cut([(first, total)]), self._cut([(second, total), *rest])]

    def draw(self) -> None:
        canv = self.canv
        lay = self._layout
        width = lay.total_width
        canv.saveState()
        # Backgrounds: the header's band, the zebra (every second line from the first
        # line of this page), the totals on white.
        y = self.height
        if self._head is not None:
            canv.setFillColor(HEAD_BG)
            canv.rect(0, y - self._head_h, width, self._head_h, stroke=0, fill=1)
            y -= self._head_h
        tops = []
        numbers = _memo(canv._doc)[0]
        w = _number(numbers, width)
        zebra = ["n"]  # as a new path and its rect() write them, numbers formatted once
        for i, ((_, total), rh) in enumerate(zip(self._lines, self._heights, strict=True)):
            tops.append(y)
            if i % 2 and not total:
                zebra.append(f"0 {_number(numbers, y - rh)} {w} {_number(numbers, rh)} re")
            y -= rh
        if len(zebra) > 1:
            canv.setFillColor(ZEBRA)
            canv.addLiteral(" ".join(zebra))  # as canv.drawPath(path, stroke=0, fill=1)
            canv.addLiteral(PATH_OPS[0, 1, canv._fillMode])
        # The text: one text object for the page, begun at its first line (a text
        # object begun elsewhere reads, to a text extractor, as a space before it).
        canv.setFillColor(colors.black)
        text = _Text(canv)
        if self._head is not None:
            self._text_row(text, self._head, self.height, lay.bold, lay.bold_widths)
        for (row, total), top in zip(self._lines, tops, strict=True):
            if total:
                self._text_row(text, row, top, lay.bold, lay.bold_widths)
            else:
                self._text_row(text, row, top, lay.font, lay.regular)
        text.draw()
        # The rules: a thin grey rule under every line, black under the header and
        # above the totals.
        canv.setLineCap(1)
        canv.setLineJoin(1)
        canv.setStrokeColor(GRID)
        canv.setLineWidth(0.25)
        rules = " ".join(
            f"0 {b} m {w} {b} l"
            for b in (_number(numbers, t - h) for t, h in zip(tops, self._heights, strict=True))
        )
        canv.addLiteral(f"n {rules} S")  # as canv.lines writes them
        canv.setStrokeColor(colors.black)
        canv.setLineWidth(0.8)
        if self._head is not None:
            b = self.height - self._head_h
            canv.line(0, b, width, b)
        first_total = next((i for i, (_, t) in enumerate(self._lines) if t), None)
        if first_total is not None:
            canv.line(0, tops[first_total], width, tops[first_total])
        canv.restoreState()

    def _text_row(self, text: _Text, row: Row, top: float, font: str, measure: Widths) -> None:
        lay = self._layout
        for col, cell in enumerate(row):
            y = top - TOP_PAD - lay.size
            right = col in lay.right
            edge = lay.x[col] + (lay.widths[col] - CELL_PAD if right else CELL_PAD)
            # Every line ended as a Table ends it (an empty one too), so a reader
            # extracting the text gets one cell line per line, as before.
            text.cell(edge, y, cell, font, lay, measure if right else None)


class _Text:
    """One text object: begun at its first line, the font set only when it changes.

    With a TrueType font (the usual case) its operators are written here, as
    ``PDFTextObject`` writes them (a line: its origin, its runs of glyphs, each run's
    subset and fallback font named when it changes, then ``T*``), each distinct line's
    runs encoded once per document and each coordinate formatted once; a standard
    font goes through ReportLab's text object.
    """

    def __init__(self, canv: Any) -> None:
        self._canv = canv
        self._doc = canv._doc
        self._text: Any = None  # ReportLab's text object, for a standard font
        self._code: list[str] = []
        self._font: Any = None
        self._subset = -1
        self._tmpl = ""
        self._memo = _memo(self._doc)
        self._first: _FirstSubset | None = None  # the current TrueType font's

    def cell(
        self, edge: float, y: float, cell: Cell, font: str, lay: _Layout, right: Widths | None
    ) -> None:
        """A cell's lines from ``y`` down, each begun at ``edge`` (ended there when
        ``right`` measures them): ``line`` for each, with the usual line of the
        current first subset written here at once."""
        same = self._text is None and self._font is not None and font == self._font.fontName
        first = self._first if same else None  # None: each line the long way
        numbers = self._memo[0]
        for line in cell:
            x = edge - right(line) if right is not None else edge
            if first is not None and self._subset == 0 and line and first.known.issuperset(line):
                self._code.append(
                    f"1 0 0 1 {_number(numbers, x)} {_number(numbers, y)} Tm "
                    f"({line.translate(first.escaped)}) Tj T*"
                )
            else:
                self.line(x, y, line, font, lay)
            y -= lay.leading

    def line(self, x: float, y: float, line: str, font: str, lay: _Layout) -> None:
        if self._font is None or font != self._font.fontName:
            self._font = getFont(font)
            self._subset = -1
            self._tmpl = f"{fp_str(lay.size)} Tf {fp_str(lay.leading)} TL"
            if self._font._dynamicFont:
                self._first = _first_subset(self._font, self._doc)
            if not self._font._dynamicFont and self._text is None:
                self._text = self._canv.beginText(x, y)
            if self._text is not None:
                self._text.setFont(font, lay.size, lay.leading)
        if self._text is not None:
            self._text.setTextOrigin(x, y)
            self._text.textLine(line)
            return
        numbers, shown = self._memo
        code = self._code
        code.append(f"1 0 0 1 {_number(numbers, x)} {_number(numbers, y)} Tm")
        first = self._first
        assert first is not None  # set with the TrueType font
        if line and first.known.issuperset(line):
            # Letters the document's first subset holds already: the line's bytes
            # as splitString and escapePDF give them, by one table.
            shown_line = f"({line.translate(first.escaped)}) Tj T*"
            if self._subset != 0:
                shown_line = f"{first.name} {self._tmpl} {shown_line}"
                self._subset = 0
            code.append(shown_line)
            return
        key = (font, line, self._subset)
        runs = shown.get(key)
        if runs is None:
            if len(shown) > 50_000:  # distinct lines of one document: bounded
                shown.clear()
            runs = shown[key] = self._runs(line)
            first.learn(line)
        code.append(runs[0])
        self._subset = runs[1]

    def _runs(self, line: str) -> tuple[str, int]:
        out = []
        current = self._subset
        for subset, t in self._font.splitString(line, self._doc):
            if subset != current:
                out.append(f"{self._font.getSubsetInternalName(subset, self._doc)} {self._tmpl}")
                current = subset
            out.append(f"({escapePDF(t)}) Tj")
        return f"{' '.join(out)} T*", current

    def draw(self) -> None:
        if self._text is not None:
            self._canv.drawText(self._text)
        elif self._code:
            self._canv.addLiteral(f"BT {' '.join(self._code)} ET")


class _FirstSubset:
    """The letters of the main font a document has put in the font's first subset
    (``TTFont.splitString`` gives each letter its code the first time the document
    draws it, and that code stays), with the escaped code each is drawn as."""

    def __init__(self, font: Any, doc: Any) -> None:
        self.font, self.doc = font, doc
        self.main: frozenset[int] = getattr(font, "_main", frozenset())
        self.known: set[str] = set()
        self.escaped: dict[int, str] = {}  # a str.translate table
        self.name = ""

    def learn(self, line: str) -> None:
        """After ``line`` was drawn the usual way: its main-font letters' codes."""
        state = self.font.state.get(self.doc)
        if state is None:
            return
        glyphs = self.font.face.charToGlyph
        for char in set(line) - self.known:
            cp = ord(char)
            if cp not in self.main:  # drawn with a fallback font, or by ASCII's rule
                continue
            n = state.assignments.get(32 if cp == 0xA0 else cp)  # splitString's nbsp
            if n is None:
                if cp in glyphs:
                    continue  # not given a code yet (it was not in the line's run)
                n = 0  # no glyph: drawn as code 0, always
            if n >> 8:
                continue  # in a later subset: the usual way
            if not self.name:
                self.name = self.font.getSubsetInternalName(0, self.doc)
            self.escaped[cp] = escapePDF(bytes((n,)))
            self.known.add(char)


def _first_subset(font: Any, doc: Any) -> _FirstSubset:
    table = _FIRST.get(doc)
    if table is None:
        table = _FIRST[doc] = {}
    first = table.get(font.fontName)
    if first is None:
        first = table[font.fontName] = _FirstSubset(font, doc)
    return first


_FIRST: WeakKeyDictionary[Any, dict[str, _FirstSubset]] = WeakKeyDictionary()

_MEMOS: WeakKeyDictionary[Any, tuple[dict[float, str], dict[tuple[str, str, int], tuple[str, int]]]]
_MEMOS = WeakKeyDictionary()


def _memo(doc: Any) -> tuple[dict[float, str], dict[tuple[str, str, int], tuple[str, int]]]:
    """Formatted numbers and encoded lines of one PDF document (the subsets a line's
    glyphs are in are the document's)."""
    memo = _MEMOS.get(doc)
    if memo is None:
        memo = _MEMOS[doc] = ({}, {})
    return memo


def _number(numbers: dict[float, str], value: float) -> str:
    text = numbers.get(value)
    if text is None:
        if len(numbers) > 50_000:
            numbers.clear()
        text = numbers[value] = fp_str(value)
    return text
