"""The call log and the citations register for a period (issue 16; city code 58-534).

One line per call or citation, in number order, in the frame every record report shares
(``fieldops.reports.frame.ReportDocument``: the period, who generated it, a signature
line). The cells are the same plain strings the CSV carries
(``fieldops.services.calls.reports``), drawn literally by the register's table
(``fieldops.reports.register_draw.RegisterTable``: laid out once, drawn straight on the
canvas), in tables of ``TABLE_LINES`` lines, the header repeated on every page.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable

from fieldops.modules import ReportRequest
from fieldops.reports.base import markup
from fieldops.reports.frame import ReportDocument, request_details
from fieldops.reports.register_draw import RegisterTable

__all__ = ["CallLog", "CitationsRegister", "call_log_pdf", "citations_pdf"]

TABLE_LINES = 500

# Column widths in inches, in the columns' order; a None column takes what is left.
CALL_WIDTHS = (0.5, 1.7, 1.55, None, 0.7, 1.1, 1.3, 1.3)
CITATION_WIDTHS = (0.5, None, 0.7, 1.9, 1.5, 1.2, 1.2)


def _widths(inches: Sequence[float | None], body: float) -> list[float]:
    fixed = sum(w for w in inches if w is not None) * inch
    return [(w * inch if w is not None else body - fixed) for w in inches]


def _tables(
    doc: ReportDocument,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    widths: list[float],
    *,
    wrap: Collection[int],
    right: Collection[int] = (),
    totals: Sequence[Sequence[str]] = (),
) -> list[Flowable]:
    """The lines as register tables of ``TABLE_LINES`` lines each, the header on each, the
    totals (if any) under the last ("No entries." for none)."""
    starts = range(0, max(len(rows), 1), TABLE_LINES)
    return [
        RegisterTable(
            columns,
            rows[first : first + TABLE_LINES],
            widths,
            font=doc.font,
            bold=doc.bold,
            font_size=8,
            wrap=wrap,
            right=right,
            totals=totals if first == starts[-1] else (),
        )
        for first in starts
    ]


class CallLog(ReportDocument):
    """The call log: one line per call received in the period."""

    title = "Call log"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(
        self, columns: Sequence[str], rows: Sequence[Sequence[str]], *, note: str, **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.columns, self.rows, self.note = tuple(columns), rows, note

    def footer_note(self) -> str:
        return "Field calls under city code 58-534"

    def body(self) -> list[Flowable]:
        n = len(self.rows)
        return [
            self.text(
                markup(
                    "Calls received in the period, in order of call number: <b>{}</b>. "
                    "The officer and the outcome are those of each call's latest "
                    "dispatch. {}",
                    f"{n} call" + ("" if n == 1 else "s"),
                    self.note,
                )
            ),
            self.spacer(6),
            *_tables(
                self,
                self.columns,
                self.rows,
                _widths(CALL_WIDTHS, self.body_width),
                wrap={1, 2, 3, 5, 6, 7},
            ),
        ]


class CitationsRegister(ReportDocument):
    """The citations register: one line per citation issued in the period."""

    title = "Citations register"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[str]],
        totals: Sequence[str],
        *,
        note: str,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.columns, self.rows, self.totals, self.note = tuple(columns), rows, totals, note

    def footer_note(self) -> str:
        return "Citations under city code 58-534(b): each day of a violation is one offence"

    def body(self) -> list[Flowable]:
        n = len(self.rows)
        return [
            self.text(
                markup(
                    "Citations issued in the period, in order of number: <b>{}</b>. Each "
                    "is one offence (one section, one person, one day); the offence number "
                    "is its place on the penalty ladder. {}",
                    f"{n} citation" + ("" if n == 1 else "s"),
                    self.note,
                )
            ),
            self.spacer(6),
            *_tables(
                self,
                self.columns,
                self.rows,
                _widths(CITATION_WIDTHS, self.body_width),
                wrap={1, 3, 4, 6},
                right={4},
                totals=[self.totals],
            ),
        ]


def call_log_pdf(
    columns: Sequence[str], rows: Sequence[Sequence[str]], request: ReportRequest, *, note: str
) -> bytes:
    return CallLog(
        columns,
        rows,
        note=note,
        period_start=request.start,
        period_end=request.end,
        redacted=request.redacted,
        **request_details(request),
    ).render()


def citations_pdf(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    totals: Sequence[str],
    request: ReportRequest,
    *,
    note: str,
) -> bytes:
    return CitationsRegister(
        columns,
        rows,
        totals,
        note=note,
        period_start=request.start,
        period_end=request.end,
        redacted=request.redacted,
        **request_details(request),
    ).render()
