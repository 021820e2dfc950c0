"""Impoundment PDFs: the release receipt, the 58-528 record sheet and the register.

City code 58-528: "The pound operator shall keep a record of each impounded
animal, giving a description of the impounded animal, the date of
impoundment and its disposition. If the impounded animal is released, the
record shall include the name and address of the person to whom the animal
was released, the date of delivery, and a listing of all fees paid."

Each public function takes the frozen views from
``fieldops.services.impound_views`` and returns PDF bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, Table, TableStyle

from fieldops.reports.base import (
    Document,
    Markup,
    clean,
    fmt_date,
    fmt_datetime,
    fmt_local_date,
    markup,
    money,
    yes_no,
)
from fieldops.services.impound_views import (
    DISPOSITIONS,
    PAYMENT_KINDS,
    PAYMENT_METHODS,
    AnimalDescription,
    DispositionView,
    EvidenceView,
    ImpoundView,
    PartyView,
    PaymentView,
)

__all__ = ["RELEASE_KINDS", "impound_record_sheet", "impound_register", "release_receipt"]

#: Dispositions that hand the animal to a person (58-526(b)(1) owner, (b)(2) anyone else).
RELEASE_KINDS = frozenset({"reclaimed", "adopted"})

_HOLD_LABELS = {
    "last_claim_day": "Owner's last day to claim",
    "release_to_others_from": "May go to others from",
}


# ------------------------------------------------------------------ shared pieces


def _party_markup(party: PartyView | None, *, unknown: str = "Unknown") -> Markup:
    """Name in bold, address and phone beneath; every part escaped."""
    if party is None:
        return markup("{}", unknown)
    name = clean(party.full_name).strip() or "(name not recorded)"
    address = clean(party.address).strip() or "(address not recorded)"
    text = markup("<b>{}</b><br/>{}", name, address)
    if clean(party.phone).strip():
        text = Markup(text + markup("<br/>Phone: {}", party.phone))
    return text


def _party_line(party: PartyView | None) -> str:
    """"Name, address" on one line, for the register."""
    if party is None:
        return ""
    bits = [clean(party.full_name).strip(), ", ".join(
        line.strip() for line in clean(party.address).splitlines() if line.strip()
    )]
    return ", ".join(b for b in bits if b)


def _species(animal: AnimalDescription) -> str:
    if animal.species == "other" and animal.species_detail:
        return animal.species_detail
    if animal.species_detail:
        return f"{animal.species} ({animal.species_detail})"
    return animal.species


def _animal_pairs(animal: AnimalDescription, *, photo: bool | None = None) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = [
        ("Name", animal.name or "(no name)"),
        ("Species", _species(animal)),
        ("Breed", animal.breed),
        ("Colour", animal.colour),
        ("Sex", animal.sex),
        ("Spayed / neutered", yes_no(animal.altered)),
        ("Approximate age", animal.approximate_age),
        ("Microchip", animal.microchip),
        ("Licence", animal.licence),
        ("Markings", animal.markings),
    ]
    if photo is not None:
        pairs.append(("Photo on file", yes_no(photo)))
    return pairs


def _payments(doc: Document, payments: Sequence[PaymentView]) -> list[Flowable]:
    """Every payment with its lines, method and receipt number, and the total paid."""
    w = doc.body_width
    widths = [0.9 * inch, 1.75 * inch, 0.6 * inch, 1.45 * inch, 0, 0.8 * inch]
    widths[4] = w - sum(widths)
    rows: list[list[object]] = []
    for payment in sorted(payments, key=lambda p: (p.paid_at, p.id)):
        when = fmt_datetime(payment.paid_at, doc.tz)
        if payment.payer is not None and clean(payment.payer.full_name).strip():
            when += f"\nby {clean(payment.payer.full_name).strip()}"
        method = PAYMENT_METHODS.get(payment.method, payment.method)
        lines = payment.lines or ()
        if not lines:
            rows.append([payment.receipt_number, when, method, "(no lines)", "", money(Decimal(0))])
        for n, line in enumerate(lines):
            first = n == 0
            rows.append([
                payment.receipt_number if first else "",
                when if first else "",
                method if first else "",
                PAYMENT_KINDS.get(line.kind, line.kind),
                line.description,
                money(line.amount),
            ])
        if len(lines) > 1:
            rows.append(["", "", "", "", Markup("<i>Total of this payment</i>"),
                         money(payment.total)])
    if not payments:
        return [doc.text("No fees paid (total paid $0.00).")]
    total = sum((p.total for p in payments), Decimal("0.00"))
    return doc.data_table(
        ["Receipt no.", "Paid", "Method", "Item", "Description", "Amount"],
        rows,
        widths,
        wrap={0, 1, 3, 4},
        right={5},
        total_rows=[["", "", "", "", "Total paid", money(total)]],
    )


def _evidence(doc: Document, evidence: Sequence[EvidenceView]) -> list[Flowable]:
    """What satisfied each legal requirement; overrides marked in red with who and why."""
    rows: list[list[object]] = []
    for item in evidence:
        shown: object = item.evidence
        if item.overridden:
            by = clean(item.override_by).strip() or "(user not recorded)"
            reason = clean(item.override_reason).strip() or "(no reason recorded)"
            shown = markup('<font color="#a3120f"><b>OVERRIDDEN by {}:</b> {}</font>', by, reason)
            if clean(item.evidence).strip():
                shown = Markup(shown + markup("<br/>{}", item.evidence))
        rows.append([item.label or item.code, shown or "(none recorded)"])
    if not rows:
        rows = [["No requirement evidence was recorded.", ""]]
    w = doc.body_width
    return doc.data_table(["Requirement", "Evidence recorded"], rows,
                          [2.6 * inch, w - 2.6 * inch], wrap={0, 1}, zebra=False)


def _require_aware_view(view: ImpoundView) -> None:
    if view.impounded_at.tzinfo is None:
        raise ValueError(f"impoundment {view.id}: impounded_at must be timezone-aware")


# ----------------------------------------------------------------- release receipt


class ReleaseReceipt(Document):
    """The receipt handed over with an animal released under 58-526(b)."""

    title = "Receipt for release of impounded animal"

    def __init__(self, view: ImpoundView, **kwargs: object) -> None:
        disposition = view.disposition
        if disposition is None:
            raise ValueError(f"impoundment {view.id} has no disposition: the animal is in custody")
        if disposition.kind not in RELEASE_KINDS:
            raise ValueError(
                f"impoundment {view.id} was not released to a person "
                f"(disposition: {disposition.label}); no release receipt"
            )
        _require_aware_view(view)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.disposition = disposition

    def subtitle(self) -> str:
        return f"Impoundment no. {self.view.id}"

    def footer_note(self) -> str:
        return "City code 58-526, 58-528"

    def story(self) -> list[Flowable]:
        v, d = self.view, self.disposition
        if d.to_owner:
            relation = "The owner, or the owner's representative (city code 58-526(b)(1))"
        else:
            relation = "Not the owner: a new owner (city code 58-526(b)(2))"
        release_pairs: list[tuple[str, object]] = [
            ("Impoundment no.", str(v.id)),
            ("Released as", markup("<b>{}</b>", d.label)),
            ("Impounded", fmt_datetime(v.impounded_at, self.tz)),
            ("Released (delivered)", markup("<b>{}</b>", fmt_datetime(d.at, self.tz))),
            ("Released to", _party_markup(d.recipient, unknown="(not recorded)")),
            ("Recipient is", relation),
            ("Released by", d.recorded_by),
        ]
        story: list[Flowable] = [
            self.key_values(release_pairs, columns=2, label_width=1.3 * inch),
        ]
        if clean(d.notes).strip():
            story.append(self.key_values([("Notes", d.notes)], label_width=1.3 * inch))
        story += [
            self.heading("Animal"),
            self.key_values(_animal_pairs(v.animal), columns=2, label_width=1.15 * inch),
            self.heading("Fees paid"),
            *_payments(self, v.payments),
        ]
        if v.fees is not None:
            story += [self.spacer(4), self.key_values([
                ("Fees assessed", f"{money(v.fees.total)} (as of "
                                  f"{fmt_datetime(v.fees.as_of, self.tz)}; {clean(v.fees.schedule)})"),
                ("Balance due", money(v.fees.balance)),
            ])]
        story += [
            self.heading("Requirements of release and the evidence recorded"),
            *_evidence(self, d.evidence),
            self.spacer(10),
            self.text(
                "The animal described above was released from impoundment under city code "
                "58-526. This receipt is part of the record the pound operator keeps for each "
                "impounded animal under city code 58-528: the description of the animal, the "
                "date of impoundment, its disposition, the name and address of the person to "
                "whom it was released, the date of delivery and a listing of all fees paid.",
                "note",
            ),
            self.spacer(22),
            self._signatures(),
        ]
        return story

    def _signatures(self) -> Flowable:
        d = self.disposition
        recipient = d.recipient.full_name if d.recipient else ""
        half = self.body_width / 2

        def block(role: str, name: str) -> list[object]:
            return [
                "",
                self.text(markup("{}<br/>{}", role, name or " "), "small"),
                self.text("Date: ______________________", "small"),
            ]

        left = block("Signature of the person receiving the animal", recipient)
        right = block("Signature for the pound operator", d.recorded_by)
        table = Table([[left[0], right[0]], [left[1], right[1]], [left[2], right[2]]],
                      colWidths=[half, half], rowHeights=[26, None, None], hAlign="LEFT")
        table.setStyle(TableStyle([
            ("LINEBELOW", (0, 0), (0, 0), 0.8, "black"),
            ("LINEBELOW", (1, 0), (1, 0), 0.8, "black"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (0, -1), 24),
            ("RIGHTPADDING", (1, 0), (1, -1), 0),
            ("LEFTPADDING", (1, 0), (1, -1), 24),
            ("TOPPADDING", (0, 1), (-1, -1), 3),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        return KeepTogether([table])


def release_receipt(view: ImpoundView, *, jurisdiction: str, tz: ZoneInfo,
                    printed_at: datetime) -> bytes:
    """The receipt given at release (city code 58-526(b); record under 58-528).

    Raises ValueError if the animal has no disposition or was not released to
    a person (only "reclaimed" and "adopted" are releases).
    """
    return ReleaseReceipt(view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()


# -------------------------------------------------------------- 58-528 record sheet


class ImpoundRecordSheet(Document):
    """The 58-528 record of one impoundment, in custody or disposed of."""

    title = "Record of impounded animal"

    def __init__(self, view: ImpoundView, **kwargs: object) -> None:
        _require_aware_view(view)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view

    def subtitle(self) -> str:
        return f"Impoundment no. {self.view.id}"

    def footer_note(self) -> str:
        return "Record kept under city code 58-528"

    def story(self) -> list[Flowable]:
        v = self.view
        # 58-528's own order: description, date of impoundment, disposition, fees.
        story: list[Flowable] = [
            self.heading("Animal"),
            self.key_values(_animal_pairs(v.animal, photo=v.has_photo), columns=2,
                            label_width=1.15 * inch),
            self.heading("Impoundment"),
            self.key_values(self._impound_pairs(), columns=2, label_width=1.15 * inch),
            self.key_values(self._impound_wide_pairs(), label_width=1.15 * inch),
            self.heading("Disposition"),
            *self._disposition(),
        ]
        if v.corrections:
            story += [self.heading("Corrections"),
                      *self._corrections()]
        story += [
            self.heading("Hold"),
            self.key_values(self._hold_pairs(), label_width=1.6 * inch),
            self.heading("Fees"),
            *self._fees(),
            self.heading("Payments"),
            *_payments(self, v.payments),
        ]
        return story

    def _impound_wide_pairs(self) -> list[tuple[str, object]]:
        v = self.view
        pairs: list[tuple[str, object]] = [("Found at", v.found_place),
                                           ("Owner", _party_markup(v.owner, unknown="Unknown"))]
        if clean(v.notes).strip():
            pairs.append(("Notes", v.notes))
        return pairs

    def _impound_pairs(self) -> list[tuple[str, object]]:
        v = self.view
        reason = v.reason_label
        if clean(v.reason_detail).strip():
            reason = f"{reason}: {clean(v.reason_detail).strip()}"
        if v.repeat_of is not None:
            repeat = (f"Yes: impounded before as no. {v.repeat_of}"
                      + (f" (custody day {fmt_date(v.repeat_custody_day)})"
                         if v.repeat_custody_day else ""))
        else:
            repeat = "No"
        return [
            ("Impounded", markup("<b>{}</b>", fmt_datetime(v.impounded_at, self.tz))),
            ("Custody day", fmt_date(v.custody_day)),
            ("Found", fmt_datetime(v.found_at, self.tz)),
            ("Officer", v.officer),
            ("Reason", reason),
            ("Kennel", v.kennel),
            ("Bit a person", yes_no(v.bit_person)),
            ("Surrendered", "Yes, by the owner in writing" if v.surrendered else "No"),
            ("Repeat", repeat),
            ("Recorded by", v.recorded_by),
        ]

    def _hold_pairs(self) -> list[tuple[str, object]]:
        v = self.view
        values = {
            "last_claim_day": fmt_date(v.last_claim_day),
            "release_to_others_from": fmt_datetime(v.release_to_others_from, self.tz),
        }
        pairs: list[tuple[str, object]] = []
        for key, label in _HOLD_LABELS.items():
            why = v.hold_why.get(key, "")
            pairs.append((label, markup("<b>{}</b><br/>{}", values[key], why) if why
                          else markup("<b>{}</b>", values[key])))
        for key, why in v.hold_why.items():
            if key not in _HOLD_LABELS:
                pairs.append((key.replace("_", " ").capitalize(), why))
        return pairs

    def _fees(self) -> list[Flowable]:
        fees = self.view.fees
        if fees is None:
            return [self.text("No fee quote on record.")]
        w = self.body_width
        table = self.data_table(
            ["Fee", "Amount"],
            [[line.label, money(line.amount)] for line in fees.lines],
            [w - 1.2 * inch, 1.2 * inch],
            wrap={0},
            right={1},
            total_rows=[["Total fees", money(fees.total)], ["Paid", money(fees.paid)],
                        ["Balance", money(fees.balance)]],
        )
        pairs: list[tuple[str, object]] = [
            ("Quoted as of", fmt_datetime(fees.as_of, self.tz)),
            ("Fees for", "The owner" if fees.to_owner else "A person other than the owner"),
            ("Fee schedule", fees.schedule),
        ]
        if fees.repeat_of is not None or clean(fees.repeat_note).strip():
            pairs.append(("Repeat impoundment", fees.repeat_note
                          or f"Fees doubled: impounded before as no. {fees.repeat_of}"))
        return [*table, self.spacer(4), self.key_values(pairs)]

    def _disposition_pairs(self, d: DispositionView) -> list[tuple[str, object]]:
        pairs: list[tuple[str, object]] = [
            ("Disposition", markup("<b>{}</b>", d.label)),
            ("Date and time" if d.kind not in RELEASE_KINDS else "Date of delivery",
             fmt_datetime(d.at, self.tz)),
        ]
        if d.recipient is not None or d.kind in RELEASE_KINDS:
            pairs.append(("Released to", _party_markup(d.recipient, unknown="(not recorded)")))
            pairs.append(("Recipient is", "The owner or the owner's representative"
                          if d.to_owner else "Not the owner"))
        if clean(d.transfer_to).strip() or d.kind == "transferred":
            pairs.append(("Transferred to", d.transfer_to))
        if d.kind == "euthanized" or d.hopeless_or_threat:
            pairs.append(("Hopelessly injured, diseased or a threat", yes_no(d.hopeless_or_threat)))
        if d.preserve_until is not None:
            pairs.append(("Preserve the body until",
                          markup("<b>{}</b> (animal that bit a person; city code 58-522)",
                                 fmt_date(d.preserve_until))))
        pairs.append(("Recorded by", d.recorded_by))
        if clean(d.notes).strip():
            pairs.append(("Notes", d.notes))
        if d.corrects_id is not None:
            pairs.append(("Corrects an earlier entry", d.correction_reason
                          or "(no reason recorded)"))
        return pairs

    def _disposition(self) -> list[Flowable]:
        d = self.view.disposition
        if d is None:
            status = self.view.status(self.printed_at)
            return [self.text(markup("<b>In custody — no disposition yet</b> ({} at printing)",
                                     status))]
        out: list[Flowable] = [self.key_values(self._disposition_pairs(d), label_width=1.6 * inch)]
        if d.evidence:
            out += [self.spacer(6),
                    self.text("Requirements and the evidence recorded", "cell_bold"),
                    self.spacer(2), *_evidence(self, d.evidence)]
        return out

    def _corrections(self) -> list[Flowable]:
        """Each superseded entry, and the reason given by the entry that corrected it."""
        v = self.view
        chain = [*v.corrections, *([v.disposition] if v.disposition else [])]
        by_target = {d.corrects_id: d for d in chain if d.corrects_id is not None}
        rows: list[list[object]] = []
        for old in sorted(v.corrections, key=lambda d: (d.at, d.id)):
            what = old.label
            if old.recipient is not None:
                what += f"\nto {_party_line(old.recipient)}"
            if clean(old.transfer_to).strip():
                what += f"\nto {clean(old.transfer_to).strip()}"
            newer = by_target.get(old.id)
            if newer is not None:
                reason = markup("{}<br/><i>Corrected by {} ({})</i>",
                                newer.correction_reason or "(no reason recorded)",
                                newer.recorded_by, newer.label)
            else:
                reason = old.correction_reason or "(no reason recorded)"
            rows.append([what, fmt_datetime(old.at, self.tz), old.recorded_by, reason])
        w = self.body_width
        widths = [1.9 * inch, 1.55 * inch, 0.95 * inch, 0]
        widths[3] = w - sum(widths)
        return [
            self.text("Earlier entries below were superseded; they are kept as recorded.",
                      "small"),
            self.spacer(3),
            *self.data_table(["Superseded disposition", "Recorded for", "Recorded by",
                              "Why it was corrected"], rows, widths, wrap={0, 1, 2, 3}),
        ]


def impound_record_sheet(view: ImpoundView, *, jurisdiction: str, tz: ZoneInfo,
                         printed_at: datetime) -> bytes:
    """The record of one impounded animal kept under city code 58-528.

    Description, date of impoundment, where and when found, hold, fees and
    payments, and the disposition with any earlier entries it corrected.
    """
    return ImpoundRecordSheet(view, jurisdiction=jurisdiction, tz=tz,
                              printed_at=printed_at).render()


# ------------------------------------------------------------------------ register


class ImpoundRegister(Document):
    """One line per impoundment for a period: the supervisor's 58-528 register."""

    title = "Register of impounded animals"
    pagesize = landscape(letter)
    margin = 0.5 * inch

    def __init__(self, rows: Sequence[ImpoundView], *, period_start: date, period_end: date,
                 **kwargs: object) -> None:
        if period_end < period_start:
            raise ValueError("period_end is before period_start")
        super().__init__(**kwargs)  # type: ignore[arg-type]
        for view in rows:
            _require_aware_view(view)
        self.rows = sorted(rows, key=lambda r: (r.impounded_at, r.id))
        self.period_start = period_start
        self.period_end = period_end

    def subtitle(self) -> str:
        return f"{fmt_date(self.period_start)} to {fmt_date(self.period_end)}"

    def footer_note(self) -> str:
        return "Record kept under city code 58-528"

    def _disposition_text(self, view: ImpoundView) -> str:
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
            rows.append([
                str(view.id),
                fmt_local_date(view.impounded_at, tz),
                view.animal.summary,
                self._disposition_text(view),
                _party_line(d.recipient) if d is not None else "",
                fmt_local_date(d.at, tz) if d is not None else "",
                money(paid),
            ])
        count = len(self.rows)
        story: list[Flowable] = [
            self.text(markup(
                "Animals impounded from <b>{}</b> to <b>{}</b> (local dates): <b>{}</b>. "
                "One line per impoundment: description, date of impoundment and disposition; "
                "for a release, the person it went to, the date of delivery and the fees paid.",
                fmt_date(self.period_start), fmt_date(self.period_end),
                f"{count} impoundment" + ("" if count == 1 else "s"),
            )),
            self.spacer(6),
            *self.data_table(
                ["No.", "Impounded", "Description", "Disposition", "Released to (name, address)",
                 "Delivered / disposed", "Fees paid"],
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
        counts = Counter(v.disposition.kind if v.disposition else "" for v in self.rows)
        lines = [["In custody", str(counts.pop("", 0))]]
        for kind, label in DISPOSITIONS.items():
            lines.append([label, str(counts.pop(kind, 0))])
        lines += [[kind, str(n)] for kind, n in sorted(counts.items())]
        table = self.data_table(["Disposition", "Impoundments"], lines,
                                [2.2 * inch, 1.1 * inch], right={1},
                                total_rows=[["All", str(len(self.rows))],
                                            ["Fees paid", money(total)]])
        return [KeepTogether([self.heading("Summary"), *table])]


def impound_register(rows: Sequence[ImpoundView], *, period_start: date, period_end: date,
                     jurisdiction: str, tz: ZoneInfo, printed_at: datetime) -> bytes:
    """The register of impounded animals for a period (city code 58-528), landscape.

    One line per impoundment, in order of impoundment: number, impounded date,
    description, disposition, released to (name and address), date of delivery
    or disposition, fees paid; totals at the end. The caller chooses the rows.
    """
    return ImpoundRegister(rows, period_start=period_start, period_end=period_end,
                           jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()
