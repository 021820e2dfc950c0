"""Inputs the pound's forms share: a local date and time, and choosing a person."""

from __future__ import annotations

from datetime import datetime, tzinfo

from PySide6.QtCore import QDate, QDateTime, QTime, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDateTimeEdit,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ui.context import AppContext
from ui.people.picker import PersonPickerDialog

DISPLAY = "ddd d MMM yyyy  h:mm AP"


class LocalDateTimeEdit(QDateTimeEdit):
    """A date and time on the city's wall clock; ``value()`` is an aware instant."""

    def __init__(self, zone: tzinfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._zone = zone
        self.setCalendarPopup(True)
        self.setDisplayFormat(DISPLAY)

    def set_value(self, instant: datetime) -> None:
        local = instant.astimezone(self._zone)
        self.setDateTime(QDateTime(QDate(local.year, local.month, local.day),
                                   QTime(local.hour, local.minute)))

    def value(self) -> datetime:
        d, t = self.date(), self.time()
        return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute(), tzinfo=self._zone)


class OptionalDateTimeEdit(QWidget):
    """A local date and time that may be unknown (an explicit box, never a silent now)."""

    def __init__(self, zone: tzinfo, unknown_text: str = "Unknown",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.edit = LocalDateTimeEdit(zone)
        self.unknown = QCheckBox(unknown_text)
        row.addWidget(self.edit)
        row.addWidget(self.unknown)
        row.addStretch(1)
        self.setFocusProxy(self.edit)
        self.unknown.toggled.connect(self._on_unknown_toggled)
        self.unknown.setChecked(True)
        self._on_unknown_toggled(True)

    def _on_unknown_toggled(self, unknown: bool) -> None:
        self.edit.setEnabled(not unknown)

    def set_value(self, instant: datetime | None, default: datetime | None = None) -> None:
        self.unknown.setChecked(instant is None)
        if instant is not None or default is not None:
            self.edit.set_value(instant or default)

    def value(self) -> datetime | None:
        return None if self.unknown.isChecked() else self.edit.value()


class PersonField(QWidget):
    """Who: a read-only name with Choose… (the person picker) and Clear."""

    changed = Signal()

    def __init__(self, ctx: AppContext, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._id: int | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit()
        self.name.setReadOnly(True)
        self.name.setPlaceholderText(placeholder)
        self.choose_button = QPushButton("Choose…")
        self.clear_button = QPushButton("Clear")
        for b in (self.choose_button, self.clear_button):
            b.setAutoDefault(False)
        row.addWidget(self.name, 1)
        row.addWidget(self.choose_button)
        row.addWidget(self.clear_button)
        self.setFocusProxy(self.choose_button)
        self.choose_button.clicked.connect(self._on_choose_button_clicked)
        self.clear_button.clicked.connect(self._on_clear_button_clicked)
        self.set_person(None, "")

    def person_id(self) -> int | None:
        return self._id

    def person_name(self) -> str:
        return self.name.text()

    def set_person(self, person_id: int | None, name: str) -> None:
        self._id = person_id
        self.name.setText(f"{name} (#{person_id})" if person_id is not None else "")
        self.clear_button.setEnabled(person_id is not None)
        self.changed.emit()

    def _on_choose_button_clicked(self) -> None:
        self.picker = PersonPickerDialog(self.ctx, self.window())
        self.picker.chosen.connect(self.set_person)
        self.picker.open()

    def _on_clear_button_clicked(self) -> None:
        self.set_person(None, "")
