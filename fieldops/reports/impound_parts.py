"""Pieces the impoundment documents share: people, the animal, payments, evidence.

Each takes frozen views from ``fieldops.services.impound_views``; user text
reaches a Paragraph only through ``esc``/``markup`` (see ``base``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from reportlab.lib.units import inch
from reportlab.platypus import Flowable

from fieldops.reports.base import (
    ALERT,
    Document,
    Markup,
    clean,
    fmt_datetime,
    markup,
    money,
    yes_no,
)
from fieldops.rules.release import RELEASE_KINDS as RULES_RELEASE_KINDS
from fieldops.services.impound_views import (
    PAYMENT_KINDS,
    PAYMENT_METHODS,
    AnimalDescription,
    EvidenceView,
    ImpoundView,
    PartyView,
    PaymentView,
)

#: Dispositions that hand the animal to a person (58-526(b)(1) owner, (b)(2) anyone else).
RELEASE_KINDS = frozenset(RULES_RELEASE_KINDS)  # the rules' (fieldops.rules.release)


def party_markup(party: PartyView | None, *, unknown: str = "Unknown") -> Markup:
    """Name in bold, address and phone beneath; every part escaped."""
    if party is None:
        return markup("{}", unknown)
    name = clean(party.full_name).strip() or "(name not recorded)"
    address = clean(party.address).strip() or "(address not recorded)"
    text = markup("<b>{}</b><br/>{}", name, address)
    if clean(party.phone).strip():
        text = Markup(text + markup("<br/>Phone: {}", party.phone))
    return text


def staff_name(username: str, names: Mapping[str, str] | None) -> str:
    """The staff member's full name for a login name; the login name when none is set."""
    return clean((names or {}).get(username, "")).strip() or username


def staff_label(username: str, names: Mapping[str, str] | None) -> str:
    """ "Full Name (login)": the person, and the login the audit trail records."""
    name = staff_name(username, names)
    return name if name == username else f"{name} ({username})"


def party_line(party: PartyView | None) -> str:
    """ "Name, address" on one line, for the register."""
    if party is None:
        return ""
    bits = [
        clean(party.full_name).strip(),
        ", ".join(line.strip() for line in clean(party.address).splitlines() if line.strip()),
    ]
    return ", ".join(b for b in bits if b)


def _species(animal: AnimalDescription) -> str:
    if animal.species == "other" and animal.species_detail:
        return animal.species_detail
    if animal.species_detail:
        return f"{animal.species} ({animal.species_detail})"
    return animal.species


def animal_pairs(
    animal: AnimalDescription, *, photo: bool | None = None
) -> list[tuple[str, object]]:
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


def payments_table(doc: Document, payments: Sequence[PaymentView]) -> list[Flowable]:
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
            rows.append(
                [
                    payment.receipt_number if first else "",
                    when if first else "",
                    method if first else "",
                    PAYMENT_KINDS.get(line.kind, line.kind),
                    line.description,
                    money(line.amount),
                ]
            )
        if len(lines) > 1:
            rows.append(
                ["", "", "", "", Markup("<i>Total of this payment</i>"), money(payment.total)]
            )
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


def evidence_table(
    doc: Document, evidence: Sequence[EvidenceView], *, show_header: bool = True
) -> list[Flowable]:
    """What satisfied each legal requirement; overrides marked in red with who and why."""
    rows: list[list[object]] = []
    for item in evidence:
        shown: object = item.evidence
        if item.overridden:
            by = clean(item.override_by).strip() or "(user not recorded)"
            reason = clean(item.override_reason).strip() or "(no reason recorded)"
            shown = markup(
                f'<font color="{ALERT}"><b>OVERRIDDEN by {{}}:</b> {{}}</font>', by, reason
            )
            if clean(item.evidence).strip():
                shown = Markup(shown + markup("<br/>{}", item.evidence))
        rows.append([item.label or item.code, shown or "(none recorded)"])
    if not rows and show_header:
        rows = [["No requirement evidence was recorded.", ""]]
    # The requirement takes half the width: its long legal wording then wraps to two
    # lines at most, which keeps a receipt's closing signatures on its first page.
    w = doc.body_width
    return doc.data_table(
        ["Requirement", "Evidence recorded"],
        rows,
        [w / 2, w / 2],
        wrap={0, 1},
        zebra=False,
        show_header=show_header,
    )


def require_aware_view(view: ImpoundView) -> None:
    if view.impounded_at.tzinfo is None:
        raise ValueError(f"impoundment {view.id}: impounded_at must be timezone-aware")
