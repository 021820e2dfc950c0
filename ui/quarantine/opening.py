"""Opening quarantines, bite reports and the bite report form from anywhere in the app.

Records are read through a task; a quarantine already open is raised rather than opened
twice. The dialogs import each other, so the imports are made at call time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.quarantine import BiteView, get_bite, get_quarantine
from ui.context import AppContext

if TYPE_CHECKING:  # pragma: no cover
    from ui.quarantine.bite_dialog import BiteDialog


def open_quarantine(ctx: AppContext, quarantine_id: int, parent: QWidget) -> None:
    from ui.quarantine.record_dialog import QuarantineDialog

    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, QuarantineDialog)
            and widget.isVisible()
            and widget.quarantine_id() == quarantine_id
        ):
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        get_quarantine,
        ctx.db,
        quarantine_id,
        ctx.profile,
        ctx.today(),
        owner=parent,
        on_done=lambda view: _show(QuarantineDialog(ctx, view, parent)),
    )


def open_bite(ctx: AppContext, bite_report_id: int, parent: QWidget) -> None:
    """A bite report: its quarantine if it has one, else the referral record."""
    from ui.quarantine.referral_dialog import BiteReportDialog

    def shown(view: BiteView) -> None:
        if view.quarantine_id is not None:
            open_quarantine(ctx, view.quarantine_id, parent)
        else:
            _show(BiteReportDialog(ctx, view, parent))

    ctx.tasks.run(get_bite, ctx.db, bite_report_id, ctx.profile, owner=parent, on_done=shown)


def new_bite_report(ctx: AppContext, parent: QWidget, **prefill: object) -> QDialog:
    """The bite report form; ``prefill`` is what another record knows (a call): ``when``,
    ``place``, ``owner_id``/``owner_name``, ``animal_id``, ``animal_description``,
    ``reported_by``, ``officer``, ``notes``, ``impoundment_id``. Others are ignored."""
    from ui.quarantine.bite_dialog import BiteDialog

    dialog = BiteDialog(ctx, parent, **prefill)
    _prefill_bite(dialog, prefill)
    dialog.saved.connect(lambda r: open_bite(ctx, r.bite_report_id, parent))
    return _show(dialog)


def _prefill_bite(dialog: BiteDialog, prefill: dict[str, object]) -> None:
    from datetime import datetime

    def text(key: str) -> str:
        value = prefill.get(key)
        return value.strip() if isinstance(value, str) else ""

    when = prefill.get("when")
    if isinstance(when, datetime) and when.tzinfo is not None:
        dialog.bitten_at.set_value(when)
    for key, edit in (
        ("place", dialog.place),
        ("reported_by", dialog.reported_by),
        ("animal_description", dialog.description),
    ):
        if text(key):
            edit.setText(text(key))
    if text("officer"):
        dialog.officer.setText(text("officer"))
    if text("notes"):
        dialog.notes.setPlainText(text("notes"))
    animal_id = prefill.get("animal_id")
    if isinstance(animal_id, int):
        # The owner's animals arrive from the registry later: choose this one when it does.
        model = dialog.animal.model()

        def choose(*_args: object) -> None:
            at = dialog.animal.findData(animal_id)
            if at >= 0 and dialog.animal.currentIndex() != at:
                dialog.animal.setCurrentIndex(at)

        model.rowsInserted.connect(choose)
    owner_id = prefill.get("owner_id")
    if isinstance(owner_id, int):
        dialog.owner.set_person(owner_id, text("owner_name"))
    dialog.mark_clean()


def open_week(ctx: AppContext, parent: QWidget) -> QDialog:
    from ui.quarantine.schedule_dialog import WeekScheduleDialog

    return _show(WeekScheduleDialog(ctx, parent))


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


# The bite-quarantine module's records, for ui.modules.open_record (fieldops key "quarantine").
OPENERS = {("quarantine", "quarantine"): open_quarantine, ("quarantine", "bite"): open_bite}
CREATORS = {("quarantine", "bite_report"): new_bite_report}


def _clinics(ctx: AppContext) -> QWidget:
    from ui.quarantine.clinics import ClinicsWidget

    return ClinicsWidget(ctx)


ADMIN_SECTIONS = (_clinics,)
