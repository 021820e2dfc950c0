"""The activity summary: every module's figures for a period beside a year earlier.

Each section is a table (this period | a year earlier | change); a section
marked ``chart`` also gets a bar chart, both periods side by side for each
line. The bars are a dark and a light grey with black outlines and the values
printed at their ends, so the chart reads the same printed in black and white.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta, tzinfo
from decimal import Decimal
from typing import Any, Unpack

from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Table, TableStyle

from fieldops import __version__
from fieldops.modules import ActivitySection
from fieldops.reports.base import (
    Document,
    PageDetails,
    clean,
    fit,
    fmt_date,
    fmt_datetime,
    markup,
    money,
)
from fieldops.reports.frame import PUBLIC_COPY

__all__ = ["activity_summary", "change_text", "period_name", "value_text"]

THIS_PERIOD = colors.HexColor("#3a3f44")  # dark grey: this period
YEAR_EARLIER = colors.HexColor("#c3c8cd")  # light grey: a year earlier
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _month_end(day: date) -> date:
    first_next = date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return first_next - timedelta(days=1)


def period_name(start: date, end: date) -> str:
    """ "March 2026", "Q1 2026 (January to March)", "2026", or the two dates."""
    if start.day == 1 and start.year == end.year:
        if start.month == 1 and (end.month, end.day) == (12, 31):
            return str(start.year)
        if end == _month_end(start):
            return f"{MONTHS[start.month - 1]} {start.year}"
        if start.month % 3 == 1 and end.month == start.month + 2 and end == _month_end(end):
            quarter = start.month // 3 + 1
            return f"Q{quarter} {start.year} ({MONTHS[start.month - 1]} to {MONTHS[end.month - 1]})"
    return f"{fmt_date(start)} to {fmt_date(end)}"


def value_text(value: Any) -> str:
    """A figure as printed: a count "1,234", money "$12.50", days "3.5"; None "—"."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return money(value)
    if isinstance(value, float):
        return f"{value:,.1f}".removesuffix(".0")
    if isinstance(value, int):
        return f"{value:,}"
    return clean(value)


def change_text(value: Any, earlier: Any) -> str:
    """The change from a year earlier: "+12 (+8%)", "-$40.00 (-50%)", "0"; "—" without both."""
    numbers = (int, float, Decimal)
    if not (isinstance(value, numbers) and isinstance(earlier, numbers)):
        return "—"
    if isinstance(value, bool) or isinstance(earlier, bool):
        return "—"
    if isinstance(value, Decimal) != isinstance(earlier, Decimal):
        return "—"  # money beside a count: nothing to compare
    diff: Any = value
    diff -= earlier
    if not diff:
        return "0" if not isinstance(diff, Decimal) else "$0.00"
    sign = "+" if diff > 0 else "-"
    if isinstance(diff, Decimal):
        shown = f"{sign}{money(abs(diff))}"
    elif isinstance(diff, float):
        shown = f"{sign}{abs(diff):,.1f}".removesuffix(".0")
    else:
        shown = f"{sign}{abs(diff):,}"
    if earlier:
        shown += f" ({float(diff) / float(earlier) * 100:+.0f}%)"
    return shown


class ActivitySummary(Document):
    """The activity summary for a month, a quarter or a year (any period up to a year)."""

    title = "Activity summary"

    def __init__(
        self,
        sections: Sequence[ActivitySection],
        *,
        period_start: date,
        period_end: date,
        earlier_start: date,
        earlier_end: date,
        printed_by: str,
        audit_head: str = "",
        redacted: bool = False,
        **kwargs: Unpack[PageDetails],
    ) -> None:
        if period_end < period_start:
            raise ValueError("period_end is before period_start")
        super().__init__(audit_head=audit_head, **kwargs)
        self.redacted = redacted
        self.sections = tuple(sections)
        self.period = (period_start, period_end)
        self.earlier = (earlier_start, earlier_end)
        self.printed_by = clean(printed_by)

    def subtitle(self) -> str:
        copy = f"{PUBLIC_COPY}, " if self.redacted else ""
        return copy + period_name(*self.period)

    def footer_note(self) -> str:
        # Short enough for a portrait page between the print line and the page number.
        return f"Beside each figure: {period_name(*self.earlier)}"

    def story(self) -> list[Flowable]:
        (start, end), (e_start, e_end) = self.period, self.earlier
        story: list[Flowable] = [
            self.text(
                markup(
                    "Figures for <b>{}</b> to <b>{}</b> (local dates, both included), each beside "
                    "the same period a year earlier, <b>{}</b> to <b>{}</b>, and the change.",
                    fmt_date(start),
                    fmt_date(end),
                    fmt_date(e_start),
                    fmt_date(e_end),
                )
            ),
            self.text(
                markup(
                    "Generated {} by {} with FieldOps {}.",
                    fmt_datetime(self.printed_at, self.tz),
                    self.printed_by or "(not recorded)",
                    __version__,
                ),
                "small",
            ),
            self.spacer(4),
        ]
        if self.redacted:  # counts and sums only: the public-records copy withholds nothing
            story.insert(
                0, self.text(f"{PUBLIC_COPY}: counts and sums only, so nothing is withheld.")
            )
        if not self.sections:
            story.append(self.text("No module contributes figures to the summary."))
        for section in self.sections:
            story += self._section(section)
        story += [self.spacer(18), self._sign_line()]
        return story

    def _section(self, section: ActivitySection) -> list[Flowable]:
        w = self.body_width
        widths = [0.0, 1.15 * inch, 1.15 * inch, 1.35 * inch]
        widths[0] = w - sum(widths)
        rows = [
            [
                f.label,
                value_text(f.value),
                value_text(f.year_earlier),
                change_text(f.value, f.year_earlier),
            ]
            for f in section.figures
        ]
        table = self.data_table(
            ["", period_name(*self.period), period_name(*self.earlier), "Change"],
            rows,
            widths,
            wrap={0},
            right={1, 2, 3},
            font_size=8.5,
        )
        body: list[Flowable] = [*table]
        if section.chart and section.figures:
            body += [self.spacer(6), self._chart(section)]
        # The heading stays with its table and chart; a long table may split across pages.
        head = self.text(section.title, "h2")
        if len(rows) < 30:
            return [KeepTogether([head, *body])]
        return [*self.heading(section.title), *body]

    def _chart(self, section: ActivitySection) -> Drawing:
        """Horizontal bars, one pair per line: this period (dark) over a year earlier (light)."""
        figures = section.figures
        font, size = self.font, 7.5
        labels = [fit(clean(f.label), font, size, 2.4 * inch) for f in figures]

        def number(v: Any) -> float:
            return float(v) if isinstance(v, int | float | Decimal) and v is not None else 0.0

        money_values = any(isinstance(f.value, Decimal) for f in figures)
        # Series 0 is drawn lowest in each pair: a year earlier, under this period.
        data = [
            [number(f.year_earlier) for f in figures][::-1],
            [number(f.value) for f in figures][::-1],
        ]
        label_w = max(stringWidth(text, font, size) for text in labels) + 8
        pair = 22.0  # points per line: two bars and a gap
        plot_h = pair * len(figures)
        legend_h = 16.0
        width = self.body_width
        height = plot_h + legend_h + 26
        d = Drawing(width, height)
        chart = HorizontalBarChart()
        chart.x = label_w
        chart.y = 14
        chart.width = width - label_w - 60
        chart.height = plot_h
        chart.data = data
        chart.groupSpacing = 6
        chart.barSpacing = 1
        chart.bars.strokeColor = colors.black
        chart.bars.strokeWidth = 0.4
        chart.bars[0].fillColor = YEAR_EARLIER
        chart.bars[1].fillColor = THIS_PERIOD
        chart.categoryAxis.categoryNames = labels[::-1]
        chart.categoryAxis.labels.fontName = font
        chart.categoryAxis.labels.fontSize = size
        chart.categoryAxis.labels.boxAnchor = "e"
        chart.categoryAxis.labels.dx = -4
        chart.categoryAxis.strokeColor = colors.black
        top = max([*data[0], *data[1], 0.0])
        chart.valueAxis.valueMin = 0
        chart.valueAxis.valueMax = top * 1.15 if top else 1
        chart.valueAxis.labels.fontName = font
        chart.valueAxis.labels.fontSize = 7
        chart.valueAxis.strokeColor = colors.black
        chart.valueAxis.visibleGrid = True
        chart.valueAxis.gridStrokeColor = colors.HexColor("#d5dade")
        chart.valueAxis.gridStrokeWidth = 0.4
        if money_values:
            chart.valueAxis.labelTextFormat = lambda v: f"${v:,.0f}"
        if top < 5:  # whole steps: never "$0 $0 $1" for a period with no fees
            chart.valueAxis.valueStep = 1
        # Each bar's value at its end, so the chart is read without the table.
        shown = [
            [value_text(f.year_earlier) for f in figures][::-1],
            [value_text(f.value) for f in figures][::-1],
        ]
        chart.barLabelFormat = "values"
        chart.barLabelArray = shown
        chart.barLabels.fontName = font
        chart.barLabels.fontSize = 6.5
        chart.barLabels.boxAnchor = "w"
        chart.barLabels.dx = 3
        d.add(chart)
        legend = Legend()
        legend.x = label_w
        legend.y = height - 6
        legend.fontName = font
        legend.fontSize = 7.5
        legend.alignment = "right"
        legend.columnMaximum = 1
        legend.deltax = 150
        legend.dx = 9
        legend.dy = 7
        legend.strokeColor = colors.black
        legend.strokeWidth = 0.4
        legend.colorNamePairs = [
            (THIS_PERIOD, f"This period ({period_name(*self.period)})"),
            (YEAR_EARLIER, f"A year earlier ({period_name(*self.earlier)})"),
        ]
        d.add(legend)
        return d

    def _sign_line(self) -> Flowable:
        rows = [["Reviewed by (print name)", "", "Signature", "", "Date", ""]]
        w = self.body_width
        widths = [1.45 * inch, 0, 0.7 * inch, 0, 0.4 * inch, 1.2 * inch]
        rest = w - sum(widths)
        widths[1] = widths[3] = rest / 2
        table = Table(rows, colWidths=widths, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), self.font),
                    ("FONTSIZE", (0, 0), (-1, -1), 8.5),
                    ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ("LINEBELOW", (1, 0), (1, 0), 0.6, colors.black),
                    ("LINEBELOW", (3, 0), (3, 0), 0.6, colors.black),
                    ("LINEBELOW", (5, 0), (5, 0), 0.6, colors.black),
                    ("TOPPADDING", (0, 0), (-1, -1), 14),
                ]
            )
        )
        return KeepTogether([self.text("Supervisor's review", "h2"), table])


def activity_summary(
    sections: Sequence[ActivitySection],
    *,
    period_start: date,
    period_end: date,
    earlier_start: date,
    earlier_end: date,
    printed_by: str,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
    audit_head: str = "",
    redacted: bool = False,
) -> bytes:
    """The activity summary PDF (letter, portrait) for the sections given, in their order."""
    return ActivitySummary(
        sections,
        period_start=period_start,
        period_end=period_end,
        earlier_start=earlier_start,
        earlier_end=earlier_end,
        printed_by=printed_by,
        audit_head=audit_head,
        redacted=redacted,
        jurisdiction=jurisdiction,
        tz=tz,
        printed_at=printed_at,
    ).render()
