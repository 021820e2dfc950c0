"""Small widgets every area uses: the search box, optional dates, banners, list views."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QTableView,
    QWidget,
)

from ui.common.table_models import ListTableModel, PagedTableModel

SEARCH_DELAY_MS = 250  # typing pause before a search runs: one query per word, not per key
# One character matches most of a big register (measured: "s" finds all of a
# million people and takes seconds to order); it is never what someone wants.
SEARCH_MIN_CHARS = 2


class SearchField(QLineEdit):
    """A search box that waits for a pause in typing; Enter searches at once.

    Down moves to the results (``down_pressed``), so a search and a pick
    need no mouse. A single character is not searched (``too_short``).
    """

    search_requested = Signal(str)
    too_short = Signal()
    down_pressed = Signal()

    def __init__(self, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(placeholder)
        self.setClearButtonEnabled(True)
        self.setObjectName("SearchField")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.textEdited.connect(self._on_text_edited)
        self.returnPressed.connect(self._on_timer_timeout)

    def _on_text_edited(self, _text: str) -> None:
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        self._timer.stop()
        text = self.text().strip()
        if 0 < len(text) < SEARCH_MIN_CHARS:
            self.too_short.emit()
        else:
            self.search_requested.emit(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self.down_pressed.emit()
            return
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            self._on_timer_timeout()
            return
        super().keyPressEvent(event)


class OptionalDateEdit(QWidget):
    """A date that may honestly be unknown: an explicit "Unknown" box, never a silent today."""

    def __init__(self, unknown_text: str = "&Unknown", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.date_edit = QDateEdit()
        self.date_edit.setCalendarPopup(True)
        self.date_edit.setDisplayFormat("ddd d MMM yyyy")  # as every date reads
        self.date_edit.setMinimumDate(QDate(1900, 1, 1))
        self.unknown = QCheckBox(unknown_text)
        layout.addWidget(self.date_edit)
        layout.addWidget(self.unknown)
        layout.addStretch(1)
        self.setFocusProxy(self.date_edit)
        self.unknown.toggled.connect(self._on_unknown_toggled)
        self.set_value(None)

    def _on_unknown_toggled(self, unknown: bool) -> None:
        self.date_edit.setEnabled(not unknown)

    def set_value(self, value: date | None) -> None:
        self.unknown.setChecked(value is None)
        self._on_unknown_toggled(value is None)
        if value is not None:
            self.date_edit.setDate(QDate(value.year, value.month, value.day))

    def set_default_date(self, value: date) -> None:
        """The date offered when the user unticks "Unknown" (does not change the value)."""
        if self.unknown.isChecked():
            self.date_edit.setDate(QDate(value.year, value.month, value.day))

    def value(self) -> date | None:
        if self.unknown.isChecked():
            return None
        return date_of(self.date_edit.date())


def date_of(value: QDate) -> date:
    """``QDate.toPython()`` as a ``date`` (PySide6 declares it ``object``)."""
    day = value.toPython()
    if not isinstance(day, date):
        raise TypeError(f"QDate.toPython() gave {day!r}, not a date")
    return day


def set_date(edit: QDateEdit, value: date) -> None:
    edit.setDate(QDate(value.year, value.month, value.day))


class Banner(QLabel):
    """A message across the top of a form: an error (red) or a note (green)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Banner")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Never squeezed below its text when a form grows error labels. Margins
        # in code, not QSS padding: a word-wrapped label's height ignores padding.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setContentsMargins(10, 8, 10, 8)
        self.hide()

    def show_error(self, text: str) -> None:
        self._show(text, "error")

    def show_note(self, text: str) -> None:
        self._show(text, "note")

    def _show(self, text: str, kind: str) -> None:
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)
        self.setText(text)
        self.show()

    def clear_message(self) -> None:
        self.setText("")
        self.hide()


class RecordTableView(QTableView):
    """A read-only, row-selecting table; Enter or double-click opens the row."""

    opened = Signal(int)  # the row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)  # Tab leaves the table, as in every other field
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(26)
        self.horizontalHeader().setHighlightSections(False)
        self.horizontalHeader().setStretchLastSection(True)
        self._stretch: tuple[int, int] | None = None  # (column, preferred width)
        self.activated.connect(self._on_self_activated)

    # Narrower than Qt's: the view reads its model's columns, so it takes only ours.
    def setModel(self, model: PagedTableModel | ListTableModel) -> None:  # type: ignore[override]
        super().setModel(model)
        self._place = (-1, 0)
        if isinstance(model, PagedTableModel):
            model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
            model.modelReset.connect(self._on_model_reset)
        header = self.horizontalHeader()
        self.ensurePolished()  # the style sheet's font, not the default, measures ``fits``
        for i, column in enumerate(model.columns()):
            width = column.width
            if column.fits:  # the text, the cell's margins and a little air
                font = QFont(self.font())
                font.setBold(column.fits_bold)
                advance = QFontMetrics(font).horizontalAdvance(column.fits)
                width = max(width, advance + column.fit_margin)
            if width:
                header.resizeSection(i, width)
            else:
                header.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive)
            if column.stretch:
                self.stretch_column(i)

    def _on_model_about_to_be_reset(self) -> None:
        self._place = (self.current_row(), self.verticalScrollBar().value())

    def _on_model_reset(self) -> None:
        # A refresh after a save keeps the user's place; a new search starts at the top.
        row, scroll = self._place
        model = self.model()
        assert isinstance(model, PagedTableModel)  # setModel connects only a paged model's reset
        if not model.is_refresh():
            self.scrollToTop()
        elif 0 <= row < model.rowCount():
            self.selectRow(row)
            self.verticalScrollBar().setValue(scroll)

    def _on_self_activated(self, index: QModelIndex) -> None:
        self.opened.emit(index.row())

    def current_row(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1

    def stretch_column(self, column: int) -> None:
        """``column``, not the last, takes the spare width; it never narrows below its
        preferred width (the view scrolls instead), so its text is not squeezed away."""
        self._stretch = (column, self.horizontalHeader().sectionSize(column))
        self.horizontalHeader().setStretchLastSection(False)
        self._fit_stretch_column()

    def wrap_rows(self, column: int) -> None:
        """Rows as tall as their text, ``column`` taking the spare width: for short
        lists of sentences (a record's history), which must read whole."""
        self.setWordWrap(True)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.stretch_column(column)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_stretch_column()

    def _fit_stretch_column(self) -> None:
        if self._stretch is None or self.model() is None:
            return
        column, preferred = self._stretch
        header = self.horizontalHeader()
        others = sum(
            header.sectionSize(i)
            for i in range(header.count())
            if i != column and not header.isSectionHidden(i)
        )
        header.resizeSection(column, max(preferred, self.viewport().width() - others))

    def focus_first_row(self) -> None:
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        if self.model() is not None and self.model().rowCount() and self.current_row() < 0:
            self.selectRow(0)
