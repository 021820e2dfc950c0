"""The quarantine's payments: what is owed (exams, boarding at the pound), what has been
paid, by whom and when. Payments are taken at the pound's counter, on the impoundment."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from fieldops.services.impound_views import PAYMENT_METHODS
from fieldops.services.quarantine import Fees
from ui.common.table_models import Column, ListTableModel
from ui.common.text import money, when
from ui.common.widgets import RecordTableView
from ui.context import AppContext


def charge_columns() -> tuple[Column, ...]:
    return (
        Column("Owed for", lambda c: c.label, 380),
        Column("Amount", lambda c: money(c.amount), 90),
        Column("Paid", lambda c: money(c.paid) if c.at_pound else "", 90),
        Column("Balance", lambda c: money(c.balance) if c.at_pound else "", 90),
        Column(
            "Where paid",
            lambda c: "At the pound, before release" if c.at_pound else c.why,
            260,
        ),
        Column("How it was counted", lambda c: c.why if c.at_pound else "", 420),
    )


def payment_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        Column("Paid at", lambda p: when(ctx, p.paid_at), 190),
        Column("Amount", lambda p: money(p.amount), 90),
        Column("Paid by", lambda p: p.payer, 180),
        Column("Method", lambda p: PAYMENT_METHODS.get(p.method, p.method), 80),
        Column("Receipt", lambda p: p.receipt_number, 100),
        Column("Taken by", lambda p: p.recorded_by, 110),
        Column("On", lambda p: f"impoundment #{p.impoundment_id}", 140),
    )


def totals_text(fees: Fees) -> str:
    owed = fees.owed_at_pound
    if not owed and not fees.charges:
        return "Nothing owed: no exam fee or boarding recorded."
    if not owed:
        return "Nothing is paid at the pound: exam fees are paid to the clinic."
    return (
        f"Owed at the pound {money(owed)}   ·   Paid {money(fees.paid)}   ·   "
        f"Balance due {money(fees.balance)} (paid at the pound's counter before release)"
    )


class PaymentsWidget(QWidget):
    """Two tables: the charges, and the payment lines that paid them."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.totals = QLabel()
        self.totals.setObjectName("MoneyTotal")
        self.totals.setWordWrap(True)
        self.charges = ListTableModel(charge_columns(), parent=self)
        self.payments = ListTableModel(payment_columns(ctx), parent=self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.totals)
        for title, model in (("What is owed", self.charges), ("Payments", self.payments)):
            heading = QLabel(title)
            heading.setObjectName("SectionHeading")
            table = RecordTableView()
            table.setModel(model)
            layout.addWidget(heading)
            layout.addWidget(table, 1)

    def set_fees(self, fees: Fees | None) -> None:
        fees = fees or Fees((), ())
        self.totals.setText(totals_text(fees))
        self.charges.set_rows(fees.charges)
        self.payments.set_rows(fees.payments)
