"""The register's lines drawn straight on the canvas (fieldops/reports/register_draw.py):
the same text, pages and page breaks as the ReportLab table it replaces, at a cost
that does not grow with ReportLab's table machinery (issue 14: a year at 1,000,000)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest
from reportlab.lib.units import inch
from reportlab.platypus import Table

from fieldops.reports.frame import ReportDocument
from fieldops.reports.register import REGISTER_COLUMNS, register_pdf
from fieldops.reports.register_draw import RegisterTable
from fieldops.services.register_views import RegisterTally
from tests.reports.fonts_support import runs_through, text_layer

MARCH = {"period_start": date(2026, 3, 1), "period_end": date(2026, 3, 31)}
WIDTHS = [0.6 * inch, 1.0 * inch, 2.7 * inch, 1.45 * inch, 2.3 * inch, 1.0 * inch, 1.45 * inch]
NAMES = [
    "Maria Gonzalez, 12 Elm St",
    'O\'Brien & <Sons> "Rex", 4 Oak Ave',
    "山田 太郎, 東京都 1-2-3",
    "Zoë 🐶 Ñandú, Rue de l'Église 7",
    "",
]
DESCRIPTIONS = [
    "Dog, brown, male, Labrador mix",
    "Cat, tabby, female, found near the school on 5th street with a red collar and a bell",
    "Supercalifragilisticexpialidociousandmorecharacterswithoutanyspace dog",
]
FEES = ["$0.00", "$35.00\nImpound fee $25.00\nBoarding $10.00"]


def lines(count: int) -> list[tuple[str, ...]]:
    return [
        (
            str(1000 + n),
            f"2026-03-{n % 28 + 1:02d}",
            DESCRIPTIONS[n % 3],
            "Transferred to Dane County Humane Society" if n % 4 == 3 else "Adopted",
            NAMES[n % 5],
            "" if n % 4 == 3 else "2026-04-01",
            FEES[n % 2],
        )
        for n in range(count)
    ]


class Listing(ReportDocument):
    """The same cells as ``Document.data_table`` draws them or as ``RegisterTable`` does."""

    title = "Test register"

    def __init__(self, rows, *, drawn: bool, header: bool, standard: bool = False, **kw):
        self.standard = standard
        super().__init__(**kw)
        self.rows, self.drawn, self.header = rows, drawn, header

    def fonts(self):
        """A machine without a Unicode TrueType family prints in Helvetica."""
        return ("Helvetica", "Helvetica-Bold") if self.standard else super().fonts()

    def body(self):
        totals = [["", "", f"Total: {len(self.rows)}", "", "", "", "$1.00"]]
        args = {"wrap": {2, 3, 4, 6}, "right": {6}, "font_size": 8}
        if self.drawn:
            head = REGISTER_COLUMNS if self.header else None
            table = RegisterTable(
                head, self.rows, WIDTHS, font=self.font, bold=self.bold, totals=totals, **args
            )
            return [table]
        return self.data_table(
            REGISTER_COLUMNS,
            self.rows,
            WIDTHS,
            total_rows=totals,
            show_header=self.header,
            **args,
        )


@pytest.mark.parametrize(
    ("count", "header", "standard"),
    [(0, True, False), (1, False, False), (70, True, False), (70, False, False), (9, True, True)],
)
def test_the_drawn_table_prints_what_the_reportlab_table_printed(
    count, header, standard, doc_args, read_pdf
):
    """Page for page: the cells' lines, wrapped words, header on every page, totals,
    page breaks (70 lines of one to three printed lines run over several pages)."""
    rows = lines(count)
    kw = {"header": header, "standard": standard, **MARCH, **doc_args}
    old = read_pdf(Listing(rows, drawn=False, **kw).render())
    new = read_pdf(Listing(rows, drawn=True, **kw).render())
    assert new == old
    if count > 50:
        assert len(new) > 2


def register(count: int, doc_args) -> bytes:
    tally = RegisterTally(count=count, total=Decimal("1.00"), dispositions=Counter(adopted=count))
    return register_pdf(lines(count), tally, **MARCH, **doc_args)


def test_the_registers_lines_are_not_laid_out_as_reportlab_tables(doc_args, monkeypatch):
    """A ReportLab Table re-measured every cell on every page split: a year took 73 s.
    Only the summary and the signature are tables now, however long the register."""
    made = []
    real = Table.__init__

    def counting(self, *args, **kwargs):
        made.append(len(args[0]) if args else 0)
        real(self, *args, **kwargs)

    monkeypatch.setattr(Table, "__init__", counting)
    register(3, doc_args)
    short = list(made)
    made.clear()
    register(520, doc_args)  # past a 500-line part
    assert made == short
    assert max(made) < 5  # the summary's few rows, never the lines


def test_a_line_taller_than_a_page_continues_on_the_next(doc_args, read_pdf):
    rows = lines(5)
    rows[1] = (*rows[1][:2], "word " * 3_000, *rows[1][3:])
    pages = read_pdf(register_pdf(rows, RegisterTally(count=5), **MARCH, **doc_args))
    assert len(pages) >= 3
    assert sum(p.count("word") for p in pages) == 3_000
    assert "Total: 5 impoundments" in pages[-1] + pages[-2]


def test_cjk_and_emoji_names_print_in_the_fallback_fonts(doc_args):
    layer = text_layer(register(10, doc_args))
    assert layer.notdef == []
    for name in ("山田 太郎, 東京都 1-2-3", "Zoë 🐶 Ñandú", 'O\'Brien & <Sons> "Rex"'):
        assert runs_through(name, layer.pages), name
