"""Recording a payment: line items (what each amount was for), method and receipt number."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.impound_views import (
    PAYMENT_KINDS,
    PAYMENT_METHODS,
    FeeSummary,
    ImpoundView,
)
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from ui.common.fields import FieldGroups, GridFields, error_label
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit, PersonField
from ui.common.style import POUND_STYLE
from ui.common.text import money
from ui.context import AppContext
from ui.impounds.fees import totals_text


class _LineRow:
    """One line item's inputs."""

    def __init__(self, kind: str, amount: str, description: str, charge: str = "") -> None:
        self.charge = charge  # a module's charge code the line pays (FeeLine.charge)
        self.kind = combo(PAYMENT_KINDS)
        self.kind.setCurrentIndex(max(self.kind.findData(kind), 0))
        self.description = QLineEdit(description)
        self.description.setPlaceholderText("What for (required for Other)")
        self.amount = QLineEdit(amount)
        self.amount.setPlaceholderText("0.00")
        self.amount.setMaximumWidth(110)
        self.remove = QPushButton("Remove")
        self.remove.setAutoDefault(False)
        self.error = error_label()

    def widgets(self) -> tuple[QWidget, ...]:
        return (self.kind, self.description, self.amount, self.remove, self.error)

    def value(self) -> LineInput:
        return LineInput(
            self.kind.currentData(),
            self.amount.text().strip(),
            self.description.text(),
            self.charge,
        )


class LineItemsWidget(QWidget):
    """The payment's lines, each with its own error label ("lines.0.amount")."""

    changed = Signal()

    def __init__(self, fields: GridFields, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fields = fields
        self._rows: list[_LineRow] = []
        self.grid = QGridLayout()
        self.grid.setColumnStretch(1, 1)
        for column, title in enumerate(("Paid for", "Description", "Amount")):
            heading = QLabel(title)
            heading.setObjectName("FieldHint")
            self.grid.addWidget(heading, 0, column)
        self.add_button = QPushButton("&Add a line")
        self.add_button.setAutoDefault(False)
        self.total = QLabel()
        self.total.setObjectName("MoneyTotal")
        self.error = error_label()
        bottom = QHBoxLayout()
        bottom.addWidget(self.add_button)
        bottom.addStretch(1)
        bottom.addWidget(self.total)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.grid)
        layout.addWidget(self.error)
        layout.addLayout(bottom)
        fields.add("lines", self.add_button, self.error)
        self.add_button.clicked.connect(self._on_add_button_clicked)

    def add_line(
        self, kind: str = "impound", amount: str = "", description: str = "", charge: str = ""
    ) -> _LineRow:
        row = _LineRow(kind, amount, description, charge)
        row.amount.textChanged.connect(self._on_amount_text_changed)
        row.remove.clicked.connect(lambda: self.remove_line(self._rows.index(row)))
        self._rows.append(row)
        self._relay()
        return row

    def remove_line(self, index: int) -> None:
        row = self._rows.pop(index)
        for widget in row.widgets():
            self.grid.removeWidget(widget)
            widget.deleteLater()
        self._relay()

    def row(self, index: int) -> _LineRow:
        return self._rows[index]

    def count(self) -> int:
        return len(self._rows)

    def lines(self) -> tuple[LineInput, ...]:
        return tuple(r.value() for r in self._rows)

    def total_amount(self) -> Decimal | None:
        try:
            return sum(
                (Decimal(r.amount.text().strip().lstrip("$") or "0") for r in self._rows),
                Decimal("0.00"),
            )
        except InvalidOperation:
            return None

    def _relay(self) -> None:
        """Place the rows again and name their fields by their new positions."""
        self._fields.remove_prefix("lines.")
        for row in self._rows:  # a widget is taken out before it is placed again
            for widget in row.widgets():
                self.grid.removeWidget(widget)
        for i, row in enumerate(self._rows):
            base = 1 + 2 * i
            self.grid.addWidget(row.kind, base, 0)
            self.grid.addWidget(row.description, base, 1)
            self.grid.addWidget(row.amount, base, 2)
            self.grid.addWidget(row.remove, base, 3)
            self.grid.addWidget(row.error, base + 1, 0, 1, 4)
            for name in ("kind", "description", "amount"):
                self._fields.add(f"lines.{i}.{name}", getattr(row, name), row.error)
        self._on_amount_text_changed()

    def _on_add_button_clicked(self) -> None:
        self.add_line().amount.setFocus()

    def _on_amount_text_changed(self, _text: str = "") -> None:
        total = self.total_amount()
        self.total.setText(
            f"Total {money(total)}" if total is not None else "Total: check the amounts"
        )
        self.changed.emit()


class PaymentDialog(RecordDialog):
    """Record what was paid; the lines start as the fees still due.

    The fees are those of one release (``fees.to_owner``): the owner's, or a
    new owner's with the adoption fee. Who pays follows them: ``payer`` when
    the caller knows who takes the animal (the release wizard), else the
    owner for the owner's fees, and nobody chosen yet for someone else's.
    """

    close_on_save = True

    def __init__(
        self,
        ctx: AppContext,
        view: ImpoundView,
        fees: FeeSummary | None,
        parent: QWidget | None = None,
        *,
        payer: tuple[int, str] | None = None,
    ) -> None:
        super().__init__(ctx, f"Record a payment — impoundment #{view.id}", parent)
        self.setObjectName("PaymentDialog")
        self.setStyleSheet(POUND_STYLE)
        self.resize(760, 520)
        self._view = view
        due = QLabel(totals_text(fees) if fees else "")
        due.setObjectName("MoneyTotal")
        form = form_layout()
        self.form_fields = FormFields(form)
        add = self.form_fields.add
        self.grid_fields = GridFields()
        self.line_items = LineItemsWidget(self.grid_fields)
        self.method = add("method", "&Method:", combo(PAYMENT_METHODS))
        self.receipt_number = add("receipt_number", "&Receipt number:", QLineEdit())
        self.receipt_number.setMaximumWidth(200)
        self.payer = PersonField(ctx, "Not recorded")
        add("payer_id", "Paid &by:", self.payer, focus=self.payer.choose_button)
        self.paid_at = LocalDateTimeEdit(ctx.timezone)
        self.paid_at.set_value(ctx.now())
        add("paid_at", "Paid a&t:", self.paid_at)
        lines_heading = QLabel("Line items")
        lines_heading.setObjectName("SectionHeading")
        self.body.addWidget(QLabel(f"#{view.id} {view.animal.summary}"))
        self.body.addWidget(due)
        self.body.addWidget(lines_heading)
        self.body.addWidget(self.line_items)
        self.body.addLayout(form)
        self.body.addStretch(1)
        self.fields = FieldGroups(self.grid_fields, self.form_fields)
        for_owner = fees is None or fees.to_owner
        if payer is not None:
            self.payer.set_person(*payer)
        elif for_owner and view.owner is not None:
            self.payer.set_person(view.owner.id, view.owner.full_name)
        self._prefill(fees)

    def _prefill(self, fees: FeeSummary | None) -> None:
        charged = [x for x in fees.lines if x.charge] if fees is not None else []
        own_paid = (fees.paid - sum(x.paid for x in charged)) if fees is not None else 0
        if fees is not None and own_paid == 0:
            for line in fees.lines:
                if line.amount > 0 and not line.charge:
                    self.line_items.add_line(line.kind, f"{line.amount:.2f}", line.label)
        elif fees is not None:
            own_total = fees.total - sum(x.amount for x in charged)
            if own_total > own_paid:
                balance = own_total - own_paid
                self.line_items.add_line("boarding", f"{balance:.2f}", "Balance of fees due")
        for x in charged:  # another module's charges, each paid by its own line
            if x.amount > x.paid:
                self.line_items.add_line(x.kind, f"{x.amount - x.paid:.2f}", x.label, x.charge)
        if not self.line_items.count():
            self.line_items.add_line()

    def initial_focus(self) -> QWidget | None:
        """The first line item: what was paid for comes first on the form."""
        return self.line_items.row(0).kind if self.line_items.count() else None

    def read_input(self) -> PaymentInput:
        return PaymentInput(
            lines=self.line_items.lines(),
            method=self.method.currentData(),
            receipt_number=self.receipt_number.text(),
            payer_id=self.payer.person_id(),
            paid_at=self.paid_at.value(),
        )

    def save(self) -> None:
        self.save_with(
            record_payment,
            self.ctx.db,
            self.ctx.actor,
            self._view.id,
            self.read_input(),
            self.ctx.profile,
            client_key=self.client_key,
        )

    def _on_record_saved(self, _fees: FeeSummary) -> None:
        self.ctx.bus.changed.emit("impoundment", self._view.id)
