"""Inputs the pound's forms share: a local date and time, choosing a person, an
approximate age, and the impounding officer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, datetime, tzinfo

from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QHBoxLayout,
    QSpinBox,
    QWidget,
)

from fieldops.services.animals import UNKNOWN_AGE, approximate_age, birth_date_for_age
from ui.common.person_picker import PersonPickerDialog
from ui.common.registry_picker import RegistryField

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
        self.setDateTime(
            QDateTime(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
        )

    def value(self) -> datetime:
        d, t = self.date(), self.time()
        return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute(), tzinfo=self._zone)


class OptionalDateTimeEdit(QWidget):
    """A local date and time that may be unknown (an explicit box, never a silent now)."""

    def __init__(
        self, zone: tzinfo, unknown_text: str = "Unknown", parent: QWidget | None = None
    ) -> None:
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
        shown = instant if instant is not None else default
        if shown is not None:
            self.edit.set_value(shown)

    def value(self) -> datetime | None:
        return None if self.unknown.isChecked() else self.edit.value()


class PersonField(RegistryField):
    """Who: a read-only name with Choose… (the person picker) and Clear."""

    picker_class = PersonPickerDialog

    def person_id(self) -> int | None:
        return self.chosen_id()

    def person_name(self) -> str:
        return self.name.text()

    def set_person(self, person_id: int | None, name: str) -> None:
        self.set_chosen(person_id, name)


class AgeSpinBox(QSpinBox):
    """An approximate age in years, written as the record will write it.

    Each value reads through ``approximate_age`` on the custody day (0 is "about
    6 months"), and the birth date it stands for comes from ``birth_date_for_age``
    on that day, so the age the officer sees is the age the record keeps. For a
    registry animal it shows that animal's age from its birth date, read-only.
    """

    def __init__(self, custody_day: Callable[[], date], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._custody_day = custody_day
        # A registry animal's birth date (None: unknown) while one is shown.
        self._registry = False
        self._registry_birth: date | None = None
        self.setRange(-1, 30)
        self.setValue(-1)

    def birth_date(self) -> date | None:
        years = self.value()
        return None if years < 0 else birth_date_for_age(years, self._custody_day())

    def show_registry(self, birth: date | None) -> None:
        self._registry, self._registry_birth = True, birth
        self.setEnabled(False)
        self.refresh()

    def show_new(self) -> None:
        self._registry, self._registry_birth = False, None
        self.setEnabled(True)
        self.refresh()

    def refresh(self) -> None:
        """Read the age again (the custody day changed)."""
        self.lineEdit().setText(self.textFromValue(self.value()))

    def textFromValue(self, value: int) -> str:
        day = self._custody_day()
        if self._registry:
            return approximate_age(self._registry_birth, day)
        return approximate_age(None if value < 0 else birth_date_for_age(value, day), day)

    def valueFromText(self, text: str) -> int:
        t = text.strip().lower()
        if "month" in t:
            return 0
        digits = re.search(r"\d+", t)
        return int(digits.group()) if digits else -1

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        # The text and the cursor stay as typed.
        return self._state(text), text, pos

    def _state(self, text: str) -> QValidator.State:
        t = text.strip().lower()
        if t in (UNKNOWN_AGE, "") or "month" in t:
            return QValidator.State.Acceptable if t else QValidator.State.Intermediate
        if UNKNOWN_AGE.startswith(t) or "about".startswith(t):
            return QValidator.State.Intermediate
        m = re.fullmatch(r"(about\s*)?(\d{1,2})(\s*y[a-z]*)?", t)
        if m and int(m.group(2)) <= self.maximum():
            return QValidator.State.Acceptable
        return QValidator.State.Invalid


class OfficerComboBox(QComboBox):
    """The impounding officer: chosen from the staff, or typed (the record keeps a name)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(30)  # "Off. Firstname Lastname" reads whole
        line = self.lineEdit()
        assert line is not None  # an editable combo box has its line edit
        line.setPlaceholderText("Impounding officer: choose or type a name")

    def text(self) -> str:
        return self.currentText()

    def set_choices(self, names: Sequence[str], last: str) -> None:
        """Offer ``names``; start from ``last`` unless something was typed already."""
        typed = self.currentText()
        self.blockSignals(True)
        self.clear()
        self.addItems(list(names))
        self.setCurrentIndex(-1)
        self.setEditText(typed or last)
        self.blockSignals(False)
