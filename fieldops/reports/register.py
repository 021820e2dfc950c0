"""The supervisor's register of impounded animals for a period (city code 58-528)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether

from fieldops.reports.base import Document, clean, fmt_date, fmt_local_date, markup, money
from fieldops.reports.impound_parts import party_line
from fieldops.services.impound_views import DISPOSITIONS
from fieldops.services.register_views import RegisterRow

__all__ = ["impound_register"]


class ImpoundRegister(Document):
    """One line per impoundment for a period: the supervisor's 58-528 register."""

    title = "Register of impounded animals"
    pagesize = landscape(letter)
    margin = 0.5 * inch

    def __init__(
        self, rows: Sequence[RegisterRow], *, period_start: date, period_end: date, **kwargs: object
    ) -> None:
        if period_end < period_start:
            raise ValueError("period_end is before period_start")
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows = sorted(rows, key=lambda r: (r.impounded_at, r.id))
        self.period_start = period_start
        self.period_end = period_end

    def subtitle(self) -> str:
        return f"{fmt_date(self.period_start)} to {fmt_date(self.period_end)}"

    def footer_note(self) -> str:
        return "Record kept under city code 58-528"

    def _disposition_text(self, view: RegisterRow) -> str:
        d = view.disposition
        if d is None:
            return "In custody"
        if d.kind == "transferred" and clean(d.transfer_to).strip():
            return f"Transferred to {clean(d.transfer_to).strip()}"
        return DISPOSITIONS.get(d.kind, d.kind)

    def story(self) -> list[Flowable]:
        w = self.body_width
        widths = [0.6 * inch, 1.0 * inch, 0, 1.45 * inch, 2.5 * inch, 1.0 * inch, 0.85 * inch]
        widths[2] = w - sum(widths)
        tz = self.tz
        rows = []
        total = Decimal("0.00")
        for view in self.rows:
            d = view.disposition
            paid = view.fees_paid_total
            total += paid
            rows.append(
                [
                    str(view.id),
                    fmt_local_date(view.impounded_at, tz),
                    view.animal.summary,
                    self._disposition_text(view),
                    party_line(d.recipient) if d is not None else "",
                    fmt_local_date(d.at, tz) if d is not None else "",
                    money(paid),
                ]
            )
        count = len(self.rows)
        story: list[Flowable] = [
            self.text(
                markup(
                    "Animals impounded from <b>{}</b> to <b>{}</b> (local dates): <b>{}</b>. "
                    "One line per impoundment: description, date of impoundment and disposition; "
                    "for a release, the person it went to, the date of delivery and the fees paid.",
                    fmt_date(self.period_start),
                    fmt_date(self.period_end),
                    f"{count} impoundment" + ("" if count == 1 else "s"),
                )
            ),
            self.spacer(6),
            *self.data_table(
                [
                    "No.",
                    "Impounded",
                    "Description",
                    "Disposition",
                    "Released to (name, address)",
                    "Delivered / disposed",
                    "Fees paid",
                ],
                rows,
                widths,
                wrap={2, 3, 4},
                right={6},
                font_size=8,
                total_rows=[["", "", f"Total: {count} impoundments", "", "", "", money(total)]],
            ),
            self.spacer(10),
            *self._summary(total),
        ]
        return story

    def _summary(self, total: Decimal) -> list[Flowable]:
        """The counts by disposition and the fees, across the page in two lines.

        Across rather than down: a column of ten lines did not fit under a short
        register and took a page of its own.
        """
        counts = Counter(v.disposition.kind if v.disposition else "" for v in self.rows)
        heads = ["In custody"]
        values = [str(counts.pop("", 0))]
        for kind, label in DISPOSITIONS.items():
            heads.append(label)
            values.append(str(counts.pop(kind, 0)))
        for kind, n in sorted(counts.items()):
            heads.append(kind)
            values.append(str(n))
        heads += ["All", "Fees paid"]
        values += [str(len(self.rows)), money(total)]
        width = min(1.15 * inch, self.body_width / len(heads))
        table = self.data_table(
            heads, [values], [width] * len(heads), right=set(range(len(heads))), zebra=False
        )
        return [KeepTogether([self.text("Summary", "h2"), *table])]


def impound_register(
    rows: Sequence[RegisterRow],
    *,
    period_start: date,
    period_end: date,
    jurisdiction: str,
    tz: ZoneInfo,
    printed_at: datetime,
) -> bytes:
    """The register of impounded animals for a period (city code 58-528), landscape.

    One line per impoundment, in order of impoundment: number, impounded date,
    description, disposition, released to (name and address), date of delivery
    or disposition, fees paid; totals at the end. The caller chooses the rows
    (``fieldops.services.registers.impound_register_rows``).
    """
    return ImpoundRegister(
        rows,
        period_start=period_start,
        period_end=period_end,
        jurisdiction=jurisdiction,
        tz=tz,
        printed_at=printed_at,
    ).render()
