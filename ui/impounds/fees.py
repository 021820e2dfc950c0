"""The fees tab: what is owed so far, what has been paid, and recording a payment."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.impound_views import FeeSummary, ImpoundView
from fieldops.services.payments import quote
from ui.common.table_models import ListTableModel
from ui.common.text import money, when
from ui.common.widgets import RecordTableView
from ui.context import AppContext
from ui.impounds.columns import FEE_COLUMNS, payment_columns


def totals_text(fees: FeeSummary) -> str:
    return (
        f"Total {money(fees.total)}   ·   Paid {money(fees.paid)}   ·   "
        f"Balance due {money(fees.balance)}"
    )


class FeesWidget(QWidget):
    """Fees so far (for the owner or, after the hold, for someone else) and payments."""

    record_payment_requested = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._view: ImpoundView | None = None
        self._generation = 0
        self.fees: FeeSummary | None = None
        heading = QLabel("Fees so far")
        heading.setObjectName("SectionHeading")
        self.for_owner = QRadioButton("If the o&wner reclaims")
        self.for_other = QRadioButton("If someone &else takes the animal")
        self.for_owner.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.for_owner)
        group.addButton(self.for_other)
        self.as_of = QLabel()
        self.as_of.setObjectName("FieldHint")
        who = QHBoxLayout()
        who.addWidget(self.for_owner)
        who.addWidget(self.for_other)
        who.addStretch(1)
        who.addWidget(self.as_of)
        self.fee_model = ListTableModel(FEE_COLUMNS, parent=self)
        self.fee_view = RecordTableView()
        self.fee_view.setModel(self.fee_model)
        self.fee_view.setMaximumHeight(130)
        self.totals = QLabel()
        self.totals.setObjectName("MoneyTotal")
        self.schedule = QLabel()
        self.schedule.setObjectName("FieldHint")
        self.schedule.setWordWrap(True)
        self.repeat_note = QLabel()
        self.repeat_note.setObjectName("RepeatWarning")
        self.repeat_note.setWordWrap(True)
        self.repeat_note.hide()
        payments_heading = QLabel("Payments")
        payments_heading.setObjectName("SectionHeading")
        self.payment_model = ListTableModel(payment_columns(ctx), parent=self)
        self.payment_view = RecordTableView()
        self.payment_view.setModel(self.payment_model)
        self.record_button = QPushButton("Record &payment…")
        self.record_button.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.record_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(who)
        layout.addWidget(self.fee_view)
        layout.addWidget(self.totals)
        layout.addWidget(self.repeat_note)
        layout.addWidget(self.schedule)
        layout.addSpacing(8)
        layout.addWidget(payments_heading)
        layout.addWidget(self.payment_view, 1)
        layout.addLayout(buttons)
        self.for_owner.toggled.connect(self._on_for_owner_toggled)
        self.record_button.clicked.connect(self.record_payment_requested)

    def show_view(self, v: ImpoundView) -> None:
        self._view = v
        self.payment_model.set_rows(v.payments)
        self.record_button.setEnabled(True)  # a late payment is still recorded
        custody = v.in_custody
        self.for_owner.setEnabled(custody)
        self.for_other.setEnabled(custody)
        if not custody:
            # The record's fees: an adoption's, else what the owner owes.
            with_owner = v.fees.to_owner if v.fees is not None else True
            self.for_owner.setChecked(with_owner)
            self.for_other.setChecked(not with_owner)
        if custody and self.for_other.isChecked():
            self._ask_quote(False)
        else:
            self._show_fees(v.fees)

    def _ask_quote(self, to_owner: bool) -> None:
        if self._view is None:
            return
        self._generation += 1
        self.ctx.tasks.run(
            quote,
            self.ctx.db,
            self._view.id,
            self.ctx.now(),
            to_owner,
            self.ctx.profile,
            owner=self,
            on_done=partial(self._on_quote_done, self._generation),
        )

    def _on_quote_done(self, generation: int, fees: FeeSummary) -> None:
        if generation == self._generation:
            self._show_fees(fees)

    def _show_fees(self, fees: FeeSummary | None) -> None:
        self.fees = fees
        if fees is None:
            self.fee_model.set_rows(())
            self.totals.setText("")
            return
        self.fee_model.set_rows(fees.lines)
        self.totals.setText(totals_text(fees))
        released = self._view is not None and not self._view.in_custody
        self.as_of.setText(
            ("At the disposition, " if released else "As of ") + when(self.ctx, fees.as_of)
        )
        self.schedule.setText(f"Fees set by {fees.schedule}.")
        self.repeat_note.setVisible(bool(fees.repeat_note))
        self.repeat_note.setText(fees.repeat_note)

    def _on_for_owner_toggled(self, owner: bool) -> None:
        if self._view is not None and self._view.in_custody:
            self.show_quote_for(owner)

    def show_quote_for(self, owner: bool) -> None:
        """The fees for the owner (already in the view) or for someone else (asked for)."""
        if self._view is None:  # no record shown yet: nothing to quote (as in _ask_quote)
            return
        if owner:
            self._generation += 1
            self._show_fees(self._view.fees)
        else:
            self._ask_quote(False)
