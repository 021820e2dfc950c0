"""The field calls module's documents: a citation (58-534(b)), the owner's notice of a
complaint (58-534(a)), and the petition form with its five required parts."""

from __future__ import annotations

from datetime import datetime, tzinfo

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable

from fieldops.reports.base import ALERT, Document, markup
from fieldops.reports.text import fmt_date, fmt_datetime, money
from fieldops.rules import calls as rules
from fieldops.services.calls.views import CallView, CitationView, ComplaintView, PetitionView


class CitationForm(Document):
    title = "Citation"

    def __init__(self, c: CitationView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.c = c

    def subtitle(self) -> str:
        return f"Citation no. {self.c.id}" + (" (VOID)" if self.c.voided else "")

    def footer_note(self) -> str:
        return "City code 58-534(b)" + ("; VOID" if self.c.voided else "")

    def styles(self) -> dict[str, ParagraphStyle]:
        s = super().styles()
        s["void"] = ParagraphStyle(
            "void",
            parent=s["body"],
            fontName=self.bold,
            fontSize=16,
            leading=20,
            textColor=colors.HexColor(ALERT),
        )
        return s

    def _void_mark(self, canvas: Canvas) -> None:
        """A voided citation says so across every page: it is no offence."""
        width, height = self.pagesize
        canvas.saveState()
        canvas.setFillColor(colors.HexColor(ALERT), alpha=0.18)
        canvas.setFont(self.bold, 110)
        canvas.translate(width / 2, height / 2)
        canvas.rotate(35)
        canvas.drawCentredString(0, -40, "VOID")
        canvas.restoreState()

    def first_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        super().first_page(canvas, doc)
        if self.c.voided:
            self._void_mark(canvas)

    def later_pages(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        super().later_pages(canvas, doc)
        if self.c.voided:
            self._void_mark(canvas)

    def story(self) -> list[Flowable]:
        c = self.c
        amount = money(c.forfeiture) if c.forfeiture is not None else "None (a warning)"
        if c.forfeiture is not None and c.plus_court_costs:
            amount += " plus court costs"
        void: list[Flowable] = []
        if c.voided_at is not None:
            void = [
                self.text(
                    markup(
                        "VOID: voided {} by {}. {}",
                        fmt_datetime(c.voided_at, self.tz),
                        c.voided_by,
                        c.void_reason,
                    ),
                    "void",
                ),
                self.text(
                    "A voided citation stays on record; it is no offence, counts on no "
                    "penalty ladder and nothing is owed on it.",
                    "note",
                ),
                self.spacer(6),
            ]
        return [
            *void,
            self.key_values(
                [
                    ("Person cited", c.person),
                    ("Address", c.person_address or c.address),
                    ("Ordinance section", c.section),
                    ("Date of the offence", fmt_date(c.offence_on)),
                    ("Offence number", f"{c.offence_number} against {c.section}"),
                    ("Forfeiture", amount),
                    ("Place", c.address),
                    ("Court date", fmt_date(c.court_on) if c.court_on else "To be set"),
                    ("Issued by", c.issued_by),
                    ("Issued", fmt_datetime(c.issued_at, self.tz)),
                ],
                label_width=1.8 * inch,
            ),
            self.spacer(8),
            self.text(c.description or ""),
            self.spacer(6),
            self.text(markup("<b>Why this forfeiture:</b> {}", c.penalty_why)),
            self.spacer(6),
            self.text(
                "Each violation and each day a violation continues is a separate offence "
                "(city code 58-534(b)); this citation is for the one day shown above.",
                "note",
            ),
        ]


class ComplaintNotice(Document):
    title = "Notice of a complaint"

    def __init__(self, call: CallView, c: ComplaintView, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.call = call
        self.c = c

    def subtitle(self) -> str:
        return f"Call no. {self.call.id}, complaint no. {self.c.id}"

    def footer_note(self) -> str:
        return "City code 58-534(a)"

    def story(self) -> list[Flowable]:
        call, c = self.call, self.c
        place = call.address + (f", {call.place}" if call.place else "")
        return [
            self.key_values(
                [
                    ("To (owner or keeper)", call.owner or "Owner or keeper of the animal"),
                    # The owner's own address, as on the citation; the call's where none is known.
                    ("Address", call.owner_address or call.address),
                    ("Place of the complaint", place),
                    ("Animal", call.animal or "As described below"),
                    ("Complaint logged", fmt_datetime(c.logged_at, self.tz)),
                    ("Kind", call.kind_label),
                ],
                label_width=1.8 * inch,
            ),
            self.spacer(8),
            self.text(markup("<b>Alleged violation:</b> {}", c.alleged)),
            self.spacer(6),
            self.text(
                "A complaint of the violation described above has been made to the city's "
                "animal control by an adult and logged as city code 58-534(a) provides. This "
                "notice tells you of it. If a later violation by the same animal or owner is "
                "reported, the neighbours may file a written petition, which the city refers "
                "for prosecution or zoning enforcement."
            ),
        ]


class PetitionForm(Document):
    """The petition form: its five parts, filled from a received petition or blank."""

    title = "Petition: animal violation"

    def __init__(self, call: CallView, p: PetitionView | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.call = call
        self.p = p

    def subtitle(self) -> str:
        return f"Call no. {self.call.id}"

    def footer_note(self) -> str:
        return "City code 58-534(a)"

    def story(self) -> list[Flowable]:
        p = self.p
        values = {
            "petitioners": p.petitioners if p else "",
            "animal": p.animal
            if p
            else f"{self.call.animal}; owner {self.call.owner}, "
            + (self.call.owner_address or self.call.address),
            "violations": p.violations if p else "",
            "reported_on": p.reported_on if p else "",
            "will_testify": (
                "The petitioners state that they will testify." if p and p.will_testify else ""
            ),
        }
        story: list[Flowable] = [
            self.text(
                "A written petition after a later violation must carry each of the five parts "
                "below (city code 58-534(a)); a petition missing any of them is refused."
            ),
            self.spacer(6),
        ]
        for key, part in rules.PETITION_PARTS.items():
            story += self.heading(part[0].upper() + part[1:])
            story.append(self.text(values[key] or "_" * 80))
        if p is not None:
            story.append(self.spacer(8))
            if p.status == "refused":
                lacks = "; ".join(rules.PETITION_PARTS[k] for k in p.missing)
                story.append(self.text(markup("<b>Refused</b>: it lacks {}.", lacks)))
            else:
                story.append(
                    self.text(
                        markup(
                            "<b>Accepted</b> {}; referred to {} on {}.",
                            fmt_date(p.received_on),
                            p.referred_to_label,
                            fmt_date(p.referred_on),
                        )
                    )
                )
        return story


def citation_pdf(c: CitationView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime) -> bytes:
    return CitationForm(c, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()


def complaint_notice_pdf(
    call: CallView, c: ComplaintView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime
) -> bytes:
    return ComplaintNotice(
        call, c, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at
    ).render()


def petition_pdf(
    call: CallView,
    p: PetitionView | None = None,
    *,
    jurisdiction: str,
    tz: tzinfo,
    printed_at: datetime,
) -> bytes:
    return PetitionForm(call, p, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()
