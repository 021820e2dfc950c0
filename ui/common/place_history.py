"""History by address and by owner (issue 16): every module's records at an address or of
a person, newest first, each line opening its record in its own module (Enter or a double
click). The call view, the person's dialog and the address history all show this list."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.modules import Incident
from fieldops.services.places import address_history, person_history
from ui import modules as ui_modules
from ui.common.cautions import CautionBanner
from ui.common.text import when
from ui.context import AppContext

Key = tuple[str, str, int]  # (module, kind, record id)


class PlaceHistoryList(QListWidget):
    """The records, one line each: when, what, where. ``skip`` leaves out the record the
    list is shown on (the call itself in the call view)."""

    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None = None,
        *,
        skip: Key | None = None,
        empty: str = "Nothing on record.",
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.skip = skip
        self.empty = empty
        self.setObjectName("PlaceHistory")
        self.setMinimumHeight(160)
        self.itemActivated.connect(self._on_item_activated)
        self._asked = 0

    def load_address(self, address: str, person_ids: Sequence[int] = ()) -> None:
        """Every record at the address, of the people living there and of ``person_ids``."""
        self._load(address_history, self.ctx.db, address, tuple(person_ids))

    def load_person(self, person_id: int) -> None:
        """Every record of the person and at their address."""
        self._load(person_history, self.ctx.db, person_id)

    def _load(self, fn: Callable[..., tuple[Incident, ...]], *args: object) -> None:
        self._asked += 1
        asked = self._asked
        self.ctx.tasks.run(
            fn, *args, owner=self, on_done=lambda found: self._on_loaded(asked, found)
        )

    def _on_loaded(self, asked: int, found: tuple[Incident, ...]) -> None:
        if asked == self._asked:  # an answer to an older question is not shown
            self.show_records(found)

    def show_records(self, records: Sequence[Incident]) -> None:
        self.clear()
        for r in records:
            if (r.module, r.kind, r.record_id) == self.skip:
                continue
            text = f"{when(self.ctx, r.when)}: {r.summary}" + (f" — {r.place}" if r.place else "")
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, (r.module, r.kind, r.record_id))
            self.addItem(item)
        if not self.count():
            self.addItem(self.empty)

    def texts(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def keys(self) -> list[Key]:
        """The (module, kind, id) of each line, in order (the empty line has none)."""
        found = (self.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.count()))
        return [(k[0], k[1], k[2]) for k in found if k]

    def _on_item_activated(self, item: QListWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if key and not ui_modules.open_record(self.ctx, key[0], key[1], key[2], self):
            self.ctx.errors.tell("That record's module is not installed here.", self)


class AddressHistoryDialog(QDialog):
    """Asks an address; shows the cautions there and every module's records at it."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, address: str = "") -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("AddressHistoryDialog")
        self.setWindowTitle("Address history")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(760, 560)
        self.address = QLineEdit(address)
        self.address.setPlaceholderText("House number and street, e.g. 12 Elm St")
        self.find_button = QPushButton("&Find")
        self.find_button.setDefault(True)
        self.hint = QLabel(
            "Every call, impoundment, bite, vicious case, permit and citation at the "
            "address or of the people living there, newest first. Enter on a line opens it."
        )
        self.hint.setObjectName("FieldHint")
        self.hint.setWordWrap(True)
        self.cautions = CautionBanner(ctx)
        self.records = PlaceHistoryList(ctx, empty="Nothing on record at this address.")
        self.records.hide()
        caption = QLabel("&Address:")
        caption.setBuddy(self.address)
        row = QHBoxLayout()
        row.addWidget(caption)
        row.addWidget(self.address, 1)
        row.addWidget(self.find_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText("&Close")
        buttons.button(QDialogButtonBox.StandardButton.Close).setAutoDefault(False)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.hint)
        layout.addWidget(self.cautions)
        layout.addWidget(self.records, 1)
        layout.addWidget(buttons)
        buttons.rejected.connect(self.reject)
        self.find_button.clicked.connect(self.look_up)
        if address:
            self.look_up()

    def look_up(self) -> None:
        address = self.address.text().strip()
        if not address:
            self.hint.setText("Type the address first: the house number and the street.")
            self.address.setFocus()
            return
        self.cautions.load_address(address)
        self.records.load_address(address)
        self.records.show()
