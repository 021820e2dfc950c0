"""The officer's week: exams, deliveries and certificates due, grouped by day; printable."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import groupby

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from fieldops.reports.quarantine_week import KIND_WORDS, week_schedule_pdf
from fieldops.services.quarantine import ScheduleItem, week_schedule
from ui.common.text import day, escape_html
from ui.context import AppContext
from ui.quarantine.documents import Doc, DocumentButtons


def schedule_html(items: tuple[ScheduleItem, ...], start: date, days: int = 7) -> str:
    by_day = {d: list(group) for d, group in groupby(items, key=lambda i: i.day)}
    parts = [
        f"<h2>Quarantine schedule, {escape_html(day(start))} to "
        f"{escape_html(day(start + timedelta(days=days - 1)))}</h2>"
    ]
    for n in range(days):
        d = start + timedelta(days=n)
        parts.append(f"<h3>{escape_html(day(d))}</h3>")
        rows = by_day.get(d, [])
        if not rows:
            parts.append("<p>Nothing due.</p>")
            continue
        parts.append(
            "<ul>"
            + "".join(
                f"<li><b>{KIND_WORDS.get(i.kind, i.kind)}</b>: {escape_html(i.text)}</li>"
                for i in rows
            )
            + "</ul>"
        )
    return "".join(parts)


class WeekScheduleDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("WeekScheduleDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Quarantine schedule for the week")
        self.resize(760, 680)
        self.start = ctx.today()
        self.text = QTextBrowser()
        self.items: tuple[ScheduleItem, ...] = ()
        self.previous = QPushButton("&Previous week")
        self.next = QPushButton("&Next week")
        self.documents = DocumentButtons(ctx, ("The week's schedule",))
        close = QPushButton("&Close")
        row = QHBoxLayout()
        for b in (self.previous, self.next, close):
            b.setAutoDefault(False)
        for b in (self.previous, self.next):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.documents)
        layout.addLayout(row)
        close.clicked.connect(self.close)
        self.previous.clicked.connect(lambda: self.move(-7))
        self.next.clicked.connect(lambda: self.move(7))
        self.load()

    def move(self, days: int) -> None:  # type: ignore[override]
        self.start += timedelta(days=days)
        self.load()

    def load(self) -> None:
        self.ctx.tasks.run(
            week_schedule,
            self.ctx.db,
            self.start,
            self.ctx.profile,
            owner=self,
            on_done=self._on_loaded,
        )

    def _on_loaded(self, items: tuple[ScheduleItem, ...]) -> None:
        self.items = items
        self.text.setHtml(schedule_html(items, self.start))
        ctx, start = self.ctx, self.start
        self.documents.set_documents(
            (
                Doc(
                    "week",
                    f"Quarantine schedule from {day(start)}",
                    f"quarantine-schedule-{start.isoformat()}.pdf",
                    lambda: week_schedule_pdf(
                        items,
                        start,
                        jurisdiction=ctx.jurisdiction,
                        tz=ctx.timezone,
                        printed_at=ctx.now(),
                    ),
                ),
            )
        )
