"""The activity summary as a module: one report gathering every module's figures.

It owns no records. ``activity-summary`` asks every installed module for its
sections (``fieldops.modules.activity_sections``) for the period and prints them
(``fieldops.reports.activity``); the rows for CSV are one line per figure. The
summary holds counts and sums only, so its public-records copy withholds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from fieldops.db.cancel import Cancelled
from fieldops.errors import Collector
from fieldops.modules import (
    ActivitySection,
    Module,
    ReportKind,
    ReportOutput,
    ReportRequest,
    ReportTable,
    activity_sections,
    year_earlier,
)

COLUMNS = ("section", "label", "value", "year_earlier")


def check_period(start: date, end: date) -> None:
    """A period of at most a year (so that it and a year earlier never overlap)."""
    c = Collector()
    c.check(end >= start, "period_end", "The period cannot end before it starts.")
    c.check(
        end < start or year_earlier(end) < start,
        "period_end",
        "The summary covers at most a year at a time.",
    )
    c.raise_if_any()


def cell(value: Any) -> str:
    """A figure as a CSV cell: a plain number a spreadsheet reads ("1234", "12.50", "3.5")."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return f"{value:.2f}"
    if isinstance(value, float):
        return f"{value:.1f}".removesuffix(".0")
    return str(value)


def table(sections: Sequence[ActivitySection]) -> ReportTable:
    return ReportTable(
        COLUMNS,
        tuple(
            (s.title, f.label, cell(f.value), cell(f.year_earlier))
            for s in sections
            for f in s.figures
        ),
    )


def build(request: ReportRequest) -> ReportOutput:
    """The activity summary for the request's period, beside the same period a year earlier."""
    from fieldops.reports.activity import activity_summary

    start, end = request.start, request.end
    check_period(start, end)
    request.progress(0, 2)
    sections = activity_sections(request.db, start, end)
    if request.cancelled():
        raise Cancelled("the summary is no longer wanted")
    request.progress(1, 2)
    pdf = activity_summary(
        sections,
        period_start=start,
        period_end=end,
        earlier_start=year_earlier(start),
        earlier_end=year_earlier(end),
        printed_by=request.printed_by,
        jurisdiction=request.profile.name,
        tz=request.profile.timezone,
        printed_at=request.printed_at,
        audit_head=request.audit_head,
        redacted=request.redacted,
    )
    request.progress(2, 2)
    return ReportOutput(table(sections), pdf)


MODULE = Module(
    "summary",
    "Activity summary",
    reports=(
        ReportKind(
            "activity-summary",
            "Activity summary",
            build,
            description=(
                "Intakes, dispositions, days held, repeat impoundments, fees and every "
                "module's figures for a month, a quarter or a year, beside a year earlier"
            ),
        ),
    ),
)
