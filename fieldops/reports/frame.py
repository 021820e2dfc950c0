"""The frame every record report is printed in (registers, logs, summaries).

A record report is a ``ReportDocument``: the document base's letterhead, title,
"Page X of Y" and footer (printed when, by whom, the app's version), plus what a
report a supervisor files needs: the period at the top right and in words, a
note on the first page of a public-records copy saying what was withheld and
why, and at the end a line the supervisor signs. Subclasses write ``body()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, tzinfo
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, Table, TableStyle

from fieldops import __version__
from fieldops.modules import ReportRequest, Withheld
from fieldops.reports.base import ALERT, Document, PageDetails, fmt_date, fmt_datetime, markup

__all__ = ["PUBLIC_COPY", "ReportDetails", "ReportDocument", "request_details", "withheld_notice"]

PUBLIC_COPY = "Public-records copy"


class ReportDetails(PageDetails):
    """What a record report is printed with: also who printed it (in every footer)."""

    printed_by: str
    audit_head: str


def request_details(request: ReportRequest) -> ReportDetails:
    """What a report asked for through the seam is printed with."""
    return {
        "jurisdiction": request.profile.name,
        "tz": request.profile.timezone,
        "printed_at": request.printed_at,
        "printed_by": request.printed_by,
        "audit_head": request.audit_head,
    }


class ReportDocument(Document):
    """A record report for a period; ``withheld`` non-empty makes it a public-records copy."""

    def __init__(
        self,
        *,
        period_start: date,
        period_end: date,
        jurisdiction: str,
        tz: tzinfo,
        printed_at: datetime,
        printed_by: str = "",
        audit_head: str = "",
        withheld: Sequence[Withheld] = (),
        redacted: bool = False,
    ) -> None:
        if period_end < period_start:
            raise ValueError("period_end is before period_start")
        super().__init__(
            jurisdiction=jurisdiction,
            tz=tz,
            printed_at=printed_at,
            printed_by=printed_by,
            audit_head=audit_head,
        )
        self.period_start = period_start
        self.period_end = period_end
        self.withheld = tuple(withheld)
        self.redacted = redacted or bool(self.withheld)

    # -- override points ------------------------------------------------------

    def body(self) -> list[Flowable]:
        raise NotImplementedError

    def signer(self) -> str:
        """Who signs the report (the words before the signature line)."""
        return "Reviewed and certified correct by the supervisor"

    # -- the frame --------------------------------------------------------------

    def subtitle(self) -> str:
        period = f"{fmt_date(self.period_start)} to {fmt_date(self.period_end)}"
        return f"{PUBLIC_COPY}, {period}" if self.redacted else period

    def story(self) -> list[Flowable]:
        return [*self.frame_head(), *self.body(), *self.signature_block()]

    def frame_head(self) -> list[Flowable]:
        """The period, who generated the report and when, and (on a public-records
        copy) what was withheld and why: the first lines of the first page."""
        by = self.printed_by or "(not recorded)"
        out: list[Flowable] = [
            self.text(
                markup(
                    "Period: <b>{}</b> to <b>{}</b> (local dates, both included). "
                    "Generated {} by <b>{}</b> with FieldOps {}.",
                    fmt_date(self.period_start),
                    fmt_date(self.period_end),
                    fmt_datetime(self.printed_at, self.tz),
                    by,
                    __version__,
                ),
                "small",
            ),
            self.spacer(4),
        ]
        if self.redacted:
            out += [self._withheld_box(), self.spacer(6)]
        return out

    def _withheld_box(self) -> Flowable:
        return withheld_notice(self, self.withheld)

    def signature_block(self, *, keep: bool = True) -> list[Flowable]:
        """The line the supervisor signs, with the printed name and the date beside it.

        ``keep=False`` gives the bare table, for a block that keeps itself together
        (``FirstThatFits``)."""
        line = "_" * 40
        short = "_" * 22
        table = Table(
            [
                [self.text(self.signer() + ":", "cell_bold"), "", ""],
                [line, short, short],
                ["Signature", "Name (printed)", "Date"],
            ],
            colWidths=[3.4 * inch, 2.3 * inch, 1.8 * inch],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (-1, 0)),
                    ("FONTNAME", (0, 1), (-1, -1), self.font),
                    ("FONTSIZE", (0, 1), (-1, -1), 8),
                    ("TOPPADDING", (0, 1), (-1, 1), 18),
                    ("TEXTCOLOR", (0, 2), (-1, 2), colors.HexColor("#555b61")),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return [self.spacer(14), KeepTogether([table]) if keep else table]


def withheld_notice(doc: Document, withheld: Sequence[Withheld]) -> Flowable:
    """The boxed note on page 1 of a public-records copy: what was withheld and why
    (shared by every record a public-records copy is made of)."""
    rows: list[list[Any]] = [
        [
            doc.text(
                markup(
                    '<font color="{}"><b>{}</b></font>: prepared for an open-records '
                    "request. The following were withheld from this copy:",
                    ALERT,
                    PUBLIC_COPY,
                )
            )
        ]
    ]
    if not withheld:
        rows.append([doc.text("Nothing in this report is private: nothing was withheld.")])
    for w in withheld:
        rows.append([doc.text(markup("• <b>{}</b>: {}", w.what, w.why))])
    table = Table(rows, colWidths=[doc.body_width], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 1.0, colors.HexColor(ALERT)),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table
