"""The record tab of an impoundment: the hold and why, the animal, and its disposition."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from fieldops.rules import plural
from fieldops.rules.release import RELEASE_KINDS
from fieldops.services.impound_views import DispositionView, ImpoundView, PartyView
from ui.common.text import day, species, when
from ui.context import AppContext

RELEASES = RELEASE_KINDS
SEX = {"male": "Male", "female": "Female", "unknown": "Unknown"}


def yes_no(value: bool | None) -> str:
    return "Unknown" if value is None else ("Yes" if value else "No")


def party_text(party: PartyView | None, unknown: str = "Not known") -> str:
    if party is None:
        return unknown
    bits = [party.full_name, party.address or "no address recorded", party.phone]
    return ", ".join(b for b in bits if b) + f" (#{party.id})"


class PairsWidget(QWidget):
    """A titled block of "label: value" lines, rebuilt whenever the record is reloaded."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel(title)
        self.heading.setObjectName("SectionHeading")
        self.form = QFormLayout()
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.form.setHorizontalSpacing(12)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 6)
        layout.addWidget(self.heading)
        layout.addLayout(self.form)
        self._values: dict[str, QLabel] = {}

    def set_pairs(self, pairs: list[tuple[str, str]]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._values = {}
        for label, text in pairs:
            value = QLabel(text)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.form.addRow(f"{label}:", value)
            self._values[label] = value

    def value(self, label: str) -> str:
        return self._values[label].text() if label in self._values else ""


class HoldWidget(QWidget):
    """The hold with its countdown and, on request, why each date is what it is."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.pairs = PairsWidget("The hold")
        self.why_button = QPushButton("&Why this date?")
        self.why_button.setCheckable(True)
        self.why_button.setAutoDefault(False)
        self.why = QLabel()
        self.why.setObjectName("WhyText")
        self.why.setWordWrap(True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.why.hide()
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.why_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pairs)
        layout.addLayout(row)
        layout.addWidget(self.why)
        self.why_button.toggled.connect(self.why.setVisible)

    def show_view(self, v: ImpoundView) -> None:
        self.pairs.set_pairs(
            [
                ("Custody day", day(v.custody_day)),
                (
                    "Owner may claim until",
                    day(v.last_claim_day)
                    + (
                        " (no claim period: surrendered)"
                        if v.no_claim_period
                        else " (end of the day)"
                    ),
                ),
                (
                    "May go to others from",
                    when(self.ctx, v.release_to_others_from, midnight="start"),
                ),
                ("Hold length", self._length(v)),
            ]
        )

        self.why.setText(
            "\n\n".join(
                v.hold_why[k]
                for k in ("last_claim_day", "release_to_others_from")
                if k in v.hold_why
            )
        )

    def _length(self, v: ImpoundView) -> str:
        if v.no_claim_period:
            return "None: the owner surrendered the animal in writing"
        if v.bit_person:
            return f"{plural(v.hold_days, 'day')}, because the animal bit a person"
        return plural(v.hold_days, "day")


class SummaryWidget(QScrollArea):
    """Everything the 58-528 record holds, read-only, with the kennel movable."""

    move_kennel_requested = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWidgetResizable(True)
        inner = QWidget()
        self.setWidget(inner)
        self.hold = HoldWidget(ctx)
        self.impoundment = PairsWidget("The impoundment")
        self.animal = PairsWidget("The animal")
        self.disposition = PairsWidget("Disposition")
        self.corrections = PairsWidget("Superseded dispositions")
        self.kennel = QLineEdit()
        self.kennel.setMaximumWidth(140)
        self.move_button = QPushButton("&Move")
        self.move_button.setAutoDefault(False)
        self.kennel_row = QWidget()
        kennel_row = QHBoxLayout(self.kennel_row)
        kennel_row.setContentsMargins(0, 0, 0, 0)
        kennel_caption = QLabel("Move to &kennel:")
        kennel_caption.setBuddy(self.kennel)
        kennel_row.addWidget(kennel_caption)
        kennel_row.addWidget(self.kennel)
        kennel_row.addWidget(self.move_button)
        kennel_row.addStretch(1)
        left_box, right_box = QWidget(), QWidget()
        left, right = QVBoxLayout(left_box), QVBoxLayout(right_box)
        for column in (left, right):
            column.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.hold)
        left.addWidget(self.impoundment)
        left.addWidget(self.kennel_row)
        left.addStretch(1)
        right.addWidget(self.disposition)
        right.addWidget(self.corrections)
        right.addWidget(self.animal)
        right.addStretch(1)
        columns = QHBoxLayout(inner)
        columns.addWidget(left_box, 1)
        columns.addSpacing(16)
        columns.addWidget(right_box, 1)
        self.move_button.clicked.connect(self._on_move_button_clicked)

    def show_view(self, v: ImpoundView) -> None:
        self.hold.show_view(v)
        reason = v.reason_label + (f": {v.reason_detail}" if v.reason_detail else "")
        repeat = (
            f"Yes: impounded before on {day(v.repeat_custody_day)} (#{v.repeat_of}); "
            "the owner's impound fee is doubled"
            if v.repeat_of
            else "No"
        )
        self.impoundment.set_pairs(
            [
                ("Impounded at", when(self.ctx, v.impounded_at)),
                (
                    "Found",
                    ", ".join(x for x in (v.found_place, when(self.ctx, v.found_at)) if x)
                    or "Not recorded",
                ),
                ("Condition", v.condition or "Not recorded"),
                ("Injuries", v.injuries or "None recorded"),
                ("Officer", v.officer),
                ("Reason", reason),
                ("Bit a person", yes_no(v.bit_person)),
                ("Owner", party_text(v.owner)),
                ("Kennel", v.kennel or "None"),
                ("Repeat impoundment", repeat),
                ("Notes", v.notes or "None"),
                ("Recorded by", v.recorded_by),
            ]
        )
        a = v.animal
        kind = a.species_detail if a.species == "other" and a.species_detail else species(a.species)
        self.animal.set_pairs(
            [
                ("Name", a.name or "(no name)"),
                ("Species", kind),
                ("Breed", a.breed),
                ("Colour", a.colour),
                ("Sex", SEX.get(a.sex, a.sex)),
                ("Altered", yes_no(a.altered)),
                ("Approximate age", a.approximate_age),
                ("Markings", a.markings),
                ("Microchip", a.microchip or "None"),
                ("Licence", a.licence or "None"),
                ("Registry", f"animal #{a.id}"),
            ]
        )
        self.disposition.set_pairs(self._disposition_pairs(v.disposition, v))
        self.corrections.set_pairs(self._correction_pairs(v))
        self.corrections.setVisible(bool(v.corrections))
        self.kennel.setText(v.kennel)
        self.kennel_row.setVisible(v.in_custody)

    def _disposition_pairs(
        self, d: DispositionView | None, v: ImpoundView
    ) -> list[tuple[str, str]]:
        if d is None:
            return [("Status", f"In custody: {v.status(self.ctx.now()).lower()}")]
        pairs = [("Disposition", d.label), ("When", when(self.ctx, d.at))]
        # A correction keeps the original's recipient, destination and release evidence;
        # they belong on screen only with the kinds they describe.
        if d.recipient is not None and d.kind in RELEASES:
            pairs.append(("Released to", party_text(d.recipient)))
            pairs.append(
                (
                    "Recipient is",
                    "the owner or the owner's representative"
                    if d.to_owner
                    else "not the owner (new owner)",
                )
            )
        if d.transfer_to and d.kind == "transferred":
            pairs.append(("Transferred to", d.transfer_to))
        if d.kind == "euthanized":
            pairs.append(("Basis", d.euthanasia_basis_label))
            pairs.append(("Decided by", d.decided_by or "Not recorded"))
            pairs.append(("Hopelessly injured or imminent threat", yes_no(d.hopeless_or_threat)))
        if d.preserve_until:
            pairs.append(("Preserve for necropsy until", day(d.preserve_until)))
        for e in d.evidence if d.kind in RELEASES else ():
            text = f"{e.label}: {e.evidence or 'met'}"
            if e.overridden:
                text += f" — overridden by {e.override_by}: {e.override_reason}"
            pairs.append(("Evidence", text))
        if d.notes:
            pairs.append(("Notes", d.notes))
        if d.corrects_id is not None:
            pairs.append(("Correction", f"Corrected by a supervisor: {d.correction_reason}"))
        pairs.append(("Recorded by", d.recorded_by))
        return pairs

    def _correction_pairs(self, v: ImpoundView) -> list[tuple[str, str]]:
        """Each entry a correction superseded, with the reason given by the one that did."""
        chain = [*v.corrections, *([v.disposition] if v.disposition else [])]
        by_target = {d.corrects_id: d for d in chain if d.corrects_id is not None}
        pairs = []
        for old in v.corrections:
            lines = [f"{when(self.ctx, old.at)}, recorded by {old.recorded_by}"]
            if old.recipient is not None and old.kind in RELEASES:
                lines.append(f"Released to {party_text(old.recipient)}")
            if old.transfer_to and old.kind == "transferred":
                lines.append(f"Transferred to {old.transfer_to}")
            if old.notes:
                lines.append(f"Notes: {old.notes}")
            newer = by_target.get(old.id)
            reason = newer.correction_reason if newer is not None else ""
            lines.append(f"Corrected by a supervisor: {reason or '(no reason recorded)'}")
            pairs.append((old.label, "\n".join(lines)))
        return pairs

    def _on_move_button_clicked(self) -> None:
        self.move_kennel_requested.emit(self.kennel.text())
