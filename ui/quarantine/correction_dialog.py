"""A supervisor corrects a mistake in a bite case: what is wrong, its right value, and why.

The record is never edited: the correction is a new, audited record that the view shows
in place of the old value, while the history keeps both. The time of the bite, an exam's
date and its finding are corrected with a date-time, a date or a choice; the service asks
the rules again and refuses beside the value what could not have happened."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QDate
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QStackedWidget,
    QWidget,
)

from fieldops.rules.quarantine import EXAM_FINDINGS
from fieldops.services import quarantine as qs
from ui.common.forms import FormFields, RecordDialog, combo, form_layout
from ui.common.inputs import LocalDateTimeEdit
from ui.common.text import day, money, when
from ui.common.widgets import date_of, set_date
from ui.context import AppContext

FIELD_WORDS = {
    "place": "where the bite happened",
    "victim_name": "the person bitten",
    "reported_by": "who reported it",
    "officer": "the officer",
    "animal_description": "the animal's description",
    "rabies_certificate": "the rabies certificate number",
    "notes": "notes",
    "bitten_at": "the time of the bite",
    "veterinarian": "veterinarian",
    "fee": "fee",
    "examined_on": "date",
    "finding": "finding",
    "who": "who",
    "citation": "citation number",
}
# Which editor gives the right value of a field (the rest are words).
TEXT, TIME, DAY, FINDING = range(4)
EDITOR = {"bitten_at": TIME, "examined_on": DAY, "finding": FINDING}


def choices(v: qs.QuarantineView) -> list[tuple[str, tuple[str, int, str], str]]:
    """(label, (target, id, field), current value) for everything that can be corrected."""
    b = v.bite
    out = [
        (f"Bite report: {FIELD_WORDS[f]}", ("bite_report", b.id, f), str(getattr(b, f, "")))
        for f in qs.CORRECTABLE["bite_report"]
        if f != "bitten_at" and (f != "animal_description" or b.animal_id is None)
    ]
    for x in v.exams:
        for f, shown in (
            ("veterinarian", x.veterinarian),
            ("fee", money(x.fee)),
            ("examined_on", day(x.examined_on)),
            ("finding", x.finding_label),
        ):
            out.append(
                (f"Exam of {day(x.examined_on)}: {FIELD_WORDS[f]}", ("exam", x.id, f), shown)
            )
    for e in v.events:
        for f in qs.CORRECTABLE["event"]:
            out.append((f"{e.label}: {FIELD_WORDS[f]}", ("event", e.id, f), str(getattr(e, f))))
    return out


class CorrectionDialog(RecordDialog):
    """Choose what is wrong, give its right value and the reason."""

    close_on_save = True

    def __init__(self, ctx: AppContext, view: qs.QuarantineView, parent: QWidget | None = None):
        super().__init__(ctx, f"Correct quarantine #{view.id}", parent)
        self.setObjectName("QuarantineCorrectionDialog")
        self.view = view
        self.save_button.setText("&Record correction")
        form = form_layout()
        self.fields = FormFields(form)
        self.what = QComboBox()
        b = view.bite
        self._choices = [
            (
                f"Bite report: {FIELD_WORDS['bitten_at']}",
                ("bite_report", b.id, "bitten_at"),
                when(ctx, b.bitten_at),
            ),
            *choices(view),
        ]
        self._exams = {x.id: x for x in view.exams}
        for label, key, _value in self._choices:
            self.what.addItem(label, key)
        self.current = QLabel()
        self.current.setWordWrap(True)
        self.current.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        # One editor per kind of value, shown as the choice asks.
        self.new_value = QLineEdit()
        self.bite_time = LocalDateTimeEdit(ctx.timezone)
        self.exam_day = QDateEdit()
        self.exam_day.setCalendarPopup(True)
        self.exam_day.setDisplayFormat("ddd d MMM yyyy")
        self.exam_day.setMaximumDate(QDate(9999, 12, 31))
        self.finding = combo(EXAM_FINDINGS)
        self.editors = QStackedWidget()
        self._editors: tuple[QWidget, ...] = (
            self.new_value,
            self.bite_time,
            self.exam_day,
            self.finding,
        )
        for w in self._editors:
            self.editors.addWidget(w)
        # As tall as one input, whichever is shown.
        self.editors.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.reason = QLineEdit()
        self.fields.add("field", "&What is wrong:", self.what)
        self.fields.add("target", "Now on record:", self.current)
        self.fields.add("new_value", "Right &value:", self.editors)
        self.fields.add(
            "reason", "Rea&son:", self.reason, hint="Kept with the correction and in the history."
        )
        self.body.addWidget(
            QLabel("Nothing is changed in place: the correction is kept beside the original.")
        )
        self.body.addLayout(form)
        self.setMinimumWidth(560)  # the value on record and a refusal on one or two lines
        self.what.currentIndexChanged.connect(self._on_what_current_index_changed)
        self._on_what_current_index_changed(0)

    def _on_what_current_index_changed(self, index: int) -> None:
        # A refusal was about the value chosen before: it does not stand beside another.
        self.fields.clear_errors()
        self.banner.clear_message()
        value = self._choices[index][2] if 0 <= index < len(self._choices) else ""
        self.current.setText(value or "(blank)")
        key: Any = self.what.itemData(index)
        kind = EDITOR.get(key[2], TEXT) if key else TEXT
        self.editors.setCurrentIndex(kind)
        self.editors.setFocusProxy(self._editors[kind])
        # Start from what is on record, so a correction changes only what was wrong.
        if kind == TIME:
            self.bite_time.set_value(self.view.bite.bitten_at)
        elif kind in (DAY, FINDING):
            x = self._exams[key[1]]
            set_date(self.exam_day, x.examined_on)
            self.finding.setCurrentIndex(max(0, self.finding.findData(x.finding)))

    def right_value(self) -> str:
        """The right value as the service takes it: words, ISO text, or a finding's code."""
        kind = self.editors.currentIndex()
        if kind == TIME:
            return self.bite_time.value().isoformat()
        if kind == DAY:
            return date_of(self.exam_day.date()).isoformat()
        if kind == FINDING:
            return str(self.finding.currentData())
        return self.new_value.text()

    def confirm_save(self) -> bool:
        """A correction is never taken back (only corrected again): Enter alone must not
        record one, and a corrected date moves the case's deadlines."""
        moves = self.editors.currentIndex() in (TIME, DAY, FINDING)
        return self.ctx.errors.confirm(
            "Record this correction? It stays on the record beside the original"
            + (", and the case's dates are worked out again from it." if moves else "."),
            "&Record correction",
            "&Go back",
            self,
        )

    def save(self) -> None:
        target, target_id, field = self.what.currentData()
        self.save_with(
            qs.correct_record,
            self.ctx.db,
            self.ctx.actor,
            self.view.bite.id,
            target,
            target_id,
            field,
            self.right_value(),
            self.reason.text(),
            self.ctx.profile,
        )

    def _on_record_saved(self, done: qs.Done) -> None:
        self.ctx.bus.changed.emit("quarantine", done.quarantine_id or 0)
        self.ctx.bus.changed.emit("bite_report", done.bite_report_id)
