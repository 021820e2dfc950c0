"""The quarantine log for a period (issue 11): one line per bite, on the shared document base,
with the period in the header, the column headings on every page and a signature line.

Cells are plain text drawn literally (``Document.data_table``): "O'Brien & <Sons>" prints
as typed. A public-records copy says what it withheld and why."""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether

from fieldops.modules import ReportTable
from fieldops.reports.base import Document, fmt_date, markup

__all__ = ["quarantine_log_pdf"]

# Column widths in inches, in the order of fieldops.services.quarantine.log.COLUMNS.
WIDTHS = (1.05, 1.2, 1.1, 1.2, 1.0, 1.15, 0.6, 0.95, 1.05, 0.9)


class QuarantineLog(Document):
    title = "Quarantine log"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(
        self,
        table: ReportTable,
        start: date,
        end: date,
        *,
        printed_by: str,
        jurisdiction: str,
        tz: tzinfo,
        printed_at: datetime,
    ) -> None:
        super().__init__(jurisdiction=jurisdiction, tz=tz, printed_at=printed_at)
        self.table, self.start, self.end = table, start, end
        self.printed_by = printed_by

    def subtitle(self) -> str:
        return f"Bites from {fmt_date(self.start)} to {fmt_date(self.end)}"

    def footer_note(self) -> str:
        return "City code 58-527; Wis. Stat. 95.21" + (
            " — public-records copy" if self.table.withheld else ""
        )

    def story(self) -> list[Flowable]:
        t = self.table
        out: list[Flowable] = [
            self.text(
                markup(
                    "Every bite reported from {} to {}: {} bite(s). Exams done counts the "
                    "required examinations recorded.",
                    fmt_date(self.start),
                    fmt_date(self.end),
                    str(len(t.rows)),
                )
            ),
            self.spacer(),
        ]
        scale = self.body_width / (sum(WIDTHS) * inch)
        out += self.data_table(
            t.columns,
            t.rows,
            [w * inch * scale for w in WIDTHS],
            wrap=range(len(t.columns)),
            font_size=7.5,
        )
        if t.withheld:
            out += self.heading("Withheld from this copy")
            for w in t.withheld:
                out.append(self.text(markup("{}: {}.", w.what.capitalize(), w.why)))
        out.append(self.spacer(18))
        out.append(
            KeepTogether(
                [
                    self.text(markup("Printed by {}.", self.printed_by)),
                    self.spacer(14),
                    self.text("Reviewed by: " + "_" * 40 + "      Date: " + "_" * 20),
                ]
            )
        )
        return out


def quarantine_log_pdf(
    table: ReportTable,
    start: date,
    end: date,
    *,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
    printed_by: str,
) -> bytes:
    return QuarantineLog(
        table,
        start,
        end,
        printed_by=printed_by,
        jurisdiction=jurisdiction,
        tz=tz,
        printed_at=printed_at,
    ).render()
