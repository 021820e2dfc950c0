"""The permit documents (58-533(a),(b)): the permit itself, and the notice that an animal
fancier's permit is not renewed (or is revoked) with the incidents it rests on.

The permit names the holder, the address, the year in force and what it allows (the hens
and the enclosure's setback, or the animals listed), with the fees paid. The notice, sent
by certified mail, names the decision, the review day, every incident counted (date, kind,
how it ended), the window the rules counted them in, and the day an appeal is due by, with
its reason; enforcement waits until an appeal is decided.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Flowable

from fieldops.reports.base import ALERT, Document, markup
from fieldops.reports.text import fmt_date, money
from fieldops.services.permits.views import PermitView, ReviewView


def cited(view: PermitView) -> str:
    """The text the permit rests on, as the profile names it ("City code 58-533(b)",
    "Dodgeville code 12.16"): a permit of another town never cites the city's section."""
    source = view.source or f"city code {view.section}"
    return source[:1].upper() + source[1:]


class PermitDocument(Document):
    title = "Permit"

    def __init__(self, view: PermitView, **kwargs: object) -> None:
        if view.issued_on is None or not view.issues:
            raise ValueError(f"permit {view.id} has not been issued: no permit to print")
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.title = view.kind_label

    def subtitle(self) -> str:
        return f"Permit no. {self.view.id}"

    def footer_note(self) -> str:
        return cited(self.view)

    def story(self) -> list[Flowable]:
        v = self.view
        issue = v.issues[-1]
        application = next((a for a in reversed(v.applications) if a.issued), None)
        rows: list[tuple[str, object]] = [
            ("Holder", v.holder),
            ("Address", v.address),
            ("Permit year", str(issue.year)),
            ("Issued", fmt_date(issue.issued_on)),
            ("Expires", fmt_date(issue.expires_on)),
            ("Status", v.status_label),
        ]
        if application is not None and application.hens is not None:
            rows += [
                ("Hens", str(application.hens)),
                ("Roosters", str(application.roosters or 0)),
                (
                    "Enclosure",
                    f"{application.setback_feet} feet from the property line"
                    + (
                        " (the neighbour's written consent on file)"
                        if application.neighbour_consent
                        else ""
                    ),
                ),
            ]
            if application.residence_setback_feet is not None:
                rows.append(("From a residence", f"{application.residence_setback_feet} feet"))
            if application.state_registered_on is not None:
                rows.append(("State registration", fmt_date(application.state_registered_on)))
        if issue.paid_amount is not None:
            rows += [
                ("Fees paid", f"{money(issue.paid_amount)} ({issue.payment_method})"),
                ("Receipt", issue.receipt_number or ""),
            ]
        elif application is not None:  # issued before payments were recorded
            rows.append(("Fees due", money(application.total)))
        story: list[Flowable] = [self.key_values(rows), self.spacer(8)]
        if v.kind == "fancier":
            story += self.heading("Animals kept")
            story += self.data_table(
                ["Species", "Number", "Names"],
                [(a.species, str(a.count), a.names) for a in v.animals],
                [2.2 * inch, 0.9 * inch, 4.2 * inch],
                wrap=(0, 2),
                right=(1,),
            )
            story.append(
                self.text(
                    "The list of animals must be updated within 30 days of any change (58-533(a)).",
                    "note",
                )
            )
        if v.stayed:
            story.append(
                self.text(
                    markup(
                        "<b>Appeal pending:</b> a decision not to renew or to revoke this permit "
                        "is stayed until the appeal is decided."
                    )
                )
            )
        return story


class NonRenewalNotice(Document):
    title = "Notice: animal fancier's permit"

    def __init__(self, view: PermitView, **kwargs: object) -> None:
        review = view.adverse_review
        if review is None:
            raise ValueError(f"permit {view.id} has no decision against it: no notice")
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view = view
        self.review: ReviewView = review
        self.title = (
            "Notice of non-renewal: animal fancier's permit"
            if review.purpose == "renewal"
            else "Notice of revocation: animal fancier's permit"
        )

    def subtitle(self) -> str:
        return f"Permit no. {self.view.id}"

    def footer_note(self) -> str:
        return f"{cited(self.view)}; sent by certified mail"

    def styles(self) -> dict[str, ParagraphStyle]:
        s = super().styles()
        s["deadline"] = ParagraphStyle(
            "deadline",
            parent=s["body"],
            fontName=self.bold,
            fontSize=12,
            leading=16,
            textColor=colors.HexColor(ALERT),
        )
        return s

    def story(self) -> list[Flowable]:
        v, r = self.view, self.review
        decided = "is not renewed" if r.purpose == "renewal" else "is revoked"
        n = r.notice
        rows: list[tuple[str, object]] = [
            ("To (permit holder)", v.holder),
            ("Address", v.address),
            ("Permit", f"{v.kind_label} no. {v.id}, year {v.year}"),
            ("Review", fmt_date(r.review_day)),
        ]
        if n is not None:
            rows += [
                ("Mailed", fmt_date(n.mailed_on)),
                ("Certified mail article", n.article_number),
            ]
        story: list[Flowable] = [
            self.key_values(rows),
            self.spacer(8),
            self.text(
                markup(
                    "Your animal fancier's permit <b>{}</b>. Before a permit is renewed the "
                    "incidents involving the permit holder's animals that ended in a warning or a "
                    "citation are reviewed; three or more separate incidents within the 12 months "
                    "up to the review mean the permit is not renewed, or is revoked (58-533(a)). "
                    "The review on {} counted {} incidents:",
                    decided,
                    fmt_date(r.review_day),
                    str(len(r.counted)),
                )
            ),
            self.spacer(4),
        ]
        story += self.data_table(
            ["Date", "Kind", "Ended in", "Citation", "What happened"],
            [
                (
                    fmt_date(i.occurred_on),
                    i.kind_label,
                    i.ending_label,
                    i.citation_number,
                    i.description,
                )
                for i in r.incidents
            ],
            [1.0 * inch, 1.1 * inch, 0.8 * inch, 1.0 * inch, 3.4 * inch],
            wrap=(1, 4),
        )
        story.append(self.spacer(8))
        if n is not None:
            story += [
                self.text(markup("Appeal by {}", fmt_date(n.appeal_by)), "deadline"),
                self.text(n.appeal_why, "note"),
            ]
        else:
            story.append(
                self.text(
                    "The appeal is due within 30 days of the day this notice is mailed "
                    "(58-533(a)).",
                    "note",
                )
            )
        story += [
            self.spacer(6),
            self.text(
                "Enforcement of this decision waits until an appeal filed on time is decided; "
                "until then the permit stands."
            ),
        ]
        return story


def permit_pdf(view: PermitView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime) -> bytes:
    """The permit as issued; ValueError for a permit never issued."""
    return PermitDocument(view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()


def non_renewal_notice(
    view: PermitView, *, jurisdiction: str, tz: tzinfo, printed_at: datetime
) -> bytes:
    """The notice of the decision against a fancier's permit; ValueError when there is none."""
    return NonRenewalNotice(view, jurisdiction=jurisdiction, tz=tz, printed_at=printed_at).render()
