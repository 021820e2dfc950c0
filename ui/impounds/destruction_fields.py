"""The two fields a humane destruction is recorded with (58-526(c); Wis. Stat. 173.23(4)):
its basis and who decided. The disposition form records them; the correction form asks
them again when a record is corrected to a destruction."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit

from fieldops.rules.release import EUTHANASIA_BASES
from ui.common.forms import FormFields


def add_destruction_fields(
    fields: FormFields, *, decided_caption: str = "&Decided by:"
) -> tuple[QComboBox, QLineEdit]:
    """Add the basis and "decided by" rows to ``fields``; returns their inputs.
    ``decided_caption``: the row's caption, its mnemonic free in the form it joins."""
    basis = QComboBox()
    basis.addItem("Choose why…", "")
    for code, label in EUTHANASIA_BASES.items():
        basis.addItem(label, code)
    decided_by = QLineEdit()
    decided_by.setPlaceholderText("e.g. Dr. Ana Kim, veterinarian")
    fields.add(
        "basis",
        "&Basis:",
        basis,
        hint="Before the hold ends, only a veterinarian's or officer's finding "
        "allows it (Wis. Stat. 173.23(4)).",
    )
    fields.add(
        "decided_by",
        decided_caption,
        decided_by,
        hint="Name, and whether a veterinarian, an officer or staff.",
    )
    return basis, decided_by
