"""What a form's field errors answer to, however the fields are laid out.

``ui.common.forms.FormFields`` (one form layout), ``ui.common.fields.GridFields``
(inputs placed by hand) and ``ui.common.fields.FieldGroups`` (several of those
answering as one form) all mark fields this way; ``RecordDialog`` and
``show_refusal`` take any of them.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QWidget

from fieldops.errors import ValidationError


class FieldMarks(Protocol):
    def __contains__(self, name: str) -> bool: ...
    def input(self, name: str) -> QWidget: ...
    def error_text(self, name: str) -> str: ...
    def is_marked(self, name: str) -> bool: ...
    def show_errors(self, error: ValidationError) -> list[str]:
        """Mark each named field; returns the messages for fields this form lacks."""
        ...

    def clear_errors(self) -> None: ...
