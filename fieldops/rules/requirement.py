"""One condition of a release or a destruction, as data the UI can list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Requirement:
    """A condition the law sets, and whether the recorded facts satisfy it.

    ``code`` is stable for programs ("name_address", "rabies", "licence",
    "fees_paid", "hold_ended", "no_open_quarantine", "not_vicious",
    "destruction_allowed"); ``label`` is plain language for the operator;
    ``section`` cites the ordinance and statute. ``overridable`` is True only
    for the blocks across modules (open quarantine, vicious declaration), which
    a supervisor may override with a written reason kept in the audit trail.
    ``detail`` says, when unsatisfied, what is missing. ``evidence`` is what
    the records show for it, when the one who checked it knows (a module's
    block says what it looked at); the release services record it.
    """

    code: str
    label: str
    section: str
    satisfied: bool
    overridable: bool = False
    detail: str = ""
    evidence: str = ""

    def with_evidence(self, evidence: str) -> Requirement:
        """The same requirement, with what the records show for it."""
        return replace(self, evidence=evidence)


def unmet(requirements: Iterable[Requirement]) -> tuple[Requirement, ...]:
    """The requirements not yet satisfied, in their original order."""
    return tuple(r for r in requirements if not r.satisfied)
