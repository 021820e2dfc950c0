"""Inputs the permit forms share: a day, a long text, the fancier's table of animals."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import (
    QDateEdit,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fieldops.services.permits.views import AnimalLine
from ui.common.widgets import date_of, set_date


def date_edit(value: date) -> QDateEdit:
    edit = QDateEdit()
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("ddd d MMM yyyy")
    set_date(edit, value)
    return edit


def day_of(edit: QDateEdit) -> date:
    return date_of(edit.date())


def long_text(height: int = 60) -> QPlainTextEdit:
    edit = QPlainTextEdit()
    edit.setFixedHeight(height)
    return edit


class AnimalsTable(QWidget):
    """The list of animals kept: species, number and names, a row each."""

    def __init__(self, lines: tuple[AnimalLine, ...] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Species", "Number", "Names"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumHeight(120)
        self.add_button = QPushButton("Add ro&w")
        self.remove_button = QPushButton("Remove row")
        for b in (self.add_button, self.remove_button):
            b.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.setFocusProxy(self.table)
        self.add_button.clicked.connect(lambda: self.add_line(AnimalLine("", 1)))
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        for line in lines:
            self.add_line(line)
        if not lines:
            self.add_line(AnimalLine("", 1))

    def add_line(self, line: AnimalLine) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for col, text in enumerate((line.species, str(line.count), line.names)):
            self.table.setItem(row, col, QTableWidgetItem(text))

    def _on_remove_button_clicked(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)

    def lines(self) -> tuple[AnimalLine, ...]:
        """The rows typed; a blank row is left out, a number that is not one reads as -1
        (the service names the line)."""
        out = []
        for row in range(self.table.rowCount()):
            cells = [self.table.item(row, c) for c in range(3)]
            species, count, names = (c.text().strip() if c is not None else "" for c in cells)
            if not (species or names) and count in ("", "1", "0"):
                continue
            try:
                number = int(count)
            except ValueError:
                number = -1
            out.append(AnimalLine(species, number, names))
        return tuple(out)
