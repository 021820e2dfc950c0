"""The errors the core raises for a user to read.

Two families, as in qutebrowser: a ``UserError`` is something the person at
the counter can fix (a field, a stale screen, a missing requirement) and is
shown as is; anything else is a bug or an environment failure and is reported
as such by the UI.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class UserError(Exception):
    """An error whose message is written for the user."""


@dataclass(frozen=True)
class FieldError:
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class ValidationError(UserError):
    """Input that cannot be saved. Each error names its field and the problem."""

    def __init__(self, errors: Mapping[str, str] | Iterable[FieldError]) -> None:
        if isinstance(errors, Mapping):
            items = tuple(FieldError(f, m) for f, m in errors.items())
        else:
            items = tuple(errors)
        if not items:
            raise ValueError("ValidationError needs at least one field error")
        self.errors: tuple[FieldError, ...] = items
        super().__init__("; ".join(str(e) for e in items))

    @property
    def field(self) -> str:
        return self.errors[0].field

    def by_field(self) -> dict[str, str]:
        return {e.field: e.message for e in self.errors}


class NotFoundError(UserError):
    pass


class StaleRecordError(UserError):
    """Someone else changed the record since it was opened."""


class PermissionDeniedError(UserError):
    pass


class DatabaseFilesReplacedError(UserError):
    """The database's write-ahead log was removed or replaced while the app had it open.

    Raised before any further unit of work: what this process would write from then
    on could go to a file nobody else reads, so it stops instead of acknowledging.
    """

    code = "database_files_replaced"

    def __init__(self, wal_path: str) -> None:
        self.wal_path = wal_path
        super().__init__(
            "FieldOps has stopped saving: the database's write-ahead log "
            f"({wal_path}) was removed or replaced by another program while FieldOps "
            "had it open, so nothing saved from now on would reach the database. "
            "Nothing more has been saved. Quit FieldOps and start it again, then check "
            "the last records you saved before this message."
        )


class Collector:
    """Gathers field errors so a form reports all of them at once."""

    def __init__(self) -> None:
        self._errors: dict[str, str] = {}

    def add(self, field: str, message: str) -> None:
        self._errors.setdefault(field, message)

    def check(self, ok: bool, field: str, message: str) -> None:
        if not ok:
            self.add(field, message)

    def raise_if_any(self) -> None:
        if self._errors:
            raise ValidationError(self._errors)
