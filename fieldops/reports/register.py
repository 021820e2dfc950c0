"""The supervisor's register of impounded animals for a period (city code 58-528)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime, tzinfo
from decimal import Decimal
from typing import Any

from reportlab import rl_config
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable
from reportlab.platypus.doctemplate import FrameActionFlowable

from fieldops.modules import Withheld
from fieldops.reports.base import (
    FirstThatFits,
    clean,
    fmt_date,
    markup,
    money,
)
from fieldops.reports.frame import ReportDocument
from fieldops.reports.impound_parts import party_line
from fieldops.reports.register_draw import RegisterTable
from fieldops.reports.text import local
from fieldops.services.impound_views import DISPOSITIONS, PAYMENT_KINDS, ImpoundView, PartyView
from fieldops.services.register_views import RegisterRow, RegisterTally

__all__ = [
    "REGISTER_COLUMNS",
    "REGISTER_WITHHELD",
    "impound_register",
    "redact_row",
    "register_cells",
    "register_lines",
    "register_pdf",
]

REGISTER_COLUMNS = (
    "No.",
    "Impounded",
    "Description",
    "Disposition",
    "Released to (name, address)",
    "Delivered / disposed",
    "Fees paid",
)

# The public-records copy (issue 11): the register is a public record, but the home
# address and phone of the private person an animal went to are their contact details.
# Their name stays (58-528 makes it the record); a transfer names an organisation.
REGISTER_WITHHELD = (
    Withheld(
        "the address and phone of each person an animal was released to",
        "personal contact details of a private individual",
    ),
)
WITHHELD_MARK = "[withheld]"


def redact_row(row: RegisterRow) -> RegisterRow:
    """The line as the public-records copy prints it: the recipient's contacts withheld."""
    d = row.disposition
    if d is None or d.recipient is None:
        return row
    person = PartyView(d.recipient.id, d.recipient.full_name, WITHHELD_MARK, "")
    return replace(row, disposition=replace(d, recipient=person))


def fee_kind_label(kind: str) -> str:
    return PAYMENT_KINDS.get(kind, kind)


def disposition_text(row: RegisterRow) -> str:
    d = row.disposition
    if d is None:
        return "In custody"
    if d.kind == "transferred" and clean(d.transfer_to).strip():
        return f"Transferred to {clean(d.transfer_to).strip()}"
    return DISPOSITIONS.get(d.kind, d.kind)


class _Said:
    """Texts a year's lines repeat (the same fees, the same days), each worked out
    once: ``money`` and ``fmt_date`` for a value already seen are a dictionary look-up
    (a year of 100,000 lines formats a few hundred distinct amounts and days)."""

    def __init__(self) -> None:
        self.amounts: dict[Decimal, str] = {}
        self.days: dict[date, str] = {}

    def money(self, amount: Decimal) -> str:
        text = self.amounts.get(amount)
        if text is None:
            text = money(amount)  # refuses what is not money before it is kept
            if len(self.amounts) < 10_000:
                self.amounts[amount] = text
        return text

    def local_date(self, moment: datetime, tz: tzinfo) -> str:
        """``fmt_local_date``: the local calendar day of an aware instant."""
        day = local(moment, tz).date()
        text = self.days.get(day)
        if text is None:
            text = self.days[day] = fmt_date(day)
        return text


def fees_text(row: RegisterRow, said: _Said | None = None) -> str:
    """Every fee paid: the total, then each kind on a line of its own (58-528)."""
    said = said or _Said()
    total = said.money(row.fees_paid_total)
    if not row.fees_paid:
        return total
    kinds = "\n".join(f"{fee_kind_label(k)} {said.money(a)}" for k, a in row.fees_paid)
    return f"{total}\n{kinds}"


def register_cells(row: RegisterRow, tz: tzinfo, said: _Said | None = None) -> tuple[str, ...]:
    """One line of the register as plain text, in ``REGISTER_COLUMNS`` order: what the
    PDF prints and the CSV holds."""
    said = said or _Said()
    d = row.disposition
    return (
        str(row.id),
        said.local_date(row.impounded_at, tz),
        row.animal.summary,
        disposition_text(row),
        party_line(d.recipient) if d is not None else "",
        said.local_date(d.at, tz) if d is not None else "",
        fees_text(row, said),
    )


#: Lines per table: the register is fed to the document as tables of this many lines,
#: each built only when the document reaches it (``_Feed``), each with its header row
#: (as when they were ReportLab tables, whose page-splitting grew with the square of
#: their length: the printed register reads the same as before).
TABLE_LINES = 500


def register_lines(
    rows: Iterable[RegisterRow], tz: tzinfo, *, redacted: bool = False
) -> tuple[list[tuple[str, ...]], RegisterTally]:
    """The lines as the register prints them (``register_cells``; the recipients'
    contacts withheld when ``redacted``), and their tally, in one pass over ``rows``
    (which may stream: only the printed text of each line is kept)."""
    tally = RegisterTally()
    lines = []
    said = _Said()
    for row in rows:
        tally.add(row)
        lines.append(register_cells(redact_row(row) if redacted else row, tz, said))
    return lines, tally


class _Feed(FrameActionFlowable):  # type: ignore[misc]  # ReportLab is untyped
    """Hands the document its next flowables only when the document reaches this
    point, then itself again until ``parts`` runs out: the register's tables are
    built a few at a time, each dropped once drawn, instead of all before the first
    page (a year of lines held as ReportLab tables at once took over a gigabyte)."""

    def __init__(self, parts: Iterator[list[Flowable]]) -> None:  # no super(): see the base
        self._parts = parts

    def frameAction(self, frame: Any) -> None:  # noqa: N802 (ReportLab's name)
        part = next(self._parts, None)
        if part is not None:
            frame.add_generated_content(*part, self)


class ImpoundRegister(ReportDocument):
    """One line per impoundment for a period: the supervisor's 58-528 register.

    ``lines`` are the printed cells of each line in order of impoundment
    (``register_lines``) and ``tally`` what the closing lines add up.
    """

    title = "Register of impounded animals"
    pagesize = landscape(letter)
    margin = 0.5 * inch

    def __init__(self, lines: Sequence[Sequence[str]], tally: RegisterTally, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lines = lines
        self.tally = tally
        self._furniture: tuple[Any, list[str]] | None = None  # a later page's header, footer

    def footer_note(self) -> str:
        return "Record kept under city code 58-528"

    def later_pages(self, canvas: Any, doc: Any) -> None:
        """Every later page's header and footer, drawn once and then repeated: they
        are the same on each of a year's thousands of pages (the page number is
        added when the page count is known), and measuring and fitting their text
        again on each took a fifth of the drawing."""
        code = canvas._code  # the page's operators, as ReportLab's canvas holds them
        pdf = canvas._doc  # the fonts' names in those operators are this PDF's
        if self._furniture is None or self._furniture[0] is not pdf:
            start = len(code)
            super().later_pages(canvas, doc)
            self._furniture = (pdf, code[start:])
        else:
            code.extend(self._furniture[1])

    def render(self) -> bytes:
        """The PDF, its page streams compressed without ReportLab's ASCII85 armour: a
        PDF is binary anyway, and encoding a year's 5,000 pages in pure Python took
        a tenth of the time (the setting is ReportLab's, so it is put back after;
        a document another thread prints meanwhile is as valid either way)."""
        armour = rl_config.useA85
        rl_config.useA85 = 0
        try:
            return super().render()
        finally:
            rl_config.useA85 = armour
            self._furniture = None

    def story(self) -> list[Flowable]:
        return [*self.frame_head(), *self.body()]  # the body ends with the signature

    def body(self) -> list[Flowable]:
        w = self.body_width
        widths = [0.6 * inch, 1.0 * inch, 0, 1.45 * inch, 2.3 * inch, 1.0 * inch, 1.45 * inch]
        widths[2] = w - sum(widths)
        rows = self.lines
        total = self.tally.total
        count = self.tally.count
        totals = [["", "", f"Total: {count} impoundments", "", "", "", money(total)]]

        def table(
            part: Sequence[Sequence[str]], *, header: bool, with_totals: bool
        ) -> list[Flowable]:
            return [
                RegisterTable(
                    REGISTER_COLUMNS if header else None,
                    part,
                    widths,
                    font=self.font,
                    bold=self.bold,
                    font_size=8,
                    wrap={2, 3, 4, 6},
                    right={6},
                    totals=totals if with_totals else (),
                )
            ]

        # The last lines, the totals, the summary and the signature line stay together:
        # under the table when the page has room, else on the next page with the
        # header repeated (a summary or a signature alone on a page reads as a loose sheet).
        keep = 2 if len(rows) > 2 else len(rows)
        head = len(rows) - keep
        tail = rows[head:]

        def parts() -> Iterator[list[Flowable]]:
            for first in range(0, head, TABLE_LINES):
                yield table(
                    rows[first : min(first + TABLE_LINES, head)], header=True, with_totals=False
                )
            closing = [self.spacer(10), *self._summary(total), *self.signature_block(keep=False)]
            yield [
                FirstThatFits(
                    [*table(tail, header=not head, with_totals=True), *closing],
                    overflow=[*table(tail, header=True, with_totals=True), *closing],
                )
            ]

        return [
            self.text(
                markup(
                    "Animals impounded from <b>{}</b> to <b>{}</b> (local dates): <b>{}</b>. "
                    "One line per impoundment: description, date of impoundment and disposition; "
                    "for a release, the person it went to, the date of delivery and every "
                    "fee paid.",
                    fmt_date(self.period_start),
                    fmt_date(self.period_end),
                    f"{count} impoundment" + ("" if count == 1 else "s"),
                )
            ),
            self.spacer(6),
            _Feed(parts()),
        ]

    def _summary(self, total: Decimal) -> list[Flowable]:
        """The counts by disposition, and the fees by kind, each across the page.

        Across rather than down: a column of ten lines did not fit under a short
        register and took a page of its own.
        """
        counts = Counter(self.tally.dispositions)
        heads = ["In custody"]
        values = [str(counts.pop("", 0))]
        for kind, label in DISPOSITIONS.items():
            heads.append(label)
            values.append(str(counts.pop(kind, 0)))
        for kind, n in sorted(counts.items()):
            heads.append(kind)
            values.append(str(n))
        heads += ["All", "Fees paid"]
        values += [str(self.tally.count), money(total)]
        width = min(1.15 * inch, self.body_width / len(heads))
        table = self.data_table(
            heads, [values], [width] * len(heads), right=set(range(len(heads))), zebra=False
        )
        by_kind = self.tally.fees_by_kind()
        fee_heads = [fee_kind_label(k) for k, _ in by_kind] + ["All fees"]
        fee_values = [money(a) for _, a in by_kind] + [money(total)]
        fee_width = min(1.4 * inch, self.body_width / len(fee_heads))
        fees = self.data_table(
            fee_heads,
            [fee_values],
            [fee_width] * len(fee_heads),
            right=set(range(len(fee_heads))),
            zebra=False,
        )
        return [
            self.text("Summary", "h2"),
            *table,
            self.spacer(6),
            self.text("Fees paid by kind", "cell_bold"),
            *fees,
        ]


def impound_register(
    rows: Sequence[RegisterRow | ImpoundView],
    *,
    period_start: date,
    period_end: date,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
    printed_by: str = "",
    redacted: bool = False,
    audit_head: str = "",
) -> bytes:
    """The register of impounded animals for a period (city code 58-528), landscape.

    One line per impoundment, in order of impoundment: number, impounded date,
    description, disposition, released to (name and address), date of delivery
    or disposition, every fee paid; totals, by disposition and by fee kind, at
    the end. ``redacted`` prints the public-records copy (``REGISTER_WITHHELD``).
    The caller chooses the rows (``fieldops.services.registers.impound_register_rows``);
    ``register_pdf`` prints lines already made (``register_lines``).
    """
    lines = [r if isinstance(r, RegisterRow) else RegisterRow.from_view(r) for r in rows]
    lines.sort(key=lambda r: (r.impounded_at, r.id))
    cells, tally = register_lines(lines, tz, redacted=redacted)
    return register_pdf(
        cells,
        tally,
        period_start=period_start,
        period_end=period_end,
        jurisdiction=jurisdiction,
        tz=tz,
        printed_at=printed_at,
        printed_by=printed_by,
        redacted=redacted,
        audit_head=audit_head,
    )


def register_pdf(
    lines: Sequence[Sequence[str]],
    tally: RegisterTally,
    *,
    period_start: date,
    period_end: date,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
    printed_by: str = "",
    redacted: bool = False,
    audit_head: str = "",
) -> bytes:
    """The register from its printed lines, in order, and their tally (``register_lines``:
    already redacted for a public-records copy, which ``redacted`` then says it is)."""
    return ImpoundRegister(
        lines,
        tally,
        period_start=period_start,
        period_end=period_end,
        jurisdiction=jurisdiction,
        tz=tz,
        printed_at=printed_at,
        printed_by=printed_by,
        audit_head=audit_head,
        withheld=REGISTER_WITHHELD if redacted else (),
    ).render()
