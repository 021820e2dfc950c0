"""What a bite quarantine costs the owner, and what has been paid (city code 58-527(c), (e)).

Exams and boarding are the owner's. A clinic quarantine at the pound (a clinic
registered with ``is_pound``) is paid at the pound before release, through the
pound's payment lines: ``release_charges`` gives the pound its lines (each exam's
fee, the boarding from the rules' ``quarantine_boarding``), every one with a
stable code that the payment line paying it names (``payment_line.charge``).
An exam at another clinic is paid to that clinic and is listed for information.

Charges reach a release to the owner only: 58-527(e) puts them on "the owner, if
located", so someone adopting the animal does not pay them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    Animal,
    Clinic,
    Impoundment,
    Payment,
    PaymentLine,
    Person,
    Quarantine,
)
from fieldops.modules import ChargeLine, ReleaseCase
from fieldops.rules import Profile, format_day
from fieldops.rules.quarantine import quarantine_boarding
from fieldops.services.context import fetch, now
from fieldops.services.fee_schedules import profile_in_force
from fieldops.services.impound_rows import current_disposition
from fieldops.services.quarantine.fixes import corrected, corrected_fee
from fieldops.services.quarantine.plan import state_of
from fieldops.services.quarantine.views import CaseRows, case_rows

KEY = "quarantine"
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class PaymentView:
    """One payment line against a quarantine's charge: how much, when, by whom."""

    charge: str
    amount: Decimal
    paid_at: datetime
    payer: str
    method: str
    receipt_number: str
    recorded_by: str
    impoundment_id: int


@dataclass(frozen=True)
class ChargeView:
    """One amount owed: ``at_pound`` ones are paid at the pound before release."""

    code: str
    label: str
    amount: Decimal
    paid: Decimal
    kind: str
    at_pound: bool
    why: str = ""

    @property
    def balance(self) -> Decimal:
        return max(self.amount - self.paid, ZERO)


@dataclass(frozen=True)
class Fees:
    charges: tuple[ChargeView, ...]
    payments: tuple[PaymentView, ...]

    @property
    def owed_at_pound(self) -> Decimal:
        return sum((c.amount for c in self.charges if c.at_pound), ZERO)

    @property
    def paid(self) -> Decimal:
        return sum((c.paid for c in self.charges if c.at_pound), ZERO)

    @property
    def balance(self) -> Decimal:
        return sum((c.balance for c in self.charges if c.at_pound), ZERO)


def _pound_ids(s: Session) -> set[int]:
    return set(s.scalars(select(Clinic.id).where(Clinic.is_pound.is_(True))))


def _charged_under(prefix: str) -> ColumnElement[bool]:
    """Payment lines whose charge code starts with ``prefix`` (which ends in ":"), as a
    range on the code's index (0024): a LIKE read every payment line (120 ms at 100,000
    impoundments, measured), SQLite's being case-blind and so never on an index."""
    return and_(PaymentLine.charge >= prefix, PaymentLine.charge < prefix[:-1] + ";")


def _paid_by_code(s: Session, prefix: str) -> dict[str, Decimal]:
    out: dict[str, Decimal] = {}
    for code, amount in s.execute(
        select(PaymentLine.charge, PaymentLine.amount).where(_charged_under(prefix))
    ):
        out[code] = out.get(code, ZERO) + amount
    return out


def _custody(s: Session, animal_id: int | None) -> list[tuple[datetime, datetime | None]]:
    """The animal's impoundments: custody start and end (None while still held)."""
    if animal_id is None:
        return []
    out: list[tuple[datetime, datetime | None]] = []
    for imp in s.scalars(select(Impoundment).where(Impoundment.animal_id == animal_id)):
        disp = current_disposition(s, imp.id)
        out.append((imp.impounded_at, disp.at if disp else None))
    return out


def code_of(prefix: str, exam_id: int) -> str:
    return f"{prefix}exam:{exam_id}"


def charges_of(
    s: Session,
    q: Quarantine,
    at: datetime,
    profile: Profile,
    case: CaseRows | None = None,
    paid: dict[str, Decimal] | None = None,
) -> tuple[ChargeView, ...]:
    """Every charge of one quarantine as of ``at``: its exams' fees, and boarding at the pound.

    ``case``: its bite case's rows, and ``paid``: what was paid by charge code, when the
    caller has read them already (a record's view)."""
    case = case or case_rows(s, q)
    bite, fixes = case.bite, case.fixes
    st = state_of(bite, q, case.events, case.exams, profile, fixes)
    pounds = _pound_ids(s)
    at_pound = st.plan.placement == "clinic" and st.clinic_id in pounds
    prefix = f"{KEY}:{q.id}:"
    paid = _paid_by_code(s, prefix) if paid is None else paid
    out: list[ChargeView] = []
    for x in case.exams:
        fee = corrected_fee(fixes, x.id, x.fee)
        if fee <= 0 and code_of(prefix, x.id) not in paid:
            continue
        here = x.clinic_id in pounds or (x.clinic_id is None and at_pound)
        code = code_of(prefix, x.id)
        vet = corrected(fixes, "exam", x.id, "veterinarian", x.veterinarian)
        out.append(
            ChargeView(
                code,
                f"Quarantine #{q.id}: examination on {format_day(st.exam_days[x.id])} ({vet})",
                fee,
                paid.get(code, ZERO),
                "other",
                here,
                "" if here else "Paid to the clinic that examined the animal.",
            )
        )
    if at_pound and st.delivered_at is not None:
        until = st.closed_at or at
        species = bite.species
        if bite.animal_id is not None:
            species = fetch(s, Animal, bite.animal_id).species
        in_force, _label = profile_in_force(s, profile, st.plan.first_exam_day)
        board = quarantine_boarding(
            st.delivered_at, until, species, in_force, _custody(s, bite.animal_id)
        )
        code = f"{prefix}boarding"
        if board.amount > 0 or code in paid:
            out.append(
                ChargeView(
                    code,
                    f"Quarantine #{q.id}: boarding, {board.days} day(s) at ${board.per_day:,.2f}",
                    board.amount,
                    paid.get(code, ZERO),
                    "boarding",
                    True,
                    board.why,
                )
            )
    return tuple(out)


def release_charges(s: Session, animal_id: int, release: ReleaseCase) -> tuple[ChargeLine, ...]:
    """The animal's quarantines' charges at the pound, for the pound's release to the owner."""
    if not release.to_owner or release.profile is None:
        return ()
    out: list[ChargeLine] = []
    for q in s.scalars(
        select(Quarantine).where(Quarantine.animal_id == animal_id).order_by(Quarantine.id)
    ):
        for c in charges_of(s, q, release.at, release.profile):
            if c.at_pound:
                out.append(ChargeLine(c.code, c.label, c.amount, c.kind, c.paid))
    return tuple(out)


def quarantine_fees(
    db: Database, quarantine_id: int, profile: Profile, at: datetime | None = None
) -> Fees:
    """The quarantine's payments section: what is owed, what is paid, by whom and when."""
    with db.read() as s:
        return fees_in(s, fetch(s, Quarantine, quarantine_id), profile, at or now())


def fees_in(
    s: Session, q: Quarantine, profile: Profile, at: datetime, case: CaseRows | None = None
) -> Fees:
    rows = s.execute(
        select(PaymentLine, Payment, Person.full_name)
        .join(Payment, Payment.id == PaymentLine.payment_id)
        .outerjoin(Person, Person.id == Payment.payer_id)
        .where(_charged_under(f"{KEY}:{q.id}:"))
        .order_by(Payment.paid_at, PaymentLine.id)
    ).all()
    payments = tuple(
        PaymentView(
            line.charge,
            line.amount,
            pay.paid_at,
            payer or "not recorded",
            pay.method,
            pay.receipt_number,
            pay.recorded_by,
            pay.impoundment_id,
        )
        for line, pay, payer in rows
    )
    paid: dict[str, Decimal] = {}  # the same lines _paid_by_code reads, summed by code
    for line, _pay, _payer in rows:
        paid[line.charge] = paid.get(line.charge, ZERO) + line.amount
    return Fees(charges_of(s, q, at, profile, case, paid), payments)
