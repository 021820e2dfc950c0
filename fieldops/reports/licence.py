"""Dog licence documents (58-533(c)): the licence certificate with its tag receipt, and
the renewal reminder letters (one page a household, every dog of it on that page)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Table, TableStyle

from fieldops.modules import ReportRequest, ReportTable
from fieldops.reports.base import Document, markup, money
from fieldops.reports.frame import ReportDocument, request_details
from fieldops.reports.text import Markup, fmt_date, fmt_datetime, yes_no
from fieldops.services.licences.renewals import Household
from fieldops.services.licences.views import LicenceView

METHODS = {"cash": "Cash", "check": "Check", "card": "Card", "other": "Other"}


def _dog(v: LicenceView) -> str:
    parts = [v.animal_name, v.breed, v.colour, v.sex if v.sex != "unknown" else ""]
    return ", ".join(p for p in parts if p)


class LicenceCertificate(Document):
    """The licence the owner keeps, and below it the tag receipt to cut off."""

    title = "Dog licence"

    def __init__(self, view: LicenceView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view

    def subtitle(self) -> str:
        return f"{self.view.licence_year} · tag {self.view.tag_number}"

    def footer_note(self) -> str:
        return "City code 58-533(c); Wis. Stat. ch. 174"

    def _fee(self) -> str:
        v = self.view
        if v.origin in ("replacement", "transfer"):
            return f"{v.origin_words} of licence #{v.previous_id}: {money(v.total)}"
        rate = f"{money(v.rate)} ({'spayed/neutered' if v.altered else 'not spayed/neutered'})"
        if v.half_rate:
            rate = f"half of {rate}"
        if v.late:
            rate += f", late fee {money(v.late_fee)} (due by {fmt_date(v.due_by)})"
        return f"{rate}; total {money(v.total)}"

    def story(self) -> list[Flowable]:
        v = self.view
        where = (
            f"at the pound (impoundment #{v.impoundment_id})"
            if v.issued_place == "pound"
            else "at the counter"
        )
        story: list[Flowable] = [
            self.key_values(
                [
                    ("Licence year", f"{v.licence_year} (1 January to 31 December)"),
                    ("Tag number", v.tag_number),
                    ("Owner", v.owner_name),
                    ("Address", v.owner_address),
                    ("Dog", _dog(v)),
                    ("Spayed or neutered", yes_no(v.altered)),
                    ("Microchip", v.microchip),
                    ("Birth date", fmt_date(v.birth_date) if v.birth_date else ""),
                    (
                        "Rabies vaccination",
                        f"{v.rabies_certificate or 'certificate'} given "
                        f"{fmt_date(v.rabies_vaccinated_on)}"
                        + (
                            f", expires {fmt_date(v.rabies_expires_on)}"
                            if v.rabies_expires_on
                            else ""
                        ),
                    ),
                    ("Applied on", fmt_date(v.applied_on)),
                    ("Fee", self._fee()),
                    ("Issued", f"{fmt_datetime(v.issued_at, self.tz)} {where} by {v.issued_by}"),
                    ("Status", v.status_words + (f": {v.void_reason}" if v.void_reason else "")),
                ]
            ),
            self.spacer(10),
            self.text(
                "The tag is to be attached to the dog's collar and worn at all times. The "
                "licence expires on 31 December; a licence bought after the day it is due "
                "pays the late fee (58-533(c)(4)). Keep this certificate with the dog's "
                "rabies certificate.",
                "note",
            ),
            self.spacer(26),
            self._receipt(),
        ]
        return story

    def _receipt(self) -> Flowable:
        v = self.view
        rows = [
            [markup("<b>Tag receipt</b> · {}", self.jurisdiction), ""],
            ["Receipt", v.receipt_number],
            ["Tag", f"{v.tag_number} ({v.licence_year})"],
            ["Dog", v.animal_name],
            ["Owner", v.owner_name],
            [
                "Paid",
                f"{money(v.paid_amount)} ({METHODS.get(v.payment_method, v.payment_method)}) on "
                f"{fmt_datetime(v.issued_at, self.tz)}",
            ],
        ]
        cells = [
            [self.text(a, "cell_bold") if i else a, self.text(b, "cell")]
            for i, (a, b) in enumerate(rows)
        ]
        cells[0][0] = self.text(rows[0][0], "cell")
        t = Table(cells, colWidths=[1.2 * inch, 4.3 * inch], hAlign="LEFT")
        t.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (-1, 0)),
                    ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                    ("LINEABOVE", (0, 0), (-1, 0), 0.8, colors.black, None, (3, 3)),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return KeepTogether([self.text("✂ - - - - cut here - - - -", "small"), t])


class RenewalLetters(Document):
    """The renewal reminders: one page a household, each of its dogs on it."""

    title = "Dog licence renewal reminder"
    later_header_height = Document.first_header_height  # every page is a letter

    def __init__(
        self,
        households: Sequence[Household],
        *,
        year: int,
        day: date,
        late_fee: object,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.households = households
        self.year = year
        self.day = day
        self.late_fee = late_fee

    def subtitle(self) -> str:
        return f"Licence year {self.year}"

    def footer_note(self) -> str:
        return "City code 58-533(c)"

    def later_pages(self, canvas, doc) -> None:  # type: ignore[no-untyped-def]
        self.first_page(canvas, doc)

    def story(self) -> list[Flowable]:
        story: list[Flowable] = []
        if not self.households:
            return [self.text(f"No dog licensed for {self.year - 1} is waiting for its renewal.")]
        for n, h in enumerate(self.households):
            if n:
                story.append(PageBreak())
            story += self._letter(h)
        return story

    def _letter(self, h: Household) -> list[Flowable]:
        due = h.dogs[0].due_by
        several = len(h.dogs) > 1
        rows = [
            (d.animal_name, d.breed, d.last_tag, "yes" if d.altered else "no", money(d.amount))
            for d in h.dogs
        ]
        return [
            self.text(fmt_date(self.day)),
            self.spacer(10),
            self.text(h.owner_name, "cell_bold"),
            self.text(h.address or ""),
            self.spacer(14),
            self.text(markup("Dear {},", h.owner_name)),
            self.spacer(6),
            self.text(self._what_is_owed(h, due, several)),
            self.spacer(8),
            *self.data_table(
                (
                    "Dog",
                    "Breed",
                    f"Tag of {self.year - 1}",
                    "Spayed/neutered",
                    "Fee with late fee" if any(d.late for d in h.dogs) else "Fee",
                ),
                rows,
                (1.6 * inch, 1.5 * inch, 1.2 * inch, 1.2 * inch, 1.3 * inch),
                right=(4,),
            ),
            self.spacer(10),
            self.text(
                "Bring each dog's current rabies vaccination certificate: no licence is "
                "issued without one (58-533(c)(5)). If a dog has died, moved away or has a "
                "new owner, please tell us so that we stop writing to you about it."
            ),
        ]

    def _what_is_owed(self, h: Household, due: date, several: bool) -> Markup:
        """What the letter asks for, as of its own day. Before the due day: renew by it,
        later pays the late fee. After it the fee shown already includes the late fee,
        and the letter says so: read "renew by 1 April" and "pays the late fee" beside
        a fee that has it, an owner would add it a second time."""
        intro = (
            "Our records show {} licensed for {} and not yet for {}. Every dog five months "
            "old or more kept in the city must be licensed each year (city code 58-533(c)). "
        )
        dogs = ("these dogs" if several else "this dog", self.year - 1, self.year)
        late_fee = money(self.late_fee)  # type: ignore[arg-type]
        if not any(d.late for d in h.dogs):
            return markup(
                intro + "<b>Please renew by {}</b>; a licence bought after that day pays the "
                "late fee of {} a dog on top of the {} below.",
                *dogs,
                fmt_date(due),
                late_fee,
                "fees" if several else "fee",
            )
        return markup(
            intro + "The last day to renew without the late fee was {}, so a licence bought "
            "now also pays the late fee of {} a dog. <b>The {} below already {} the late "
            "fee: {} the whole amount owed as of {}.</b> Please renew as soon as you can.",
            *dogs,
            fmt_date(due),
            late_fee,
            "fees" if several else "fee",
            "include" if several else "includes",
            "they are" if several else "it is",
            fmt_date(self.day),
        )


class LicenceRegister(ReportDocument):
    """Every licence issued in the period, one line each, landscape."""

    title = "Dog licence register"
    pagesize = landscape(letter)
    margin = 0.45 * inch

    def __init__(self, table: ReportTable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table

    def footer_note(self) -> str:
        return "Dog licences under city code 58-533(c)"

    def body(self) -> list[Flowable]:
        widths = [
            w * inch for w in (0.95, 0.35, 0.55, 0.7, 0.8, 0.95, 0.9, 1.2, 0.5, 0.5, 0.45, 0.7)
        ]
        widths.append((self.body_width - sum(widths)) / 2)
        widths.append(self.body_width - sum(widths))
        n = len(self.table.rows)
        return [
            self.text(f"{n} licence{'' if n == 1 else 's'} issued in the period."),
            self.spacer(6),
            *self.data_table(
                self.table.columns,
                self.table.rows,
                widths,
                wrap={3, 4, 5, 6, 7, 11, 13},
                right={8, 9, 10},
                font_size=7,
            ),
        ]


def licence_register_pdf(table: ReportTable, request: ReportRequest) -> bytes:
    return LicenceRegister(
        table,
        period_start=request.start,
        period_end=request.end,
        withheld=table.withheld,
        **request_details(request),
    ).render()
