"""The observation period drawn as a line of days: the bite, the required exams (done, due,
overdue), the clinic delivery deadline, the certificate due date, the events and today."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta, tzinfo

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from fieldops.rules import format_day_short
from fieldops.services.quarantine import QuarantineView

COLOURS = {
    "done": "#2e7d32",
    "due": "#f9a825",
    "overdue": "#c62828",
    "upcoming": "#90a4ae",
    "not_needed": "#cfd8dc",
    "bite": "#6a1b9a",
    "delivery": "#1565c0",
    "certificate": "#00838f",
    "event": "#455a64",
    "today": "#1565c0",
}
SHORT = {"first": "1st", "intervening": "2nd", "last": "last"}
STATE_WORDS = {
    "done": "done",
    "due": "due now",
    "overdue": "overdue",
    "upcoming": "to come",
    "not_needed": "not needed",
}


@dataclass(frozen=True)
class Mark:
    """One thing on the timeline (tests read these; the widget paints them)."""

    kind: str  # "bite", "exam", "delivery", "certificate", "event", "today"
    start: date
    end: date
    state: str
    label: str


def marks(view: QuarantineView, today: date, zone: tzinfo) -> tuple[Mark, ...]:
    out = [
        Mark(
            "bite",
            view.bite.bitten_at.astimezone(zone).date(),
            view.bite.bitten_at.astimezone(zone).date(),
            "bite",
            "Bite",
        )
    ]
    for r in view.required:
        out.append(
            Mark("exam", r.start, r.end, r.state, f"{r.label.capitalize()}: {STATE_WORDS[r.state]}")
        )
    if view.deliver_by is not None:
        d = view.deliver_by.astimezone(zone).date()
        state = "done" if view.delivered_at is not None else ("overdue" if d < today else "due")
        out.append(Mark("delivery", d, d, state, "Delivery to the clinic by"))
    cert = (
        "done"
        if view.certificate_received_on
        else (
            "not_needed"
            if view.status in ("died", "euthanized", "escaped")
            else "overdue"
            if view.certificate_due < today
            else "upcoming"
        )
    )
    out.append(
        Mark("certificate", view.certificate_due, view.certificate_due, cert, "Certificate due")
    )
    for e in view.events:
        d = e.received_on or e.at.astimezone(zone).date()
        out.append(Mark("event", d, d, "event", e.label))
    out.append(Mark("today", today, today, "today", "Today"))
    return tuple(out)


class TimelineWidget(QWidget):
    """Paints ``marks`` over the days from the bite to the certificate due date."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("QuarantineTimeline")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._marks: tuple[Mark, ...] = ()
        self._first = self._last = date.today()
        self.setMinimumHeight(186)

    def sizeHint(self) -> QSize:
        return QSize(760, 186)

    def set_marks(self, items: tuple[Mark, ...], first: date, last: date) -> None:
        self._marks, self._first, self._last = items, first, max(last, first)
        self.setToolTip("\n".join(f"{format_day_short(m.start)}: {m.label}" for m in items))
        self.update()

    def marks(self) -> tuple[Mark, ...]:
        return self._marks

    def _x(self, d: date, left: float, width: float) -> float:
        span = max(1, (self._last - self._first).days + 1)
        return left + width * ((d - self._first).days + 0.5) / span

    def paintEvent(self, _event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("white"))
        left, right = 16.0, float(self.width() - 16)
        width = right - left
        axis = 70.0
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, small.pointSizeF() - 1.5))
        p.setFont(small)
        span = (self._last - self._first).days + 1
        cell = width / max(1, span)
        # Day cells: the observation days shaded, Sundays marked.
        for i in range(span):
            d = self._first + timedelta(days=i)
            x = left + i * cell
            shade = "#eef3f7" if d.weekday() != 6 else "#e3e8ec"
            p.fillRect(QRectF(x + 1, axis - 14, cell - 2, 28), QColor(shade))
            if span <= 31 or i % 2 == 0:
                p.setPen(QColor("#546e7a"))
                p.drawText(
                    QRectF(x, axis + 16, cell, 16), Qt.AlignmentFlag.AlignHCenter, f"{d.day}"
                )
                p.drawText(
                    QRectF(x, axis + 30, cell, 16),
                    Qt.AlignmentFlag.AlignHCenter,
                    "SMTWTFS"[(d.weekday() + 1) % 7],
                )
        lanes = {
            "exam": axis - 30.0,
            "bite": axis,
            "delivery": axis - 48.0,
            "certificate": axis,
            "event": axis + 56.0,
        }
        events = 0
        for m in self._marks:
            colour = QColor(COLOURS.get(m.state, COLOURS.get(m.kind, "#455a64")))
            x0, x1 = self._x(m.start, left, width), self._x(m.end, left, width)
            if m.kind == "today":
                p.setPen(QPen(QColor(COLOURS["today"]), 2, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(x0, 8), QPointF(x0, axis + 48))
                continue
            y = lanes[m.kind]
            p.setPen(QPen(colour, 1))
            p.setBrush(colour)
            if m.kind == "exam":
                rect = QRectF(x0 - cell * 0.4, y - 7, (x1 - x0) + cell * 0.8, 14)
                p.drawRoundedRect(rect, 4, 4)
                p.setPen(QColor("white") if m.state != "not_needed" else QColor("#37474f"))
                short = SHORT.get(m.label.split(" ")[0].lower(), "")
                mark = {"done": " ✓", "overdue": " late", "due": " due"}.get(m.state, "")
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, short + mark)
            elif m.kind == "bite":
                p.drawEllipse(QPointF(x0, y), 6, 6)
            elif m.kind == "certificate":
                p.drawPolygon(
                    QPolygonF(
                        [
                            QPointF(x0, y - 8),
                            QPointF(x0 + 7, y),
                            QPointF(x0, y + 8),
                            QPointF(x0 - 7, y),
                        ]
                    )
                )
            elif m.kind == "delivery":
                p.drawPolygon(
                    QPolygonF([QPointF(x0 - 6, y - 6), QPointF(x0 + 6, y - 6), QPointF(x0, y + 4)])
                )
            else:
                y += 12 * (events % 2)
                events += 1
                p.drawEllipse(QPointF(x0, y), 4, 4)
                p.setPen(QColor("#37474f"))
                p.drawText(QRectF(x0 + 6, y - 8, 220, 16), Qt.AlignmentFlag.AlignLeft, m.label)
            if m.kind == "delivery":
                p.setPen(QColor("#37474f"))
                p.drawText(
                    QRectF(x0 + 9, y - 12, 220, 16),
                    Qt.AlignmentFlag.AlignLeft,
                    "deliver by" + (" (delivered)" if m.state == "done" else ""),
                )
        # A legend, one line.
        p.setPen(QColor("#37474f"))
        legend = (
            "● bite   ▭ exam: green done, amber due, red overdue, grey to come   "
            "▼ clinic delivery   ◆ certificate due   • event   ┆ today"
        )
        p.drawText(QRectF(left, self.height() - 16, width, 16), Qt.AlignmentFlag.AlignLeft, legend)
        p.end()
