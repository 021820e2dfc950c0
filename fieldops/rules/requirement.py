"""One condition of a release or a destruction, as data the UI can list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Requirement:
    """A condition the law sets, and whether the recorded facts satisfy it.

    ``code`` is stable for programs ("name_address", "rabies", "licence",
    "fees_paid", "hold_ended", "no_open_quarantine", "not_vicious",
    "destruction_allowed"); ``label`` is plain language for the operator;
    ``section`` cites the ordinance and statute. ``overridable`` is True only
    for the blocks across modules (open quarantine, vicious declaration), which
    a supervisor may override with a written reason kept in the audit trail.
    ``detail`` says, when unsatisfied, what is missing.
    """

    code: str
    label: str
    section: str
    satisfied: bool
    overridable: bool = False
    detail: str = ""


def unmet(requirements: Iterable[Requirement]) -> tuple[Requirement, ...]:
    """The requirements not yet satisfied, in their original order."""
    return tuple(r for r in requirements if not r.satisfied)
