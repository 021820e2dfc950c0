"""Opening impoundments and the intake form from anywhere in the app.

The record is read through a task and its dialog opens without a nested
event loop. An impoundment already open is raised rather than opened twice.
The dialogs import each other, so the imports are made at call time.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.impounds import get_impoundment
from ui.context import AppContext


def open_impoundment(ctx: AppContext, impoundment_id: int, parent: QWidget) -> None:
    from ui.impounds.record_dialog import ImpoundmentDialog

    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, ImpoundmentDialog)
            and widget.isVisible()
            and widget.impoundment_id() == impoundment_id
        ):
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        get_impoundment,
        ctx.db,
        impoundment_id,
        ctx.profile,
        ctx.now(),
        owner=parent,
        on_done=lambda view: _show(ImpoundmentDialog(ctx, view, parent)),
    )


def new_intake(ctx: AppContext, parent: QWidget) -> QDialog:
    from ui.impounds.intake_dialog import IntakeDialog

    dialog = IntakeDialog(ctx, parent)
    dialog.saved.connect(lambda view: open_impoundment(ctx, view.id, parent))
    return _show(dialog)


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


# The pound's records, for ui.modules.open_record (the key is fieldops.services.pound.KEY).
OPENERS = {("impound", "impoundment"): open_impoundment}
