"""Fees and payments for an impoundment (58-526(a), (b)(1)d, (b)(2)e; 58-528)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy.orm import Session

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.db.models import (
    PAYMENT_KIND_CODES,
    PAYMENT_METHOD_CODES,
    Animal,
    Disposition,
    Impoundment,
    Payment,
    PaymentLine,
    Person,
)
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, adoption_fees, format_day, redemption_fees
from fieldops.rules.fees import FeeQuote
from fieldops.rules.release import adoption_fee_applies, release_kind
from fieldops.services import validate as v
from fieldops.services.context import (
    Actor,
    audit,
    existing_save,
    fetch,
    jsonable,
    now,
    remember_save,
)
from fieldops.services.fee_schedules import parse_amount, profile_in_force
from fieldops.services.impound_rows import current_disposition, load_impoundment
from fieldops.services.impound_views import FeeLine, FeeSummary

# Payment kinds that count towards the release fees; a licence or a rabies
# prepayment is paid for something else and never settles the pound's fees.
FEE_KINDS = ("impound", "boarding", "adoption")


@dataclass(frozen=True)
class LineInput:
    kind: str
    amount: str | Decimal
    description: str = ""
    charge: str = ""  # the module charge it pays (FeeLine.charge); "" for the pound's fees


@dataclass(frozen=True)
class PaymentInput:
    lines: tuple[LineInput, ...]
    method: str
    receipt_number: str
    payer_id: int | None = None
    paid_at: datetime | None = None


def fee_summary(
    s: Session, imp: Impoundment, at: datetime, to_owner: bool, profile: Profile
) -> FeeSummary:
    """The quote for releasing at ``at`` and what has been paid towards it.

    The owner pays the impound fee (multiplied on a repeat impoundment) and
    boarding; anyone else pays the impound fee (never multiplied: the penalty
    is the owner's), boarding and the adoption fee. 58-526(b)(2)e requires the
    non-owner to pay "the boarding and impoundment fee"; the adoption fee is the
    council's separate charge (RULES.md section 2).
    """
    at = max(at, imp.impounded_at)
    in_force, schedule = profile_in_force(s, profile, imp.custody_day)
    species = fetch(s, Animal, imp.animal_id).species
    repeat = imp.repeat_of_id is not None
    if to_owner:
        quote = redemption_fees(species, imp.impounded_at, at, in_force, repeat=repeat)
        note = ""
        if imp.repeat_of_id is not None:
            earlier = fetch(s, Impoundment, imp.repeat_of_id)
            note = (
                f"Impound fee x{quote.multiplier_applied}: this animal was impounded on "
                f"{format_day(earlier.custody_day)} (impoundment #{earlier.id}), within "
                f"{profile.repeat_window_days} days (city code 58-526(a))."
            )
    else:
        quote = adoption_fees(species, imp.impounded_at, at, in_force, include_impound_fee=True)
        note = ""
    paid = sum(
        (
            line.amount
            for p in imp.payments
            for line in p.lines
            if line.kind in FEE_KINDS and not line.charge
        ),
        Decimal("0.00"),
    )
    charges = _module_charges(s, imp, species, at, to_owner, profile)
    return FeeSummary(
        as_of=at,
        to_owner=to_owner,
        lines=_fee_lines(quote) + charges,
        total=quote.total + sum((c.amount for c in charges), Decimal("0.00")),
        paid=paid + sum((c.paid for c in charges), Decimal("0.00")),
        repeat_of=imp.repeat_of_id if to_owner else None,
        repeat_note=note,
        schedule=schedule,
    )


def record_fees(
    s: Session, imp: Impoundment, disp: Disposition | None, at: datetime, profile: Profile
) -> FeeSummary:
    """The fees the impoundment's record shows (58-528): for the disposition in force, as of
    its time, else (still in custody) the owner's as of ``at``.

    Only an adoption is charged a non-owner's fees (``rules.adoption_fee_applies``): an
    animal that escaped, died, was destroyed or transferred was adopted by nobody, and
    its record shows what the owner owes."""
    if disp is None:
        return fee_summary(s, imp, at, True, profile)
    return fee_summary(s, imp, disp.at, not adoption_fee_applies(disp.kind), profile)


def _module_charges(
    s: Session, imp: Impoundment, species: str, at: datetime, to_owner: bool, profile: Profile
) -> tuple[FeeLine, ...]:
    """What the installed modules say is owed before this release (fieldops.modules)."""
    case = modules.ReleaseCase(release_kind(to_owner), to_owner, True, species, at, profile)
    return tuple(
        FeeLine(c.label, c.amount, c.kind, c.code, c.paid)
        for c in modules.release_charges(s, imp.animal_id, case)
    )


def _fee_lines(quote: FeeQuote) -> tuple[FeeLine, ...]:
    """The quote's receipt lines, each with the payment kind that settles it.

    Both quotes asked for here carry the impound fee line (``fee_summary`` asks
    the non-owner's with ``include_impound_fee=True``), then boarding, then for
    a non-owner the adoption fee: the rules' documented order. The kind comes
    from that order, never from the wording of a label.
    """
    kinds = ["impound", "boarding"] + ([] if quote.to_owner else ["adoption"])
    if len(kinds) != len(quote.lines):  # a rules change the mapping above does not know
        raise ValueError(f"fee quote has {len(quote.lines)} lines, expected {kinds}")
    return tuple(
        FeeLine(label, amount, kind)
        for kind, (label, amount) in zip(kinds, quote.lines, strict=True)
    )


def quote(
    db: Database, impoundment_id: int, at: datetime, to_owner: bool, profile: Profile
) -> FeeSummary:
    with db.read() as s:
        return fee_summary(s, load_impoundment(s, impoundment_id), at, to_owner, profile)


def validate_payment(inp: PaymentInput, at: datetime) -> list[tuple[str, Decimal, str, str]]:
    """Check a payment; returns its lines as (kind, amount, description, charge)."""
    c = Collector()
    c.check(inp.method in PAYMENT_METHOD_CODES, "method", "Choose how it was paid.")
    col, line_col = Payment.__table__.c, PaymentLine.__table__.c
    v.required(
        c, "receipt_number", v.clean(inp.receipt_number), "Receipt number", col.receipt_number
    )
    c.check(bool(inp.lines), "lines", "Add at least one line to the payment.")
    paid_at_ok = v.instant(c, "paid_at", inp.paid_at, "When it was paid")
    if paid_at_ok and inp.paid_at is not None and inp.paid_at > at + timedelta(minutes=5):
        c.add("paid_at", "A payment cannot be in the future.")
    lines: list[tuple[str, Decimal, str, str]] = []
    for i, line in enumerate(inp.lines):
        c.check(line.kind in PAYMENT_KIND_CODES, f"lines.{i}.kind", "Choose what was paid for.")
        amount = parse_amount(c, f"lines.{i}.amount", line.amount)
        if amount is not None and amount <= 0:
            c.add(f"lines.{i}.amount", "An amount paid must be more than zero.")
        if line.kind == "other":
            c.check(
                bool(v.clean(line.description)),
                f"lines.{i}.description",
                "Say what the payment was for.",
            )
        v.optional_len(
            c,
            f"lines.{i}.description",
            v.clean(line.description),
            "Description",
            line_col.description,
        )
        v.optional_len(c, f"lines.{i}.kind", v.clean(line.charge), "Charge", line_col.charge)
        if amount is not None:
            lines.append((line.kind, amount, v.clean(line.description), v.clean(line.charge)))
    c.raise_if_any()
    return lines


def _check_charges(
    s: Session, imp: Impoundment, lines: list[tuple[str, Decimal, str, str]], profile: Profile
) -> None:
    """A line naming a module's charge must name one still on record for this animal."""
    named = [(i, ch) for i, (_k, _a, _d, ch) in enumerate(lines) if ch]
    if not named:
        return
    species = fetch(s, Animal, imp.animal_id).species
    case = modules.ReleaseCase("reclaimed", True, True, species, now(), profile)
    known = {c.code for c in modules.release_charges(s, imp.animal_id, case)}
    c = Collector()
    for i, ch in named:
        c.check(ch in known, f"lines.{i}.kind", "This charge is not owed for this animal.")
    c.raise_if_any()


@requires(Permission.PAYMENTS)
def record_payment(
    db: Database,
    actor: Actor,
    impoundment_id: int,
    inp: PaymentInput,
    profile: Profile,
    *,
    client_key: str | None = None,
) -> FeeSummary:
    """Record a payment as line items; returns the fees with the new amount paid.

    A retry with the same ``client_key`` records nothing and returns the fees as they are."""

    at = now()
    lines = validate_payment(inp, at)
    with db.write() as s:
        imp = load_impoundment(s, impoundment_id)
        if existing_save(s, client_key, "payment", actor) is not None:
            return record_fees(s, imp, current_disposition(s, imp.id), at, profile)
        if inp.paid_at is not None and inp.paid_at < imp.impounded_at:
            c = Collector()
            c.add("paid_at", "A payment cannot be before the impoundment.")
            c.raise_if_any()
        c = Collector()
        v.exists(c, s, Person, inp.payer_id, "payer_id", "The payer")
        c.raise_if_any()
        _check_charges(s, imp, lines, profile)
        payment = Payment(
            impoundment_id=imp.id,
            paid_at=inp.paid_at or at,
            payer_id=inp.payer_id,
            method=inp.method,
            receipt_number=v.clean(inp.receipt_number),
            recorded_by=actor.username,
        )
        payment.lines = [
            PaymentLine(kind=k, amount=a, description=d, charge=ch) for k, a, d, ch in lines
        ]
        s.add(payment)
        s.flush()
        audit(
            s,
            actor,
            "payment",
            "impoundment",
            imp.id,
            after=jsonable(
                {
                    "payment": payment.id,
                    "method": inp.method,
                    "receipt_number": payment.receipt_number,
                    "payer_id": payment.payer_id,
                    "paid_at": payment.paid_at,
                    "lines": [
                        {"kind": k, "amount": a, "description": d} | ({"charge": ch} if ch else {})
                        for k, a, d, ch in lines
                    ],
                }
            ),
        )
        remember_save(s, client_key, "payment", payment.id, actor)
        s.refresh(imp)
        return record_fees(s, imp, current_disposition(s, imp.id), at, profile)
