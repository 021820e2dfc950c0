"""The bite quarantine's documents (city code 58-527): the order left with the owner, and the
certification of quarantine the veterinarian signs and the owner returns.

Built from a ``QuarantineView`` (frozen data, no session). Every piece of user text goes
through the base's escaping (``markup``/``key_values``), so "O'Brien & <Sons>" prints as typed.
The contact of the person bitten never appears: it is private to the case.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Unpack

from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Spacer

from fieldops.reports.base import Document, PageDetails, fmt_date, fmt_datetime, markup, money
from fieldops.rules.quarantine import ORDINANCE_58_527, SPECIMEN_NOTE
from fieldops.services.quarantine.views import QuarantineView

__all__ = ["certification_form", "quarantine_order"]

LINE = "_" * 40  # a line to sign or write on

HOME_CONDITIONS = (
    "Keep the animal on your premises, securely confined, tied, leashed or "
    "muzzled, for the whole observation period. If it is found improperly "
    "quarantined or at large, an officer will place it in a veterinary clinic for "
    "the balance of the period at your cost and may issue a citation "
    "(city code 58-527(b))."
)


def _exam_rows(v: QuarantineView) -> list[tuple[str, str]]:
    out = []
    for r in v.required:
        when = (
            fmt_date(r.start)
            if r.start == r.end
            else f"any one day from {fmt_date(r.start)} to {fmt_date(r.end)}"
        )
        out.append((r.label.capitalize(), when))
    return out


class QuarantineOrder(Document):
    """The order of quarantine, for the owner (58-527(b)-(e))."""

    title = "Order of rabies quarantine"

    def __init__(self, view: QuarantineView, **kw: Unpack[PageDetails]) -> None:
        super().__init__(**kw)
        self.v = view

    def subtitle(self) -> str:
        return f"Quarantine no. {self.v.id}"

    def footer_note(self) -> str:
        return "City code 58-527; Wis. Stat. 95.21"

    def story(self) -> list[Flowable]:
        v, b, tz = self.v, self.v.bite, self.tz
        out: list[Flowable] = []
        out += self.heading("The bite and the animal")
        out.append(
            self.key_values(
                [
                    ("Animal", b.animal),
                    ("Owner", b.owner),
                    ("Owner's address", b.owner_address),
                    ("Bite", markup("{} at {}", fmt_datetime(b.bitten_at, tz), b.place)),
                    ("Person bitten", b.victim_name),
                    ("Rabies vaccination", markup("{} {}", b.rabies_certificate, b.rabies_why)),
                    ("Ordered", markup("{} by {}", fmt_datetime(v.ordered_at, tz), b.officer)),
                ]
            )
        )
        out += self.heading("Where the animal is quarantined")
        if v.placement == "home":
            out.append(self.text(markup("<b>At home.</b> {}", HOME_CONDITIONS)))
        else:
            out.append(
                self.key_values(
                    [
                        ("Clinic", markup("{} {}", v.clinic, v.clinic_address)),
                        ("Deliver the animal by", fmt_datetime(v.deliver_by, tz)),
                        ("Why", v.why.get("deliver_by", "")),
                    ]
                )
            )
            out.append(
                self.text(
                    markup(
                        "All boarding and examination costs are the owner's and "
                        "are paid to the clinic before the animal is released "
                        "(city code 58-527(c), (e))."
                    )
                )
            )
        out += self.heading("Observation and examinations")
        out.append(
            self.key_values(
                [
                    (
                        "Observation ends",
                        markup(
                            "{} (day {} after the bite). {}",
                            fmt_date(v.last_day),
                            v.length,
                            v.why.get("last_day", ""),
                        ),
                    ),
                    *_exam_rows(v),
                    (
                        "Certification of quarantine due",
                        markup(
                            "<b>{}</b>. {}",
                            fmt_date(v.certificate_due),
                            v.why.get("certificate_due", ""),
                        ),
                    ),
                ],
                label_width=2.1 * inch,
            )
        )
        for note in v.notes:
            out.append(self.text(markup("{}", note), "note"))
        out.append(Spacer(1, 6))
        out.append(
            self.text(
                markup(
                    "If the animal shows signs of illness, dies or must be "
                    "euthanized, call the police department at once. {}",
                    SPECIMEN_NOTE,
                ),
                "note",
            )
        )
        out += self.heading("The ordinance this order rests on (city code 58-527)")
        for key, text in ORDINANCE_58_527.items():
            out.append(self.text(markup("<b>{}</b> {}", key, text), "note"))
        out.append(Spacer(1, 14))
        out.append(
            self.key_values(
                [("Officer", b.officer), ("Owner's signature", "_" * 40), ("Date", "_" * 40)]
            )
        )
        return out


class CertificationForm(Document):
    """The certification of quarantine, signed by the veterinarian and returned (58-527(d))."""

    title = "Certification of quarantine"

    def __init__(self, view: QuarantineView, **kw: Unpack[PageDetails]) -> None:
        super().__init__(**kw)
        self.v = view

    def subtitle(self) -> str:
        return f"Quarantine no. {self.v.id}"

    def footer_note(self) -> str:
        return "Return to the police department by the date due (city code 58-527(d))"

    def story(self) -> list[Flowable]:
        v, b, tz = self.v, self.v.bite, self.tz
        out: list[Flowable] = []
        out.append(
            self.key_values(
                [
                    ("Animal", b.animal),
                    ("Owner", b.owner),
                    ("Owner's address", b.owner_address),
                    ("Date of the bite", fmt_datetime(b.bitten_at, tz)),
                    ("Placement", "At home" if v.placement == "home" else f"Clinic: {v.clinic}"),
                    ("Return this form by", markup("<b>{}</b>", fmt_date(v.certificate_due))),
                ],
                label_width=1.9 * inch,
            )
        )
        out += self.heading("Examinations (by a veterinarian)")
        done = {x.counts_as: x for x in v.exams if x.counts_as}
        rows = []
        for r in v.required:
            x = done.get(r.label)
            due = (
                fmt_date(r.start)
                if r.start == r.end
                else f"{fmt_date(r.start)} to {fmt_date(r.end)}"
            )
            rows.append(
                [
                    r.label.capitalize(),
                    due,
                    fmt_date(x.examined_on) if x else "",
                    x.finding_label if x else "",
                    x.veterinarian if x else "",
                    money(x.fee) if x else "",
                ]
            )
        out += self.data_table(
            ["Examination", "Due", "Done on", "Finding", "Veterinarian", "Fee"],
            rows,
            [1.4 * inch, 1.7 * inch, 1.0 * inch, 1.2 * inch, 1.3 * inch, 0.7 * inch],
            wrap=(1, 3, 4),
            right=(5,),
        )
        out += self.heading("Certification")
        out.append(
            self.text(
                markup(
                    "I certify that I examined the animal described above during the observation period "
                    "ending {} and that it showed no signs of rabies at the end of that period.",
                    fmt_date(v.last_day),
                )
            )
        )
        out.append(Spacer(1, 18))
        out.append(
            self.key_values(
                [
                    ("Veterinarian (print)", LINE),
                    ("Signature", LINE),
                    ("Clinic and licence no.", LINE),
                    ("Date", LINE),
                ],
                label_width=1.9 * inch,
            )
        )
        return out


def quarantine_order(
    view: QuarantineView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime
) -> bytes:
    """The order left with the owner: placement and its conditions or the clinic and its
    delivery deadline, the exam days, the certificate due date, the ordinance text."""
    return QuarantineOrder(view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()


def certification_form(
    view: QuarantineView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime
) -> bytes:
    """The certification of quarantine for the veterinarian to sign and the owner to return."""
    return CertificationForm(view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()
