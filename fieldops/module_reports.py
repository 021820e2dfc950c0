"""What a module contributes to the record reports and the activity summary (the types
``fieldops.modules.Module`` names in ``reports`` and ``activity``; imported from
``fieldops.modules`` too, where every module has always found them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from fieldops.rules import Profile


@dataclass(frozen=True)
class ReportRequest:
    """What a report is asked for: the period (local dates, both included), who prints
    it and when, and whether it is the public-records copy (private parts withheld).

    ``cancelled`` is polled between steps of a long report; when it answers True the
    report raises ``fieldops.db.cancel.Cancelled``. ``progress(done, total)`` may be
    called as the report goes."""

    db: Any  # fieldops.db.engine.Database
    start: date
    end: date
    profile: Profile
    printed_at: datetime  # aware
    printed_by: str
    redacted: bool = False
    # The audit trail's latest link when the report was asked for, printed in its footer.
    audit_head: str = ""
    cancelled: Callable[[], bool] = field(default=lambda: False)
    progress: Callable[[int, int], None] = field(default=lambda done, total: None)


@dataclass(frozen=True)
class Withheld:
    """One kind of private part left out of a public-records copy, and why."""

    what: str  # "the bitten person's name, address and phone"
    why: str  # the reason printed on the copy, e.g. "personal contact of a victim"


@dataclass(frozen=True)
class ReportTable:
    """A report's rows as plain text cells, for CSV (and for tests): the same rows the
    PDF prints. ``withheld`` lists what a redacted copy left out."""

    columns: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    withheld: tuple[Withheld, ...] = ()


@dataclass(frozen=True)
class ReportOutput:
    """A gathered report: its rows and its PDF."""

    table: ReportTable
    pdf: bytes


@dataclass(frozen=True)
class ReportKind:
    """One record report a module prints.

    ``build(request)`` reads everything in one read transaction and renders the PDF;
    it raises ``fieldops.errors.ValidationError`` for a bad period (field names
    ``period_start``/``period_end``)."""

    name: str  # the command line's name: "impound-register"
    title: str  # for people: "Impound record register (58-528)"
    build: Callable[[ReportRequest], ReportOutput]
    aliases: tuple[str, ...] = ()  # older names still accepted: ("register",)
    description: str = ""


@dataclass(frozen=True)
class ActivityFigure:
    """One line of the activity summary: a label, the period's value and the same
    period a year earlier. ``value`` is a count, a Decimal (money) or a number of days."""

    label: str
    value: Any
    year_earlier: Any


@dataclass(frozen=True)
class ActivitySection:
    """A module's part of the activity summary: a titled table of figures, and whether
    a chart (bars, this period beside a year earlier) reads faster than the table."""

    title: str
    figures: tuple[ActivityFigure, ...]
    chart: bool = False


def year_earlier(day: date) -> date:
    """The same day a year earlier, for the activity summary's comparison (29 Feb -> 28 Feb)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year - 1, day=28)
