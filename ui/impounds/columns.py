"""How impoundments, payments and their history show in lists."""

from __future__ import annotations

from fieldops.services.impound_views import PAYMENT_METHODS, FeeLine, PaymentView
from ui.context import AppContext
from ui.impounds.text import day, money, species, when
from ui.people.columns import history_columns as _history_columns
from ui.table_models import Column

IMPOUND_HISTORY_ACTIONS = {
    "intake": "Impounded",
    "payment": "Payment recorded",
    "reclaimed": "Reclaimed by owner",
    "adopted": "Adopted",
    "transferred": "Transferred",
    "euthanized": "Euthanized",
    "died": "Died",
    "escaped": "Escaped",
    "override": "Supervisor override",
    "correct_disposition": "Disposition corrected",
    "update": "Changed",
}


def impound_columns(ctx: AppContext) -> tuple[Column, ...]:
    """The impounds list; ``SORT_KEYS`` says which of these sort in SQL."""
    return (
        Column("#", lambda r: str(r.id), 40),
        Column("Status", lambda r: r.status, 96),
        Column("Animal", lambda r: r.animal, 176),
        Column("Species", lambda r: species(r.species), 74),
        Column("Impounded", lambda r: when(ctx, r.impounded_at), 230),
        Column("Days held", lambda r: str(r.days_held), 86),
        Column("Hold ends", lambda r: day(r.last_claim_day), 126),
        Column("Owner", lambda r: r.owner or "(unknown)", 124),
        Column("Kennel", lambda r: r.kennel),
    )


# Column -> (ImpoundFilter.sort key, whether ascending on screen means descending in SQL).
# "Days held" is the impoundment time read backwards; "#" and "Status" do not sort.
SORT_KEYS: dict[int, tuple[str, bool]] = {
    2: ("animal", False),
    3: ("species", False),
    4: ("impounded_at", False),
    5: ("impounded_at", True),
    6: ("last_claim_day", False),
    7: ("owner", False),
    8: ("kennel", False),
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
    base = _history_columns(ctx)
    what = Column("What", lambda h: IMPOUND_HISTORY_ACTIONS.get(
        h.action, h.action.replace("_", " ").capitalize()), 160)
    details = Column("Details", lambda h: h.summary, 520)
    return (Column("When", lambda h: when(ctx, h.at), 235), base[1], what, details, base[4])
