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


def intake_from(ctx: AppContext, parent: QWidget, **known: object) -> QDialog:
    """The intake form filled with what another record knows (a field call): the place,
    the owner, the animal when it is a registry animal, the officer and notes; the clerk
    checks and completes it."""
    dialog = new_intake(ctx, parent)
    dialog.found_place.setText(str(known.get("found_place") or ""))  # type: ignore[attr-defined]
    dialog.notes.setPlainText(str(known.get("notes") or ""))  # type: ignore[attr-defined]
    dialog.officer.setEditText(str(known.get("officer") or ""))  # type: ignore[attr-defined]
    if isinstance(known.get("owner_id"), int):
        dialog.owner.set_person(known["owner_id"], str(known.get("owner_name") or ""))  # type: ignore[attr-defined]
    if isinstance(known.get("animal_id"), int):
        dialog.use_registry_animal(known["animal_id"])  # type: ignore[attr-defined]
    return dialog


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


def open_past_hold(ctx: AppContext, _unused: int, parent: QWidget) -> None:
    """Today's count of animals held past their hold opens the impounds list on the same
    animals (``fieldops.services.pound.today_items``)."""
    window = parent.window()
    if hasattr(window, "show_area"):
        page = window.show_area("impounds")
        if hasattr(page, "show_only_status"):
            page.show_only_status("past_hold")


# The pound's records, for ui.modules.open_record (the key is fieldops.services.pound.KEY).
OPENERS = {
    ("impound", "impoundment"): open_impoundment,
    ("impound", "list_past_hold"): open_past_hold,
}
CREATORS = {("impound", "impoundment"): intake_from}
