"""Choosing a registry record (a person, an animal) by searching, without a mouse: type,
Down to the rows, Enter (or Choose) picks the highlighted one. The person and animal
pickers are this dialog with their own columns, search and words for the chosen record."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.common.table_models import Column, PagedTableModel
from ui.common.widgets import RecordTableView, SearchField
from ui.context import AppContext


class RegistryPickerDialog(QDialog):
    """The search, its status ("12 found"), the lazy list and Choose / Cancel.

    ``chosen`` carries the record's id and the record in words (``words(row)``); a
    subclass adds buttons of its own to ``buttons`` before the dialog is shown."""

    chosen = Signal(int, str)

    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None,
        *,
        name: str,
        title: str,
        placeholder: str,
        columns: Sequence[Column],
        count: Callable[..., int],
        page: Callable[..., Any],
        words: Callable[[Any], str],
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._words = words
        self.setObjectName(name)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(title)
        self.resize(1000, 560)
        self.search = SearchField(placeholder)
        caption = QLabel("&Search:")
        caption.setBuddy(self.search)
        self.status = QLabel()
        self.status.setObjectName("SearchStatus")
        top = QHBoxLayout()
        top.addWidget(caption)
        top.addWidget(self.search, 1)
        top.addWidget(self.status)
        self.model = PagedTableModel(ctx.tasks, tuple(columns), count, page, parent=self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.buttons = QDialogButtonBox()
        self.choose_button = QPushButton("C&hoose")
        self.buttons.addButton(self.choose_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.buttons)
        self.search.search_requested.connect(self.model.search)
        self.search.too_short.connect(self._on_search_too_short)
        self.search.down_pressed.connect(self.view.focus_first_row)
        self.model.searching_changed.connect(self._on_model_searching_changed)
        self.model.counted.connect(self._on_model_counted)
        self.view.opened.connect(self._on_view_opened)
        self.choose_button.clicked.connect(self._on_choose_button_clicked)
        self.buttons.rejected.connect(self.reject)
        self.model.search("")

    def choose_row(self, row: int) -> bool:
        record = self.model.row_object(row)
        if record is None:
            return False
        self.chosen.emit(record.id, self._words(record))
        self.accept()
        return True

    def _on_search_too_short(self) -> None:
        self.status.setText("Type at least 2 characters")

    def _on_model_searching_changed(self, searching: bool) -> None:
        self.status.setText("Searching…" if searching else self.status.text())

    def _on_model_counted(self, count: int) -> None:
        self.status.setText(f"{count:,} found")

    def _on_view_opened(self, row: int) -> None:
        self.choose_row(row)

    def _on_choose_button_clicked(self) -> None:
        self.choose_row(self.view.current_row())


class RegistryField(QWidget):
    """Which record of a register: a read-only label with Choose… (the register's picker,
    ``picker_class``) and Clear. ``changed`` is emitted whenever the choice changes."""

    changed = Signal()
    # The register's picker dialog, made with (ctx, parent window).
    picker_class: Callable[[AppContext, QWidget | None], RegistryPickerDialog]

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
        self.set_chosen(None, "")

    def chosen_id(self) -> int | None:
        return self._id

    def set_chosen(self, record_id: int | None, label: str) -> None:
        self._id = record_id
        text = f"{label} (#{record_id})" if record_id is not None else ""
        self.name.setText(text)
        # setText leaves the cursor at the end, so a name longer than the field showed only
        # its end ("nte y Villanueva (#1)"): show its start, and the whole name on hover.
        self.name.setCursorPosition(0)
        self.name.setToolTip(text)
        self.clear_button.setEnabled(record_id is not None)
        self.changed.emit()

    def _on_choose_button_clicked(self) -> None:
        self.picker = self.picker_class(self.ctx, self.window())
        self.picker.chosen.connect(self.set_chosen)
        self.picker.open()

    def _on_clear_button_clicked(self) -> None:
        self.set_chosen(None, "")
