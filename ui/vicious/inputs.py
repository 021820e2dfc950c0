"""Inputs of the vicious-animal forms: choosing the animal, and one incident."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from fieldops.modules import Incident
from fieldops.services.animals import AnimalRow, animals_page
from fieldops.services.listing import Page
from ui.common.fields import GridFields, error_label
from ui.common.inputs import LocalDateTimeEdit
from ui.common.text import when
from ui.common.widgets import SearchField
from ui.context import AppContext


class AnimalField(QWidget):
    """The animal: a search of the registry, and the matches to choose from."""

    changed = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.search = SearchField("Name, microchip, licence or owner")
        self.matches = QComboBox()
        self.matches.setMinimumWidth(320)
        self.search.setMinimumWidth(240)
        self.matches.addItem("Search for the animal first", None)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.search, 2)
        row.addWidget(self.matches, 3)
        self.setFocusProxy(self.search)
        self.search.search_requested.connect(self._on_search_search_requested)
        self.search.down_pressed.connect(self.matches.setFocus)
        self.matches.currentIndexChanged.connect(lambda _i: self.changed.emit())

    def animal_id(self) -> int | None:
        animal_id: int | None = self.matches.currentData()  # each match carries its id
        return animal_id

    def set_animal(self, animal_id: int, label: str) -> None:
        self.matches.clear()
        self.matches.addItem(label, animal_id)

    def _on_search_search_requested(self, text: str) -> None:
        if text:
            self.ctx.tasks.run(
                animals_page, self.ctx.db, text, 0, 30, owner=self, on_done=self._on_page
            )

    def _on_page(self, page: Page[AnimalRow]) -> None:
        self.matches.clear()
        if not page.rows:
            self.matches.addItem("No animal matches", None)
        for r in page.rows:
            detail = ", ".join(x for x in (r.species, r.breed, r.colour) if x)
            owner = f", owner {r.owner_name}" if r.owner_name else ", no owner on file"
            self.matches.addItem(f"#{r.id} {r.name or '(no name)'} ({detail}){owner}", r.id)


class IncidentRow(QWidget):
    """One incident the declaration rests on: a record on file (a bite report, offered by
    its module through the seam) or described here: when, where, what happened."""

    DESCRIBED = "Described here (no record on file)"

    def __init__(
        self, ctx: AppContext, n: int, fields: GridFields, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.link = QComboBox()
        self.link.addItem(self.DESCRIBED, None)
        self.link.setToolTip(
            "The animal's records on file (bite reports) appear here once the animal is chosen"
        )
        self.when = LocalDateTimeEdit(ctx.timezone)
        self.when.set_value(ctx.now())
        self.place = QLineEdit()
        self.place.setPlaceholderText("Where: address or place")
        self.what = QPlainTextEdit()
        self.what.setFixedHeight(54)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel(f"Incident {n + 1}:"), 0, 0)
        err = error_label()
        grid.addWidget(self.link, 0, 1, 1, 2)
        grid.addWidget(err, 1, 1, 1, 2)
        fields.add(f"incidents.{n}.linked", self.link, err)
        for col, (name, widget) in enumerate(
            (("occurred_at", self.when), ("place", self.place)), start=1
        ):
            err = error_label()
            grid.addWidget(widget, 2, col)
            grid.addWidget(err, 3, col)
            fields.add(f"incidents.{n}.{name}", widget, err)
        err = error_label()
        grid.addWidget(self.what, 4, 1, 1, 2)
        grid.addWidget(err, 5, 1, 1, 2)
        fields.add(f"incidents.{n}.what", self.what, err)
        grid.setColumnStretch(2, 1)
        self.link.currentIndexChanged.connect(lambda _i: self._show_link())
        self._show_link()

    def set_choices(self, incidents: Sequence[Incident]) -> None:
        """Offer the animal's records on file; keep the one chosen if it is still offered."""
        keep = self.linked()
        self.link.blockSignals(True)
        self.link.clear()
        self.link.addItem(self.DESCRIBED, None)
        at = 0
        for i in incidents:
            self.link.addItem(f"{when(self.ctx, i.when)}, {i.place}: {i.summary}", i)
            if (i.module, i.kind, i.record_id) == keep:
                at = self.link.count() - 1
        self.link.setCurrentIndex(at)
        self.link.blockSignals(False)
        self._show_link()

    def incident(self) -> Incident | None:
        data = self.link.currentData()
        return data if isinstance(data, Incident) else None

    def linked(self) -> tuple[str, str, int] | None:
        i = self.incident()
        return (i.module, i.kind, i.record_id) if i is not None else None

    def _show_link(self) -> None:
        incident = self.incident()
        if incident is not None:
            self.when.set_value(incident.when)
            self.place.setText(incident.place)
        self.when.setEnabled(incident is None)
        self.place.setEnabled(incident is None)
        self.what.setPlaceholderText(
            "Anything the officer adds to the record on file (optional)"
            if incident is not None
            else "What happened: who or what was bitten, attacked or threatened, and how"
        )

    def value(self) -> tuple[datetime, str, str, tuple[str, str, int] | None]:
        return self.when.value(), self.place.text(), self.what.toPlainText(), self.linked()
