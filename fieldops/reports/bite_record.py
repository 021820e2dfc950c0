"""The bite case's record (issue 11): the bite report, the quarantine's plan, its exams and
events, the corrections in force, and the person bitten with their contact; or, as a
public-records copy, "(withheld)" in place of the private parts and the same notice on
page 1 as a record report's (``frame.withheld_notice``) saying what was withheld and why.

Built from frozen views (no session). On the public-records copy every piece of free text
(notes, correction reasons, corrected values) is also cleared of the private values, so a
name typed into a note does not reach the copy. User text goes through the base's escaping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Unpack

from reportlab.platypus import Flowable, Table, TableStyle

from fieldops import __version__
from fieldops.modules import Withheld
from fieldops.reports.base import (
    Document,
    PageDetails,
    fmt_date,
    fmt_datetime,
    markup,
    money,
    yes_no,
)
from fieldops.reports.frame import PUBLIC_COPY, withheld_notice
from fieldops.services.quarantine.views import BiteView, QuarantineView

__all__ = ["WITHHELD", "WITHHELD_PARTS", "CorrectionLine", "bite_case_record"]

WITHHELD = "(withheld)"

# What a public-records copy of a bite case leaves out, and why (printed on page 1).
WITHHELD_PARTS = (
    Withheld(
        "The person bitten: name and contact",
        "personal details of the victim of a bite (a medical matter), kept private to the case",
    ),
    Withheld(
        "Who reported the bite",
        "identity of a caller or complainant, withheld to protect those who report",
    ),
)


@dataclass(frozen=True)
class CorrectionLine:
    """One correction in force: what was corrected, from what to what, why, by whom, when."""

    what: str
    old: str
    new: str
    reason: str
    by: str
    at: datetime
    private: bool = False  # a correction of a private part (its values are withheld)


class BiteCaseRecord(Document):
    title = "Bite case record"

    def __init__(
        self,
        bite: BiteView,
        quarantine: QuarantineView | None,
        corrections: Sequence[CorrectionLine],
        *,
        contact: str,
        redacted: bool,
        private: Iterable[str] = (),
        printed_by: str = "",
        audit_head: str = "",
        **kw: Unpack[PageDetails],
    ) -> None:
        super().__init__(printed_by=printed_by, audit_head=audit_head, **kw)
        self.b, self.q = bite, quarantine
        self.corrections = tuple(corrections)
        self.contact = "" if redacted else contact
        self.redacted = redacted
        self._secret = (
            _pattern([bite.victim_name, bite.reported_by, contact, *private], bite.victim_name)
            if redacted
            else None
        )

    def subtitle(self) -> str:
        no = f"Bite report no. {self.b.id}"
        return f"{PUBLIC_COPY}, {no}" if self.redacted else no

    def footer_note(self) -> str:
        return "City code 58-527; Wis. Stat. 95.21"

    def say(self, text: object) -> str:
        """Free text as printed: on a public-records copy, with the private values withheld."""
        value = "" if text is None else str(text)
        return self._secret.sub(WITHHELD, value) if self._secret else value

    def private(self, value: str) -> str:
        return WITHHELD if self.redacted else value

    def story(self) -> list[Flowable]:
        out: list[Flowable] = [
            self.text(
                markup(
                    "Generated {} by <b>{}</b> with FieldOps {}.",
                    fmt_datetime(self.printed_at, self.tz),
                    self.printed_by or "(not recorded)",
                    __version__,
                ),
                "small",
            ),
            self.spacer(4),
        ]
        if self.redacted:
            out += [withheld_notice(self, WITHHELD_PARTS), self.spacer(6)]
        out += self._bite()
        out += self._plan()
        out += self._exams()
        out += self._events()
        out += self._corrections()
        return out

    def _bite(self) -> list[Flowable]:
        b, tz = self.b, self.tz
        proof = "Current on the day of the bite" if b.rabies_proof else "No proof of current"
        cert = self.say(b.rabies_certificate)
        rabies = markup("{}{}. {}", proof, f" (certificate {cert})" if cert else "", b.rabies_why)
        return [
            *self.heading("The bite report"),
            self.key_values(
                [
                    ("When", fmt_datetime(b.bitten_at, tz)),
                    ("Where", self.say(b.place)),
                    ("Animal", self.say(b.animal)),
                    ("Owner", b.owner),
                    ("Owner's address", b.owner_address),
                    ("Rabies vaccination", rabies),
                    ("Officer", self.say(b.officer)),
                    ("Reported by", self.private(b.reported_by)),
                    ("Reported", fmt_datetime(b.reported_at, tz)),
                    ("Referred to the health officer", yes_no(b.referral)),
                    ("Notes", self.say(b.notes)),
                ]
            ),
            *self.heading("The person bitten"),
            self.key_values(
                [
                    ("Name", self.private(b.victim_name)),
                    ("Contact", self.private(self.contact) if b.has_victim_contact else ""),
                ]
            ),
        ]

    def _plan(self) -> list[Flowable]:
        q, tz = self.q, self.tz
        if q is None:
            return [*self.heading("The quarantine"), self.text("No quarantine was ordered.")]
        window = f"{fmt_date(q.window[0])} to {fmt_date(q.window[1])}" if q.window else ""
        pairs: list[tuple[str, object]] = [
            ("Quarantine no.", str(q.id)),
            ("Status", q.status_label),
            (
                "Placement",
                markup("{}: {}", q.placement_label, q.clinic) if q.clinic else q.placement_label,
            ),
            ("Ordered", fmt_datetime(q.ordered_at, tz)),
            ("Deliver by", fmt_datetime(q.deliver_by, tz) if q.deliver_by else ""),
            ("Delivered", fmt_datetime(q.delivered_at, tz) if q.delivered_at else ""),
            ("First examination", fmt_date(q.first_exam_day)),
            ("Intervening examination window", window),
            ("Observation ends", markup("{} ({} days)", fmt_date(q.last_day), q.length)),
            ("Certificate due", fmt_date(q.certificate_due)),
            (
                "Certificate received",
                fmt_date(q.certificate_received_on) if q.certificate_received_on else "",
            ),
            ("Closed", fmt_datetime(q.closed_at, tz) if q.closed_at else ""),
        ]
        for r in q.required:
            when = (
                fmt_date(r.start)
                if r.start == r.end
                else f"{fmt_date(r.start)} to {fmt_date(r.end)}"
            )
            pairs.append((f"Required: {r.label}", f"{when} ({r.state.replace('_', ' ')})"))
        return [*self.heading("The quarantine plan"), self.key_values(pairs)]

    def _exams(self) -> list[Flowable]:
        exams = self.q.exams if self.q else ()
        head = self.heading("Examinations")
        if not exams:
            return [*head, self.text("None recorded.")]
        rows = [
            [
                fmt_date(e.examined_on),
                self.say(e.veterinarian),
                self.say(e.counts_as) or "on no required day",
                e.finding_label,
                money(e.fee),
            ]
            for e in exams
        ]
        return [*head, self._table(["Date", "Veterinarian", "Counts as", "Finding", "Fee"], rows)]

    def _events(self) -> list[Flowable]:
        events = self.q.events if self.q else self.b.events
        head = self.heading("Events")
        if not events:
            return [*head, self.text("None recorded.")]
        rows = [
            [
                fmt_datetime(e.at, self.tz),
                e.label,
                self.say(e.who),
                self.say(" ".join(x for x in (e.citation, e.notes) if x)),
            ]
            for e in events
        ]
        return [*head, self._table(["When", "Event", "Who", "Notes"], rows)]

    def _corrections(self) -> list[Flowable]:
        head = self.heading("Corrections in force")
        if not self.corrections:
            return [*head, self.text("None.")]
        rows = [
            [
                c.what,
                WITHHELD if c.private and self.redacted else self.say(c.old),
                WITHHELD if c.private and self.redacted else self.say(c.new),
                self.say(c.reason),
                markup("{}, {}", self.say(c.by), fmt_datetime(c.at, self.tz)),
            ]
            for c in self.corrections
        ]
        return [*head, self._table(["What", "Was", "Is now", "Why", "By, when"], rows)]

    def _table(self, header: list[str], rows: Sequence[Sequence[object]]) -> Flowable:
        cells = [
            [self.text(h, "cell_bold") for h in header],
            *[[self.text(v, "cell") for v in row] for row in rows],
        ]
        table = Table(cells, repeatRows=1, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.5, "#888888"),
                    ("LINEBELOW", (0, 1), (-1, -1), 0.25, "#d5dade"),
                ]
            )
        )
        return table


def _pattern(values: Iterable[str], name: str) -> re.Pattern[str] | None:
    """Every private value, and each capitalised word of the bitten person's name, as one
    pattern (longest first, so a whole value is replaced before its parts)."""
    parts = {v.strip() for v in values if v and v.strip()}
    parts.update(w for w in re.split(r"[\s,&<>]+", name or "") if len(w) >= 3 and w[0].isupper())
    if not parts:
        return None
    return re.compile(
        "|".join(re.escape(p) for p in sorted(parts, key=len, reverse=True)), re.IGNORECASE
    )


def bite_case_record(
    bite: BiteView,
    quarantine: QuarantineView | None,
    corrections: Sequence[CorrectionLine],
    *,
    contact: str,
    redacted: bool,
    private: Iterable[str] = (),
    printed_by: str = "",
    audit_head: str = "",
    **kw: Unpack[PageDetails],
) -> bytes:
    """The case record's PDF: in full, or (``redacted``) the public-records copy."""
    return BiteCaseRecord(
        bite,
        quarantine,
        corrections,
        contact=contact,
        redacted=redacted,
        private=private,
        printed_by=printed_by,
        audit_head=audit_head,
        **kw,
    ).render()
