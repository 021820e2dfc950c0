"""The supervisor's report of vicious-animal cases for a period (city code 58-524; issue 11).

One line per case with something on record in the period: the declaration or refusal,
the notices with their service and deadline, the outcome and the next steps; the counts
after the table, in the frame every record report shares
(``fieldops.reports.frame.ReportDocument``: the period, who generated it, a signature line). Cells are the same plain strings the
CSV carries (``fieldops.services.vicious.reporting.row_cells``), drawn literally.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether

from fieldops.modules import ReportRequest
from fieldops.reports.base import markup
from fieldops.reports.frame import ReportDocument, request_details

__all__ = ["ViciousCasesReport", "vicious_cases_report"]

# Column widths in inches, in COLUMNS order; the last takes what is left of the page.
WIDTHS = (0.38, 0.85, 0.9, 1.05, 1.1, 0.55, 0.75, 1.6, 0.95, 1.05)


class ViciousCasesReport(ReportDocument):
    title = "Vicious-animal cases"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        counts: Sequence[tuple[str, int]],
        note: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.columns = tuple(columns)
        self.rows = rows
        self.counts = counts
        self.note = note

    def footer_note(self) -> str:
        return "Vicious-animal cases under city code 58-524"

    def body(self) -> list[Flowable]:
        widths = [w * inch for w in WIDTHS]
        widths.append(self.body_width - sum(widths))
        n = len(self.rows)
        heads = [label for label, _n in self.counts]
        values = [str(v) for _label, v in self.counts]
        width = min(1.2 * inch, self.body_width / max(len(heads), 1))
        return [
            self.text(
                markup(
                    "Cases with something on record in the period: a declaration or refusal, "
                    "a notice served, an outcome, a next step due or taken, or a withdrawal "
                    "or overturning. <b>{}</b>. {}",
                    f"{n} case" + ("" if n == 1 else "s"),
                    self.note,
                )
            ),
            self.spacer(6),
            *self.data_table(
                self.columns,
                self.rows,
                widths,
                wrap=set(range(1, len(self.columns))),
                font_size=7,
            ),
            self.spacer(10),
            KeepTogether(
                [
                    self.text("Counts for the period", "h2"),
                    *self.data_table(
                        heads,
                        [values],
                        [width] * len(heads),
                        right=set(range(len(heads))),
                        zebra=False,
                    ),
                ]
            ),
        ]


def vicious_cases_report(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    request: ReportRequest,
    *,
    counts: Sequence[tuple[str, int]],
    note: str,
) -> bytes:
    """The report's PDF, landscape, headers repeated on every page."""
    return ViciousCasesReport(
        columns,
        rows,
        counts=counts,
        note=note,
        period_start=request.start,
        period_end=request.end,
        redacted=request.redacted,
        **request_details(request),
    ).render()
