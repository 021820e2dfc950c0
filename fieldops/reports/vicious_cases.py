"""The supervisor's report of vicious-animal cases for a period (city code 58-524; issue 11).

One line per case with something on record in the period: the declaration or refusal,
the notices with their service and deadline, the outcome and the next steps; the counts
after the table, and a line the supervisor signs. Cells are the same plain strings the
CSV carries (``fieldops.services.vicious.reporting.row_cells``), drawn literally.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Unpack

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, Table, TableStyle

from fieldops.reports.base import Document, PageDetails, fmt_date, fmt_datetime, markup

# Column widths in inches, in COLUMNS order; the last takes what is left of the page.
WIDTHS = (0.38, 0.85, 0.9, 1.05, 1.1, 0.55, 0.75, 1.6, 0.95, 1.05)


class ViciousCasesReport(Document):
    title = "Vicious-animal cases"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        period_start: date,
        period_end: date,
        printed_by: str,
        version: str,
        counts: Sequence[tuple[str, int]],
        withheld_note: str,
        **kwargs: Unpack[PageDetails],
    ) -> None:
        if period_end < period_start:
            raise ValueError("period_end is before period_start")
        super().__init__(**kwargs)
        self.columns = tuple(columns)
        self.rows = rows
        self.period_start = period_start
        self.period_end = period_end
        self.printed_by = printed_by
        self.version = version
        self.counts = counts
        self.withheld_note = withheld_note

    def subtitle(self) -> str:
        return f"{fmt_date(self.period_start)} to {fmt_date(self.period_end)}"

    def footer_note(self) -> str:
        return "Vicious-animal cases under city code 58-524"

    def story(self) -> list[Flowable]:
        widths = [w * inch for w in WIDTHS]
        widths.append(self.body_width - sum(widths))
        n = len(self.rows)
        story: list[Flowable] = [
            self.text(
                markup(
                    "Cases with something on record from <b>{}</b> to <b>{}</b> (local dates): "
                    "a declaration or refusal, a notice served, an outcome, a next step due or "
                    "taken, or a withdrawal or overturning. <b>{}</b>.",
                    fmt_date(self.period_start),
                    fmt_date(self.period_end),
                    f"{n} case" + ("" if n == 1 else "s"),
                )
            ),
            self.text(
                markup(
                    "Generated {} by {}, FieldOps {}. {}",
                    fmt_datetime(self.printed_at, self.tz),
                    self.printed_by,
                    self.version,
                    self.withheld_note,
                ),
                "small",
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
        ]
        heads = [label for label, _n in self.counts]
        values = [str(v) for _label, v in self.counts]
        width = min(1.2 * inch, self.body_width / max(len(heads), 1))
        story.append(
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
                    # With the counts, so the signature never stands on a page alone.
                    self.spacer(12),
                    *self._signature(),
                ]
            )
        )
        return story

    def _signature(self) -> list[Flowable]:
        sign = Table(
            [
                ["", "", ""],
                [
                    self.text("Supervisor's signature and name", "small"),
                    "",
                    self.text("Date", "small"),
                ],
            ],
            colWidths=[3.6 * inch, 0.4 * inch, 2.0 * inch],
            rowHeights=[30, None],
            hAlign="LEFT",
        )
        sign.setStyle(
            TableStyle(
                [
                    ("LINEBELOW", (0, 0), (0, 0), 0.8, "black"),
                    ("LINEBELOW", (2, 0), (2, 0), 0.8, "black"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return [
            self.text("I have reviewed these cases and certify this report.", "body"),
            sign,
        ]


def vicious_cases_report(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    period_start: date,
    period_end: date,
    printed_by: str,
    version: str,
    counts: Sequence[tuple[str, int]],
    withheld_note: str,
    **details: Unpack[PageDetails],
) -> bytes:
    """The report's PDF, landscape, headers repeated on every page."""
    return ViciousCasesReport(
        columns,
        rows,
        period_start=period_start,
        period_end=period_end,
        printed_by=printed_by,
        version=version,
        counts=counts,
        withheld_note=withheld_note,
        **details,
    ).render()
