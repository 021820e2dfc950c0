"""The register's lines (city code 58-528): frozen data, no database.

The provider (``fieldops.services.registers``) builds them from a few
statements; the register document (``fieldops.reports.register``) prints
them; ``RegisterRow.from_view`` gives the line a record view prints.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from fieldops.services.impound_views import (
    DISPOSITIONS,
    PAYMENT_KINDS,
    AnimalDescription,
    ImpoundView,
    PartyView,
)

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class RegisterDisposition:
    """The disposition in force, as the register prints it."""

    kind: str
    at: datetime  # the date of delivery, for a release
    recipient: PartyView | None  # the person it went to, for a release
    transfer_to: str

    @property
    def label(self) -> str:
        return DISPOSITIONS.get(self.kind, self.kind)


@dataclass(frozen=True)
class RegisterRow:
    """One line of the 58-528 register: only what the register prints.

    ``animal`` is the description the record view gives (``describe_animal``,
    age on the custody day); ``fees_paid`` is every fee paid, summed by
    payment kind in the order of ``PAYMENT_KINDS``, kinds with nothing paid left out.
    """

    id: int
    impounded_at: datetime
    animal: AnimalDescription
    disposition: RegisterDisposition | None
    fees_paid: tuple[tuple[str, Decimal], ...] = ()

    def __post_init__(self) -> None:
        if self.impounded_at.tzinfo is None:
            raise ValueError(f"impoundment {self.id}: impounded_at must be timezone-aware")

    @property
    def fees_paid_total(self) -> Decimal:
        return sum((amount for _, amount in self.fees_paid), ZERO)

    @classmethod
    def from_view(cls, view: ImpoundView) -> RegisterRow:
        """The register's line for an impoundment's record view (what the register
        printed when it was built from the views, one impoundment at a time)."""
        d = view.disposition
        paid: dict[str, Decimal] = defaultdict(lambda: ZERO)
        for payment in view.payments:
            for line in payment.lines:
                paid[line.kind] += line.amount
        return cls(
            id=view.id,
            impounded_at=view.impounded_at,
            animal=view.animal,
            disposition=None
            if d is None
            else RegisterDisposition(d.kind, d.at, d.recipient, d.transfer_to),
            fees_paid=by_kind(paid),
        )


_KIND_ORDER = {kind: n for n, kind in enumerate(PAYMENT_KINDS)}


def by_kind(paid: dict[str, Decimal]) -> tuple[tuple[str, Decimal], ...]:
    """Amounts paid by kind, in the order of ``PAYMENT_KINDS`` (any other code after)."""
    if len(paid) < 2:
        return tuple(paid.items())
    last = len(_KIND_ORDER)
    return tuple(sorted(paid.items(), key=lambda item: (_KIND_ORDER.get(item[0], last), item[0])))


def fees_paid_by_kind(rows: Iterable[RegisterRow]) -> tuple[tuple[str, Decimal], ...]:
    """Every fee paid on these lines, totalled by kind (58-528 keeps every fee paid)."""
    tally = RegisterTally()
    for row in rows:
        tally.add(row)
    return tally.fees_by_kind()


@dataclass
class RegisterTally:
    """What the register's closing lines print, added up one line at a time as the
    lines stream past: how many, every fee paid (in all and by kind), and how many
    of each disposition ("" for an animal still in custody)."""

    count: int = 0
    total: Decimal = ZERO
    dispositions: Counter[str] = field(default_factory=Counter)
    fees: dict[str, Decimal] = field(default_factory=dict)

    def add(self, row: RegisterRow) -> None:
        self.count += 1
        self.total += row.fees_paid_total
        self.dispositions[row.disposition.kind if row.disposition else ""] += 1
        for kind, amount in row.fees_paid:
            self.fees[kind] = self.fees.get(kind, ZERO) + amount

    def fees_by_kind(self) -> tuple[tuple[str, Decimal], ...]:
        return by_kind(self.fees)
