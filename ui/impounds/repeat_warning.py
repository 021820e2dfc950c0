"""The intake's repeat-impoundment warning (58-526(a)): asked off the GUI thread, shown
before saving, and only for the animal and time the form shows now. The same answer
says when the chosen animal would be refused (in the pound now, or dead), for the form
to show beside the animal before anything else is typed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from fieldops.services.intake_check import IntakeCheck, RepeatInfo, intake_check
from ui.common.text import day
from ui.context import AppContext

Key = tuple[int, datetime]  # the registry animal and the time of impoundment asked about
ASK_DELAY_MS = 300


def repeat_warning(info: RepeatInfo, multiplier: int) -> str:
    times = "doubled" if multiplier == 2 else f"multiplied by {multiplier}"
    return (
        f"Impounded before on {day(info.custody_day)} (#{info.impoundment_id}): "
        f"the owner's impound fee will be {times}."
    )


class RepeatWarningLabel(QLabel):
    """Says when the chosen animal was impounded inside the repeat window.

    ``current`` gives the (animal, time) the form shows now, or None for a new
    animal; an answer for anything else arrives too late and is dropped.
    ``answered(check, key)`` runs once the warning shows what the form shows.
    """

    def __init__(
        self,
        ctx: AppContext,
        current: Callable[[], Key | None],
        answered: Callable[[IntakeCheck, Key], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._current = current
        self._answered = answered
        self.info: RepeatInfo | None = None
        self.shown_for: Key | None = None
        self.setObjectName("RepeatWarning")
        self.setWordWrap(True)
        self.hide()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(ASK_DELAY_MS)
        self._timer.timeout.connect(self.check)

    def check_soon(self) -> None:
        """Ask after a pause (the time is being typed)."""
        self._timer.start()

    def check(self) -> None:
        """Ask now whether the form's animal was impounded inside the repeat window."""
        self._timer.stop()
        key = self._current()
        if key is None:
            self.show_answer(None, None)
            return
        self.ctx.tasks.run(
            intake_check,
            self.ctx.db,
            key[0],
            key[1],
            self.ctx.profile,
            owner=self,
            on_done=partial(self._on_checked, key),
        )

    def show_answer(self, info: RepeatInfo | None, key: Key | None) -> None:
        self.info, self.shown_for = info, key
        self.setVisible(info is not None)
        if info is not None:
            self.setText(repeat_warning(info, self.ctx.profile.repeat_multiplier))

    def warning(self) -> str:
        return self.text() if self.info is not None else ""

    def _on_checked(self, key: Key, check: IntakeCheck) -> None:
        if key == self._current():  # else the animal or the time changed meanwhile
            self.show_answer(check.repeat, key)
            self._answered(check, key)
