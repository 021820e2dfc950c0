"""The written notice to destroy or remove a vicious animal from the city (58-524(c)(2)).

Ready to serve: who it is addressed to and where, the animal, the grounds of the
declaration, the deadline as weekday, date and time (the profile's hours after service, Sundays and
legal holidays left out), the ordinance quoted, and a certificate of service to fill in by
hand (in person, or posted on the front door after the owner refused it; by whom, when).
A notice already served prints its deadline; one not yet served prints how it is counted,
since the hours run from service.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, KeepTogether, Table, TableStyle

from fieldops.reports.base import ALERT, Document, markup
from fieldops.reports.text import fmt_datetime
from fieldops.rules import vicious as rules
from fieldops.services.vicious.views import CaseView


class ViciousNotice(Document):
    title = "Notice to destroy or remove a vicious animal"

    def __init__(
        self, view: CaseView, *, staff_names: Mapping[str, str] | None = None, **kwargs: object
    ) -> None:
        if not view.declared:
            raise ValueError(f"case {view.id} is not a declaration in force: no notice")
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.staff_names = staff_names or {}

    def subtitle(self) -> str:
        return f"Vicious-animal case no. {self.view.id}"

    def footer_note(self) -> str:
        return "City code 58-524(c)(2)"

    def styles(self) -> dict[str, ParagraphStyle]:
        s = super().styles()
        s["lead"] = ParagraphStyle("lead", parent=s["body"], fontSize=10.5, leading=14)
        s["deadline"] = ParagraphStyle(
            "deadline",
            parent=s["body"],
            fontName=self.bold,
            fontSize=13,
            leading=17,
            textColor=colors.HexColor(ALERT),
        )
        s["law"] = ParagraphStyle(
            "law", parent=s["body"], fontSize=8.5, leading=11, leftIndent=10, spaceAfter=3
        )
        return s

    def story(self) -> list[Flowable]:
        v = self.view
        n = v.notice
        hours = v.notice_hours
        story: list[Flowable] = [
            self.key_values(
                [
                    ("To (owner or caretaker)", v.owner),
                    ("Address", v.owner_address),
                    ("Animal", v.animal),
                    ("Declared vicious", f"{fmt_datetime(v.decided_at, self.tz)} by {v.officer}"),
                ],
                label_width=1.7 * inch,
            ),
            self.spacer(8),
            self.text(
                markup(
                    "The animal described above has been declared a <b>vicious animal</b> under "
                    "city code 58-524(a). No person shall own or keep a vicious animal in the city "
                    "(58-524(b)). <b>You are ordered to destroy the animal or remove it from the "
                    "city within {} hours of service of this notice</b> (58-524(c)(2)). In "
                    "counting the {} hours, Sundays and legal holidays are left out.",
                    hours,
                    hours,
                ),
                "lead",
            ),
            self.spacer(6),
        ]
        if n is not None:
            story += [
                self.text(markup("Deadline: {}", n.deadline_text), "deadline"),
                self.text(n.deadline_why, "small"),
            ]
        else:
            story += [
                self.text(
                    markup(
                        "Deadline: {} hours after the time of service written on the certificate "
                        "below, Sundays and legal holidays left out.",
                        hours,
                    ),
                    "deadline",
                )
            ]
        story += [*self.heading("Grounds of the declaration, 58-524(a)(1)")]
        for _code, section, words in v.grounds:
            story.append(self.text(markup("<b>{}</b> {}.", section, words), "law"))
        if v.incidents:
            story += [*self.heading("Incidents")]
            for inc in v.incidents:
                story.append(
                    self.text(
                        markup(
                            "<b>{}</b>, {}: {}",
                            fmt_datetime(inc.occurred_at, self.tz),
                            inc.place,
                            inc.what,
                        ),
                        "law",
                    )
                )
        story += [*self.heading("The ordinance, city code 58-524")]
        for section, words in rules.NOTICE_ORDINANCE_TEXT:
            story.append(self.text(markup("<b>{}</b> {}", section, words), "law"))
        story.append(
            self.text(
                "Failure to comply may lead to seizure of the animal (58-524(c)(1)), an action in "
                "circuit court for an order authorizing its destruction (58-524(c)(3)), or "
                "immediate action by an officer to protect life or property (58-524(c)(4)).",
                "note",
            )
        )
        story.append(
            KeepTogether(
                [*self.heading("Certificate of service", keep=2.6 * inch), *self._certificate()]
            )
        )
        return story

    def _certificate(self) -> list[Flowable]:
        n = self.view.notice
        box = "\u2610"
        ticked = "\u2612"
        in_person = ticked if n is not None and n.method == "in_person" else box
        posted = ticked if n is not None and n.method == "posted" else box
        line = "_" * 46

        def filled(value: str) -> object:
            return markup("<u>{}</u>", value) if value else line

        rows = [
            [
                self.text(
                    markup("{} Served in person on the owner or caretaker named above", in_person),
                    "body",
                )
            ],
            [
                self.text(
                    markup(
                        "{} The owner refused to accept it: attached to the front door "
                        "of the owner's residence (served upon posting, 58-524(c)(2))",
                        posted,
                    ),
                    "body",
                )
            ],
        ]
        pairs = [
            ("Served at (address)", filled(n.place if n else "")),
            ("Date and time of service", filled(fmt_datetime(n.served_at, self.tz) if n else "")),
            ("Served by (name, badge)", filled(n.served_by if n else "")),
        ]
        table = Table(rows, colWidths=[self.body_width], hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [("LEFTPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 4)]
            )
        )
        sign = Table(
            [
                ["", "", ""],
                [
                    self.text("Signature of the serving officer", "small"),
                    "",
                    self.text("Date", "small"),
                ],
            ],
            colWidths=[3.4 * inch, 0.4 * inch, 2.0 * inch],
            rowHeights=[30, None],
            hAlign="LEFT",
        )
        sign.setStyle(
            TableStyle(
                [
                    ("LINEBELOW", (0, 0), (0, 0), 0.8, "black"),
                    ("LINEBELOW", (2, 0), (2, 0), 0.8, "black"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return [
            self.text("I certify that I served this notice as marked below:", "body"),
            self.spacer(4),
            table,
            self.key_values([(k, v) for k, v in pairs], label_width=1.9 * inch),
            self.spacer(6),
            sign,
        ]


def vicious_notice(
    view: CaseView,
    *,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
    staff_names: Mapping[str, str] | None = None,
) -> bytes:
    """The written notice for a case declared vicious (58-524(c)(2)); ValueError otherwise."""
    return ViciousNotice(
        view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at, staff_names=staff_names
    ).render()
