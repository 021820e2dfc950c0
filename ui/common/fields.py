"""Field errors for forms that are more than one ``QFormLayout``.

``ui.common.forms.FormFields`` marks the fields of one form layout. The intake form
has two columns, a payment has a row per line item and a fee schedule is a
grid, so ``FieldGroups`` spreads one ``ValidationError`` over several groups
and ``GridFields`` gives any widget placed by hand an error label of its own.
Both look like ``FormFields`` to ``RecordDialog``.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QLabel, QWidget

from fieldops.errors import ValidationError
from ui.common.forms import MarkedFields


class _Group(Protocol):
    def __contains__(self, name: str) -> bool: ...
    def show_errors(self, error: ValidationError) -> list[str]: ...
    def clear_errors(self) -> None: ...
    def error_text(self, name: str) -> str: ...
    def is_marked(self, name: str) -> bool: ...


def error_label() -> QLabel:
    label = QLabel()
    label.setObjectName("FieldError")
    label.setWordWrap(True)
    label.hide()
    return label


class GridFields(MarkedFields):
    """Named inputs placed anywhere, each with an error label the caller placed."""

    def add(self, name: str, widget: QWidget, error: QLabel) -> None:
        self._register(name, widget, error)

    def remove_prefix(self, prefix: str) -> None:
        for name in [n for n in self._inputs if n.startswith(prefix)]:
            del self._inputs[name], self._errors[name]
            self._order.remove(name)


class FieldGroups:
    """Several field groups answering as one form."""

    def __init__(self, *groups: _Group) -> None:
        self.groups = groups

    def _owner(self, name: str) -> _Group:
        return next(g for g in self.groups if name in g)

    def __contains__(self, name: str) -> bool:
        return any(name in g for g in self.groups)

    def error_text(self, name: str) -> str:
        return self._owner(name).error_text(name)

    def is_marked(self, name: str) -> bool:
        return self._owner(name).is_marked(name)

    def input(self, name: str) -> QWidget:
        return self._owner(name).input(name)  # type: ignore[attr-defined]

    def show_errors(self, error: ValidationError) -> list[str]:
        # Last group first, so the first group's first bad field ends with the focus.
        for group in reversed(self.groups):
            mine = [e for e in error.errors if e.field in group]
            if mine:
                group.show_errors(ValidationError(mine))
            else:
                group.clear_errors()
        return [e.message for e in error.errors if e.field not in self]

    def clear_errors(self) -> None:
        for group in self.groups:
            group.clear_errors()
