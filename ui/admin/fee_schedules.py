"""Council fee schedules (58-526(a)): every resolution entered, and entering a new one.

A supervisor enters the resolution number, the day it takes effect and, for
each species, the impound fee, boarding per day and adoption fee. Everyone
else reads the schedules. Quotes use the schedule in force on the custody
day; payments already made keep their amounts.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime

from PySide6.QtWidgets import (
    QDateEdit,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission, permitted
from fieldops.rules import SPECIES, FeeSchedule
from fieldops.services.fee_schedules import (
    FeeScheduleInput,
    FeeScheduleView,
    SpeciesFees,
    enter_fee_schedule,
    fee_schedules,
)
from ui.common.fields import FieldGroups, GridFields, error_label
from ui.common.forms import FormFields, form_layout, show_refusal
from ui.common.table_models import Column, ListTableModel
from ui.common.text import day, money, species, when
from ui.common.widgets import Banner, RecordTableView, date_of, set_date
from ui.context import AppContext

AMOUNTS = (
    ("impound", "Impound fee"),
    ("boarding_per_day", "Boarding per day"),
    ("adoption", "Adoption fee"),
)
PROFILE_SOURCE = "City profile (default)"


@dataclass(frozen=True)
class ScheduleRow:
    """One species' fees under one resolution, as the table shows it."""

    resolution: str
    effective_on: date | None
    species: str
    fees: FeeSchedule
    entered_by: str
    entered_at: datetime | None


def schedule_rows(
    schedules: tuple[FeeScheduleView, ...], defaults: dict[str, FeeSchedule]
) -> tuple[ScheduleRow, ...]:
    rows = [
        ScheduleRow(s.resolution, s.effective_on, sp, s.fees[sp], s.entered_by, s.entered_at)
        for s in schedules
        for sp in SPECIES
        if sp in s.fees
    ]
    rows += [
        ScheduleRow(PROFILE_SOURCE, None, sp, defaults[sp], "", None)
        for sp in SPECIES
        if sp in defaults
    ]
    return tuple(rows)


def schedule_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        Column("Resolution", lambda r: r.resolution, 180),
        Column(
            "In force from",
            lambda r: day(r.effective_on) if r.effective_on else "Before any resolution",
            170,
        ),
        Column("Species", lambda r: species(r.species), 70),
        Column("Impound fee", lambda r: money(r.fees.impound), 115),
        Column("Boarding per day", lambda r: money(r.fees.boarding_per_day), 145),
        Column("Adoption fee", lambda r: money(r.fees.adoption), 115),
        Column(
            "Entered",
            lambda r: f"{r.entered_by}, {when(ctx, r.entered_at)}" if r.entered_at else "",
        ),
    )


class FeeSchedulesWidget(QWidget):
    """The schedules, newest first, and (for a supervisor) the form for a new one."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.client_key = str(uuid.uuid4())  # kept across retries until a save is confirmed
        self.setObjectName("FeeSchedulesWidget")
        self._saving = False
        heading = QLabel("Fee schedules")
        heading.setObjectName("SectionHeading")
        self.model = ListTableModel(schedule_columns(ctx), parent=self)
        self.view = RecordTableView()
        self.view.setModel(self.model)
        self.banner = Banner()
        self.form = self._build_form()
        self.read_only_note = QLabel(
            "Only a supervisor can enter a new fee schedule; the schedules are shown read-only."
        )
        self.read_only_note.setObjectName("FieldHint")
        supervisor = permitted(ctx.actor.role, Permission.FEE_SCHEDULES)
        self.form.setVisible(supervisor)
        self.read_only_note.setVisible(not supervisor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.read_only_note)
        layout.addWidget(self.banner)
        layout.addWidget(self.form)
        self.refresh()

    def _build_form(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 8, 0, 0)
        title = QLabel("Enter a new schedule (council resolution)")
        title.setObjectName("SectionHeading")
        form = form_layout()
        self.form_fields = FormFields(form)
        self.resolution = self.form_fields.add("resolution", "&Resolution number:", QLineEdit())
        self.resolution.setMaximumWidth(260)
        self.effective_on = self.form_fields.add("effective_on", "&Effective from:", QDateEdit())
        self.effective_on.setCalendarPopup(True)
        self.effective_on.setDisplayFormat("ddd d MMM yyyy")
        set_date(self.effective_on, self.ctx.today())
        self.grid_fields = GridFields()
        grid = QGridLayout()
        self.amounts: dict[str, QLineEdit] = {}
        for c, (_key, title_) in enumerate(AMOUNTS, start=1):
            caption = QLabel(title_)
            caption.setObjectName("FieldHint")
            grid.addWidget(caption, 0, c)
        for r, sp in enumerate(SPECIES):
            grid.addWidget(QLabel(species(sp) + ":"), 1 + 2 * r, 0)
            for c, (key, title_) in enumerate(AMOUNTS, start=1):
                edit = QLineEdit()
                edit.setPlaceholderText("0.00")
                edit.setMaximumWidth(140)
                edit.setAccessibleName(f"{species(sp)} {title_.lower()}")
                error = error_label()
                grid.addWidget(edit, 1 + 2 * r, c)
                grid.addWidget(error, 2 + 2 * r, c)
                self.grid_fields.add(f"{sp}.{key}", edit, error)
                self.amounts[f"{sp}.{key}"] = edit
        grid.setColumnStretch(len(AMOUNTS) + 1, 1)
        self.fields = FieldGroups(self.form_fields, self.grid_fields)
        self.save_button = QPushButton("&Save schedule")
        self.save_button.clicked.connect(self._on_save_button_clicked)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addStretch(1)
        column.addWidget(title)
        column.addLayout(form)
        column.addLayout(grid)
        column.addLayout(buttons)
        return box

    # -- reading and saving ----------------------------------------------

    def refresh(self) -> None:
        self.ctx.tasks.run(
            fee_schedules, self.ctx.db, owner=self, on_done=self._on_schedules_loaded
        )

    def read_input(self) -> FeeScheduleInput:
        fees = {
            sp: SpeciesFees(*(self.amounts[f"{sp}.{k}"].text() for k, _ in AMOUNTS))
            for sp in SPECIES
        }
        return FeeScheduleInput(self.resolution.text(), date_of(self.effective_on.date()), fees)

    def save(self) -> None:
        if self._saving:
            return
        self._set_saving(True)
        self.fields.clear_errors()
        self.banner.clear_message()
        self.ctx.tasks.run(
            enter_fee_schedule,
            self.ctx.db,
            self.ctx.actor,
            self.read_input(),
            client_key=self.client_key,
            owner=self,
            on_done=self._on_saved,
            on_error=self._on_save_failed,
        )

    def _on_schedules_loaded(self, schedules: tuple[FeeScheduleView, ...]) -> None:
        self.show_schedules(schedules)

    def show_schedules(self, schedules: tuple[FeeScheduleView, ...]) -> None:
        self.model.set_rows(schedule_rows(schedules, dict(self.ctx.profile.fees)))
        latest = schedules[0].fees if schedules else dict(self.ctx.profile.fees)
        for sp in SPECIES:  # start the form from the fees in force
            for key, _ in AMOUNTS:
                edit = self.amounts[f"{sp}.{key}"]
                if not edit.text() and sp in latest:
                    edit.setText(f"{getattr(latest[sp], key):.2f}")

    def _set_saving(self, saving: bool) -> None:
        self._saving = saving
        self.save_button.setEnabled(not saving)

    def _on_saved(self, view: FeeScheduleView) -> None:
        self._set_saving(False)
        self.client_key = str(uuid.uuid4())
        self.show_saved(view)

    def show_saved(self, view: FeeScheduleView) -> None:
        self.banner.show_note(
            f"Resolution {view.resolution} saved: its fees apply to animals "
            f"impounded from {day(view.effective_on)}."
        )
        self.resolution.clear()
        self.ctx.bus.changed.emit("fee_schedule", 0)
        self.refresh()

    def _on_save_failed(self, exc: BaseException) -> bool:
        self._set_saving(False)
        return self.show_refusal(exc)

    def show_refusal(self, exc: BaseException) -> bool:
        """Say why nothing was saved; False sends a bug on to the error router."""
        return show_refusal(
            exc,
            self.fields,
            self.banner,
            invalid="Nothing was saved: correct the marked fields.",
            bug="Nothing was saved because of an error in FieldOps.",
        )

    def _on_save_button_clicked(self) -> None:
        self.save()
