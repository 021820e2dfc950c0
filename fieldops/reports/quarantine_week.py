"""The officer's week of bite quarantines, printable: exams, deliveries and certificates due,
by day (issue 9, "Officer's schedule"). Built from ``ScheduleItem`` values (frozen data)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta, tzinfo

from reportlab.lib.units import inch
from reportlab.platypus import Flowable

from fieldops.reports.base import Document, fmt_date
from fieldops.services.quarantine.listing import ScheduleItem

__all__ = ["KIND_WORDS", "week_schedule_pdf"]

KIND_WORDS = {
    "exam": "Exam",
    "delivery": "Delivery",
    "certificate": "Certificate",
    "period_ends": "Observation ends",
}


class WeekSchedule(Document):
    title = "Bite quarantines: the week's schedule"

    def __init__(
        self,
        items: Sequence[ScheduleItem],
        start: date,
        days: int,
        *,
        jurisdiction: str,
        tz: tzinfo,
        printed_at: datetime,
    ) -> None:
        super().__init__(jurisdiction=jurisdiction, tz=tz, printed_at=printed_at)
        self.items, self.start, self.days = tuple(items), start, days

    def subtitle(self) -> str:
        end = self.start + timedelta(days=self.days - 1)
        return f"{fmt_date(self.start)} to {fmt_date(end)}"

    def footer_note(self) -> str:
        return "City code 58-527; Wis. Stat. 95.21"

    def story(self) -> list[Flowable]:
        out: list[Flowable] = []
        for n in range(self.days):
            d = self.start + timedelta(days=n)
            rows = [i for i in self.items if i.day == d]
            out += self.heading(fmt_date(d), keep=0.8 * inch)
            if not rows:
                out.append(self.text("Nothing due."))
                continue
            out += self.data_table(
                ("What", "Quarantine", "Details"),
                [(KIND_WORDS.get(i.kind, i.kind), f"#{i.quarantine_id}", i.text) for i in rows],
                (1.3 * inch, 0.9 * inch, self.body_width - 2.2 * inch),
                wrap=(2,),
            )
        return out


def week_schedule_pdf(
    items: Sequence[ScheduleItem],
    start: date,
    days: int = 7,
    *,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
) -> bytes:
    """The week's schedule as a PDF on the shared document base."""
    return WeekSchedule(
        items, start, days, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at
    ).render()
