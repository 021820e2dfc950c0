"""How impoundments, payments and their history show in lists."""

from __future__ import annotations

from fieldops.services.impound_views import PAYMENT_METHODS, FeeLine, PaymentView
from ui.common.history import history_columns as _history_columns
from ui.common.table_models import Column, number_column
from ui.common.text import day, money, when
from ui.context import AppContext


def impound_columns(ctx: AppContext) -> tuple[Column, ...]:
    """The impounds list; ``SORT_KEYS`` says which of these sort in SQL.

    Widths measured in the app's 10 pt table font on the default window (1280
    px wide, about 1048 px of table): a status ("Reclaimed by owner") reads
    whole, the animal ("Cleo, Domestic longhair, black and white"), which needs
    the most, takes the spare width, and a kennel code ("ISO-1") gets only what
    it needs. There is no Species column: the breed says dog or cat, the
    Species filter above the list selects by it, and its 60 px are what the
    animal needed to read whole. The record number reads whole to six digits
    (``number_column``); the owner's name gave up the 22 px it needed.
    """
    return (
        number_column(),
        Column("Status", lambda r: r.status, 140),
        Column("Animal", lambda r: r.animal, 274, stretch=True),
        Column("Impounded", lambda r: when(ctx, r.impounded_at), 218),
        Column("Days held", lambda r: str(r.days_held), 82),
        Column("Hold ends", lambda r: day(r.last_claim_day), 126),  # "Wed 18 Nov 2026" whole
        Column("Owner", lambda r: r.owner or "(unknown)", 86),
        Column("Kennel", lambda r: r.kennel, 62),
    )


# Column -> (ImpoundFilter.sort key, whether ascending on screen means descending in SQL).
# "Days held" is the impoundment time read backwards; "#" and "Status" do not sort.
SORT_KEYS: dict[int, tuple[str, bool]] = {
    2: ("animal", False),
    3: ("impounded_at", False),
    4: ("impounded_at", True),
    5: ("last_claim_day", False),
    6: ("owner", False),
    7: ("kennel", False),
}

FEE_COLUMNS = (
    Column("Fee", lambda f: f.label, 720),
    Column("Amount", lambda f: money(f.amount)),
)


def fee_line_text(line: FeeLine) -> str:
    return f"{line.label}: {money(line.amount)}"


def payment_columns(ctx: AppContext) -> tuple[Column, ...]:
    def lines(p: PaymentView) -> str:
        return "; ".join(f"{x.label} {money(x.amount)}" for x in p.lines)

    return (
        Column("Paid", lambda p: when(ctx, p.paid_at), 235),
        Column("Receipt", lambda p: p.receipt_number, 90),
        Column("Method", lambda p: PAYMENT_METHODS.get(p.method, p.method), 70),
        Column("Paid by", lambda p: p.payer.full_name if p.payer else "", 140),
        Column("Total", lambda p: money(p.total), 80),
        Column("Lines", lines),
    )


def impound_history_columns(ctx: AppContext) -> tuple[Column, ...]:
    """The impoundment's history: the same sentences as every record's."""
    return _history_columns(ctx)
