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
