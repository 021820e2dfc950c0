"""The release checklist: each legal requirement, ticked or not, with its evidence.

Rows are kept by requirement code and updated in place, so a supervisor
typing an override reason keeps the cursor while the check runs again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from fieldops.rules import Requirement
from fieldops.services.dispositions import CheckedRequirement
from ui.common.text import escape_html

MET, UNMET = "✔", "✘"


class _Row:
    def __init__(self, requirement: Requirement) -> None:
        self.mark = QLabel()
        self.mark.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.override = QLineEdit()
        self.override.setPlaceholderText(
            "Supervisor's reason for overriding this block (kept in the audit trail)"
        )
        self.override.hide()
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.title)
        column.addWidget(self.note)
        column.addWidget(self.override)
        self.box = box
        self.requirement = requirement


class ChecklistWidget(QWidget):
    """Requirements of one release; ``override_edited`` when a reason is typed."""

    override_edited = Signal()

    def __init__(self, supervisor: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._supervisor = supervisor
        self._rows: dict[str, _Row] = {}
        self._checked: tuple[CheckedRequirement, ...] = ()
        self.grid = QGridLayout(self)
        self.grid.setColumnStretch(1, 1)
        # Tight rows, so an adoption's seven requirements fit the wizard's default size.
        self.grid.setVerticalSpacing(4)

    def show_checked(self, checked: tuple[CheckedRequirement, ...]) -> None:
        self._checked = checked
        codes = [c.requirement.code for c in checked]
        if codes != list(self._rows):
            self._rebuild(checked)
        for c in checked:
            self._update(self._rows[c.requirement.code], c)

    def _rebuild(self, checked: tuple[CheckedRequirement, ...]) -> None:
        for row in self._rows.values():
            for widget in (row.mark, row.box):
                self.grid.removeWidget(widget)
                widget.deleteLater()
        self._rows = {}
        for i, c in enumerate(checked):
            row = _Row(c.requirement)
            row.override.textEdited.connect(self._on_override_text_edited)
            self.grid.addWidget(row.mark, i, 0)
            self.grid.addWidget(row.box, i, 1)
            self._rows[c.requirement.code] = row

    def _update(self, row: _Row, c: CheckedRequirement) -> None:
        r = c.requirement
        row.requirement = r
        row.mark.setText(MET if c.met else UNMET)
        row.mark.setObjectName("Met" if c.met else "Unmet")
        row.mark.style().unpolish(row.mark)
        row.mark.style().polish(row.mark)
        row.title.setText(
            f"<b>{escape_html(r.label)}</b> <span style='color:#5b6773'>"
            f"({escape_html(r.section)})</span>"
        )
        if r.satisfied:
            note, name = c.evidence or "Met.", "Evidence"
        elif c.override_reason:
            note, name = f"Overridden: {c.override_reason}", "Evidence"
        else:
            note, name = r.detail, "Detail"
        row.note.setText(note)
        row.note.setObjectName(name)
        row.note.style().unpolish(row.note)
        row.note.style().polish(row.note)
        row.override.setVisible(self._supervisor and r.overridable and not r.satisfied)

    # -- reading ---------------------------------------------------------

    def overrides(self) -> dict[str, str]:
        return {
            code: row.override.text().strip()
            for code, row in self._rows.items()
            if not row.override.isHidden() and row.override.text().strip()
        }

    def override_field(self, code: str) -> QLineEdit | None:
        row = self._rows.get(code)
        return row.override if row is not None and not row.override.isHidden() else None

    def rows(self) -> list[tuple[str, str, str]]:
        """(mark, label, evidence or detail) for each requirement, as on screen."""
        return [
            (row.mark.text(), row.requirement.label, row.note.text()) for row in self._rows.values()
        ]

    def all_met(self) -> bool:
        return bool(self._checked) and all(c.met for c in self._checked)

    def unmet(self) -> list[CheckedRequirement]:
        return [c for c in self._checked if not c.met]

    def _on_override_text_edited(self, _text: str) -> None:
        self.override_edited.emit()
