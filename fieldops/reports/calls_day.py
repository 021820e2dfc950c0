"""The officer's day, printable: open calls assigned to the officer, calls not yet
dispatched, follow-ups due, and what the other modules have due."""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from reportlab.platypus import Flowable

from fieldops.reports.base import Document
from fieldops.reports.text import fmt_date, fmt_datetime
from fieldops.services.calls.day import DayLine, OfficerDay


class OfficerDaySheet(Document):
    title = "Officer's day"

    def __init__(self, d: OfficerDay, officer_name: str = "", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.d = d
        self.officer_name = officer_name or d.officer

    def subtitle(self) -> str:
        return f"{self.officer_name}, {fmt_date(self.d.day)}"

    def _when(self, value: date | datetime) -> str:
        return fmt_datetime(value, self.tz) if isinstance(value, datetime) else fmt_date(value)

    def _section(self, title: str, lines: tuple[DayLine, ...]) -> list[Flowable]:
        out: list[Flowable] = self.heading(f"{title} ({len(lines)})")
        if not lines:
            out.append(self.text("None.", "small"))
        for line in lines:
            mark = "OVERDUE  " if line.overdue else ""
            out.append(self.text(f"{mark}{self._when(line.when)}: {line.text}", "cell"))
        return out

    def story(self) -> list[Flowable]:
        d = self.d
        return [
            *self._section("Open calls assigned to me", d.mine),
            *self._section("Calls not yet dispatched", d.not_dispatched),
            *self._section("Follow-ups due", d.follow_ups),
            *self._section("Due from my other records (exams, notices, citations)", d.others),
        ]


def officer_day_pdf(
    d: OfficerDay,
    *,
    officer_name: str = "",
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
) -> bytes:
    return OfficerDaySheet(
        d, officer_name, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at
    ).render()
