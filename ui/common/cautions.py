"""The caution banner every record's view carries (issue 16, officer safety): the cautions
standing on the record's people or at its addresses, from every module, above everything
else; hidden when there are none, so a record without one looks as it always did."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from fieldops.modules import Caution
from fieldops.services.cautions import address_cautions, record_cautions
from ui.common.text import escape_html, when
from ui.context import AppContext

# Dark red with a yellow edge and white type: it reads as a warning at a glance and is
# unlike the form's error banner (pale red) and every status chip.
CAUTION_LOOK = """
QLabel#CautionBanner {
    background: #9b111e;
    color: #ffffff;
    border-left: 10px solid #ffc300;
    border-radius: 3px;
    font-size: 11pt;
}
"""
ACCESSIBLE_NAME = "Caution for officers"
# What the bus says when a caution may have been set or cleared (the call's dialogs
# announce their call).
CHANGES_CAUTIONS = ("caution_flag", "field_call")


class CautionBanner(QLabel):
    """``load(person_ids, addresses)`` reads the cautions off the GUI thread and shows them;
    ``show_cautions`` shows those already read. The latest request wins."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("CautionBanner")
        self.setStyleSheet(CAUTION_LOOK)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Margins in code: a word-wrapped label's height ignores QSS padding.
        self.setContentsMargins(14, 8, 10, 8)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setAccessibleName(ACCESSIBLE_NAME)
        self.cautions: tuple[Caution, ...] = ()
        self._asked = 0
        self._question: tuple[Callable[..., tuple[Caution, ...]], tuple[object, ...]] | None = None
        self.hide()
        # A caution set or cleared elsewhere (on a call) shows here without reopening.
        ctx.bus.changed.connect(self._on_bus_changed)

    def load(self, person_ids: Sequence[int | None], addresses: Sequence[str]) -> None:
        """The cautions on these people or at these addresses (a record's)."""
        self._read(record_cautions, self.ctx.db, tuple(person_ids), tuple(addresses))

    def load_address(self, address: str) -> None:
        """The cautions at the address and on the people living there."""
        self._read(address_cautions, self.ctx.db, address)

    def _read(self, fn: Callable[..., tuple[Caution, ...]], *args: object) -> None:
        self._question = (fn, args)
        self._asked += 1
        asked = self._asked
        self.ctx.tasks.run(
            fn, *args, owner=self, on_done=lambda found: self._on_loaded(asked, found)
        )

    def _on_bus_changed(self, entity: str, _id: int) -> None:
        if entity in CHANGES_CAUTIONS and self._question is not None:
            fn, args = self._question
            self._read(fn, *args)

    def _on_loaded(self, asked: int, found: tuple[Caution, ...]) -> None:
        if asked == self._asked:  # an answer to an older question is not shown
            self.show_cautions(found)

    def show_cautions(self, cautions: Sequence[Caution]) -> None:
        self.cautions = tuple(cautions)
        if not self.cautions:
            self.setText("")
            self.setAccessibleDescription("")
            self.hide()
            return
        heading = "CAUTION FOR OFFICERS" + (
            f" ({len(self.cautions)})" if len(self.cautions) > 1 else ""
        )
        lines = [
            f"{escape_html(c.text)} <span style='color:#ffe08a'>"
            f"— set by {escape_html(c.set_by)}, {escape_html(when(self.ctx, c.set_at))}</span>"
            for c in self.cautions
        ]
        self.setText(f"<b style='font-size:12pt'>⚠ {heading}</b><br>" + "<br>".join(lines))
        self.setAccessibleDescription(" ".join(self.texts()))
        self.setToolTip("A supervisor sets and clears cautions on a call, with the reason.")
        self.show()

    def texts(self) -> list[str]:
        """Each caution as plain words (what a screen reader says after the name)."""
        return [f"{c.text} (set by {c.set_by}, {when(self.ctx, c.set_at)})" for c in self.cautions]
