"""Impoundment PDFs: the release receipt, the 58-528 record sheet and the register.

City code 58-528: "The pound operator shall keep a record of each impounded
animal, giving a description of the impounded animal, the date of
impoundment and its disposition. If the impounded animal is released, the
record shall include the name and address of the person to whom the animal
was released, the date of delivery, and a listing of all fees paid."

Each public function takes the frozen views from
``fieldops.services.impound_views`` and returns PDF bytes. The register is
built in ``register.py`` and re-exported here with the other two.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from zoneinfo import ZoneInfo

from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Table, TableStyle

from fieldops.reports.base import (
    Document,
    FirstThatFits,
    Markup,
    clean,
    fmt_date,
    fmt_datetime,
    markup,
    money,
    yes_no,
)
from fieldops.reports.impound_parts import (
    RELEASE_KINDS,
    animal_pairs,
    evidence_table,
    party_line,
    party_markup,
    payments_table,
    require_aware_view,
    staff_label,
    staff_name,
)
from fieldops.reports.register import impound_register
from fieldops.services.impound_views import DispositionView, ImpoundView

__all__ = ["RELEASE_KINDS", "impound_record_sheet", "impound_register", "release_receipt"]

_HOLD_LABELS = {
    "last_claim_day": "Owner's last day to claim",
    "release_to_others_from": "May go to others from",
}


# ----------------------------------------------------------------- release receipt


class ReleaseReceipt(Document):
    """The receipt handed over with an animal released under 58-526(b)."""

    title = "Receipt for release of impounded animal"

    def __init__(
        self, view: ImpoundView, *, staff_names: Mapping[str, str] | None = None, **kwargs: object
    ) -> None:
        disposition = view.disposition
        if disposition is None:
            raise ValueError(f"impoundment {view.id} has no disposition: the animal is in custody")
        if disposition.kind not in RELEASE_KINDS:
            raise ValueError(
                f"impoundment {view.id} was not released to a person "
                f"(disposition: {disposition.label}); no release receipt"
            )
        require_aware_view(view)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.disposition = disposition
        self.staff_names = staff_names

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
            ("Released to", party_markup(d.recipient, unknown="(not recorded)")),
            ("Recipient is", relation),
            ("Released by", staff_label(d.recorded_by, self.staff_names)),
        ]
        story: list[Flowable] = [
            self.key_values(release_pairs, columns=2, label_width=1.45 * inch),
        ]
        if clean(d.notes).strip():
            story.append(self.key_values([("Notes", d.notes)], label_width=1.45 * inch))
        story += [
            *self.heading("Animal"),
            self.key_values(animal_pairs(v.animal), columns=2, label_width=1.3 * inch),
            *self.heading("Fees paid"),
            *payments_table(self, v.payments),
        ]
        if v.fees is not None:
            story += [
                self.spacer(4),
                self.key_values(
                    [
                        (
                            "Fees assessed",
                            f"{money(v.fees.total)} (as of "
                            f"{fmt_datetime(v.fees.as_of, self.tz)}; {clean(v.fees.schedule)})",
                        ),
                        ("Balance due", money(v.fees.balance)),
                    ],
                    label_width=1.45 * inch,
                ),
            ]
        # The statement and the signatures it asks for stay together, and tighten to
        # stay on the page they close; when even that page has no room they take the
        # last requirement with them (under its header), never a page to themselves.
        evidence, last = d.evidence[:-1], d.evidence[-1:]
        story += [
            *self.heading("Requirements of release and the evidence recorded"),
            *(evidence_table(self, evidence) if evidence else []),
            FirstThatFits(
                [*self._tail(last, header=not evidence), *self._closing(compact=False)],
                [*self._tail(last, header=not evidence), *self._closing(compact=True)],
                overflow=[*self._tail(last, header=True), *self._closing(compact=False)],
            ),
        ]
        return story

    def _tail(self, last: tuple, *, header: bool) -> list[Flowable]:
        if not last and not header:
            return []
        return evidence_table(self, last, show_header=header)

    def _closing(self, *, compact: bool) -> list[Flowable]:
        statement = (
            "The animal described above was released from impoundment under city code "
            "58-526. This receipt is part of the record the pound operator keeps for "
            "each impounded animal under city code 58-528: the description of the "
            "animal, the date of impoundment, its disposition, the name and address of "
            "the person to whom it was released, the date of delivery and a listing of "
            "all fees paid."
        )
        return [
            self.spacer(3 if compact else 8),
            self.text(statement, "note"),
            self.spacer(2 if compact else 12),
            self._signatures(compact=compact),
        ]

    def _signatures(self, *, compact: bool = False) -> Flowable:
        """Two signature lines with a gap between them, each with the printed name below."""
        d = self.disposition
        recipient = d.recipient.full_name if d.recipient else ""
        gap = 0.5 * inch
        half = (self.body_width - gap) / 2

        def caption(role: str, name: str) -> Flowable:
            return self.text(markup("{}<br/><b>{}</b>", role, name or " "), "small")

        date_line = "Date: ______________________"
        table = Table(
            [
                ["", "", ""],
                [
                    caption("Signature of the person receiving the animal", recipient),
                    "",
                    caption(
                        "Signature for the pound operator",
                        staff_name(d.recorded_by, self.staff_names),
                    ),
                ],
                [self.text(date_line, "small"), "", self.text(date_line, "small")],
            ],
            colWidths=[half, gap, half],
            rowHeights=[20 if compact else 28, None, None],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    ("LINEBELOW", (0, 0), (0, 0), 0.8, "black"),
                    ("LINEBELOW", (2, 0), (2, 0), 0.8, "black"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 1), (-1, -1), 3),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return table


def release_receipt(
    view: ImpoundView,
    *,
    jurisdiction: str,
    tz: ZoneInfo,
    printed_at: datetime,
    staff_names: Mapping[str, str] | None = None,
) -> bytes:
    """The receipt given at release (city code 58-526(b); record under 58-528).

    ``staff_names`` maps login names to staff members' full names: the operator
    signs under their name (the login name only when no name is set).
    Raises ValueError if the animal has no disposition or was not released to
    a person (only "reclaimed" and "adopted" are releases).
    """
    return ReleaseReceipt(
        view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at, staff_names=staff_names
    ).render()


# -------------------------------------------------------------- 58-528 record sheet


class ImpoundRecordSheet(Document):
    """The 58-528 record of one impoundment, in custody or disposed of."""

    title = "Record of impounded animal"

    def __init__(
        self, view: ImpoundView, *, staff_names: Mapping[str, str] | None = None, **kwargs: object
    ) -> None:
        require_aware_view(view)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.staff_names = staff_names

    def subtitle(self) -> str:
        return f"Impoundment no. {self.view.id}"

    def footer_note(self) -> str:
        return "Record kept under city code 58-528"

    def story(self) -> list[Flowable]:
        v = self.view
        # 58-528's own order: description, date of impoundment, disposition, fees.
        story: list[Flowable] = [
            *self.heading("Animal"),
            self.key_values(
                animal_pairs(v.animal, photo=v.has_photo), columns=2, label_width=1.3 * inch
            ),
            *self.heading("Impoundment"),
            self.key_values(self._impound_pairs(), columns=2, label_width=1.3 * inch),
            self.key_values(self._impound_wide_pairs(), label_width=1.3 * inch),
            *self.heading("Disposition"),
            *self._disposition(),
        ]
        if v.corrections:
            story += [*self.heading("Corrections"), *self._corrections()]
        story += [
            *self.heading("Hold"),
            self.key_values(self._hold_pairs(), label_width=1.6 * inch),
            *self.heading("Fees"),
            *self._fees(),
            *self.heading("Payments"),
            *payments_table(self, v.payments),
        ]
        return story

    def _impound_wide_pairs(self) -> list[tuple[str, object]]:
        v = self.view
        pairs: list[tuple[str, object]] = [
            ("Where found", v.found_place),
            ("Owner", party_markup(v.owner, unknown="Unknown")),
        ]
        pairs += [
            (k, t)
            for k, t in (("Condition", v.condition), ("Injuries", v.injuries))
            if clean(t).strip()
        ]  # as seen at intake
        if clean(v.notes).strip():
            pairs.append(("Notes", v.notes))
        return pairs

    def _impound_pairs(self) -> list[tuple[str, object]]:
        v = self.view
        reason = v.reason_label
        if clean(v.reason_detail).strip():
            reason = f"{reason}: {clean(v.reason_detail).strip()}"
        if v.repeat_of is not None:
            repeat = f"Yes: impounded before as no. {v.repeat_of}" + (
                f" (custody day {fmt_date(v.repeat_custody_day)})" if v.repeat_custody_day else ""
            )
        else:
            repeat = "No"
        return [
            ("Impounded", markup("<b>{}</b>", fmt_datetime(v.impounded_at, self.tz))),
            ("Custody day", fmt_date(v.custody_day)),
            ("When found", fmt_datetime(v.found_at, self.tz)),
            ("Officer", v.officer),
            ("Reason", reason),
            ("Kennel", v.kennel),
            ("Bit a person", yes_no(v.bit_person)),
            ("Surrendered", "Yes, by the owner in writing" if v.surrendered else "No"),
            ("Repeat", repeat),
            ("Recorded by", staff_label(v.recorded_by, self.staff_names)),
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
            pairs.append(
                (
                    label,
                    markup("<b>{}</b><br/>{}", values[key], why)
                    if why
                    else markup("<b>{}</b>", values[key]),
                )
            )
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
            total_rows=[
                ["Total fees", money(fees.total)],
                ["Paid", money(fees.paid)],
                ["Balance", money(fees.balance)],
            ],
        )
        pairs: list[tuple[str, object]] = [
            ("Quoted as of", fmt_datetime(fees.as_of, self.tz)),
            ("Fees for", "The owner" if fees.to_owner else "A person other than the owner"),
            ("Fee schedule", fees.schedule),
        ]
        if fees.repeat_of is not None or clean(fees.repeat_note).strip():
            pairs.append(
                (
                    "Repeat impoundment",
                    fees.repeat_note or f"Fees doubled: impounded before as no. {fees.repeat_of}",
                )
            )
        return [*table, self.spacer(4), self.key_values(pairs)]

    def _disposition_pairs(self, d: DispositionView) -> list[tuple[str, object]]:
        pairs: list[tuple[str, object]] = [
            ("Disposition", markup("<b>{}</b>", d.label)),
            (
                "Date and time" if d.kind not in RELEASE_KINDS else "Date of delivery",
                fmt_datetime(d.at, self.tz),
            ),
        ]
        if d.recipient is not None or d.kind in RELEASE_KINDS:
            pairs.append(("Released to", party_markup(d.recipient, unknown="(not recorded)")))
            pairs.append(
                (
                    "Recipient is",
                    "The owner or the owner's representative" if d.to_owner else "Not the owner",
                )
            )
        if clean(d.transfer_to).strip() or d.kind == "transferred":
            pairs.append(("Transferred to", d.transfer_to))
        if d.kind == "euthanized":
            pairs.append(("Basis", d.euthanasia_basis_label))
            pairs.append(("Decided by", d.decided_by or "Not recorded"))
        if d.kind == "euthanized" or d.hopeless_or_threat:
            pairs.append(("Hopelessly injured, diseased or a threat", yes_no(d.hopeless_or_threat)))
        if d.preserve_until is not None:
            pairs.append(
                (
                    "Preserve the body until",
                    markup(
                        "<b>{}</b> (animal that bit a person; city code 58-522)",
                        fmt_date(d.preserve_until),
                    ),
                )
            )
        pairs.append(("Recorded by", staff_label(d.recorded_by, self.staff_names)))
        if clean(d.notes).strip():
            pairs.append(("Notes", d.notes))
        if d.corrects_id is not None:
            pairs.append(
                ("Corrects an earlier entry", d.correction_reason or "(no reason recorded)")
            )
        return pairs

    def _disposition(self) -> list[Flowable]:
        d = self.view.disposition
        if d is None:
            status = self.view.status(self.printed_at)
            return [
                self.text(markup("<b>In custody — no disposition yet</b> ({} at printing)", status))
            ]
        out: list[Flowable] = [self.key_values(self._disposition_pairs(d), label_width=1.6 * inch)]
        if d.evidence:
            out += [
                self.spacer(6),
                self.text("Requirements and the evidence recorded", "cell_bold"),
                self.spacer(2),
                *evidence_table(self, d.evidence),
            ]
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
                what += f"\nto {party_line(old.recipient)}"
            if clean(old.transfer_to).strip():
                what += f"\nto {clean(old.transfer_to).strip()}"
            newer = by_target.get(old.id)
            reason: Markup | str
            if newer is not None:
                reason = markup(
                    "{}<br/><i>Corrected by {} ({})</i>",
                    newer.correction_reason or "(no reason recorded)",
                    staff_label(newer.recorded_by, self.staff_names),
                    newer.label,
                )
            else:
                reason = old.correction_reason or "(no reason recorded)"
            rows.append(
                [
                    what,
                    fmt_datetime(old.at, self.tz),
                    staff_label(old.recorded_by, self.staff_names),
                    reason,
                ]
            )
        w = self.body_width
        widths = [1.9 * inch, 1.55 * inch, 0.95 * inch, 0]
        widths[3] = w - sum(widths)
        return [
            self.text("Earlier entries below were superseded; they are kept as recorded.", "small"),
            self.spacer(3),
            *self.data_table(
                ["Superseded disposition", "Recorded for", "Recorded by", "Why it was corrected"],
                rows,
                widths,
                wrap={0, 1, 2, 3},
            ),
        ]


def impound_record_sheet(
    view: ImpoundView,
    *,
    jurisdiction: str,
    tz: ZoneInfo,
    printed_at: datetime,
    staff_names: Mapping[str, str] | None = None,
) -> bytes:
    """The record of one impounded animal kept under city code 58-528.

    Description, date of impoundment, where and when found, hold, fees and
    payments, and the disposition with any earlier entries it corrected.
    """
    return ImpoundRecordSheet(
        view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at, staff_names=staff_names
    ).render()
