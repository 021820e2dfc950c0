"""The quarantine log for a period (issue 11): one line per bite, in the frame every record
report shares (``fieldops.reports.frame.ReportDocument``: the period, who generated it,
the column headings on every page, what a public-records copy withheld, a signature line).

Cells are plain text drawn literally (``Document.data_table``): "O'Brien & <Sons>" prints
as typed."""

from __future__ import annotations

from typing import Any

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable

from fieldops.modules import ReportRequest, ReportTable
from fieldops.reports.base import markup
from fieldops.reports.frame import ReportDocument, request_details

__all__ = ["quarantine_log_pdf"]

# Column widths in inches, in the order of fieldops.services.quarantine.log.COLUMNS.
WIDTHS = (1.05, 1.2, 1.1, 1.2, 1.0, 1.15, 0.6, 0.95, 1.05, 0.9)


class QuarantineLog(ReportDocument):
    title = "Quarantine log"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(self, table: ReportTable, **kwargs: Any) -> None:
        super().__init__(withheld=table.withheld, **kwargs)
        self.table = table

    def footer_note(self) -> str:
        return "City code 58-527; Wis. Stat. 95.21"

    def body(self) -> list[Flowable]:
        t = self.table
        scale = self.body_width / (sum(WIDTHS) * inch)
        return [
            self.text(
                markup(
                    "Every bite reported in the period: {} bite(s). Exams done counts the "
                    "required examinations recorded.",
                    str(len(t.rows)),
                )
            ),
            self.spacer(),
            *self.data_table(
                t.columns,
                t.rows,
                [w * inch * scale for w in WIDTHS],
                wrap=range(len(t.columns)),
                font_size=7.5,
            ),
        ]


def quarantine_log_pdf(table: ReportTable, request: ReportRequest) -> bytes:
    return QuarantineLog(
        table,
        period_start=request.start,
        period_end=request.end,
        redacted=request.redacted,
        **request_details(request),
    ).render()
