"""Opening permits and the permit forms from anywhere in the app."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.permits.records import load_permit
from ui.context import AppContext


def open_permit(ctx: AppContext, permit_id: int, parent: QWidget) -> None:
    from ui.permits.record_dialog import PermitDialog

    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, PermitDialog)
            and widget.isVisible()
            and widget.permit_id() == permit_id
        ):
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        load_permit,
        ctx.db,
        permit_id,
        ctx.profile,
        owner=parent,
        on_done=lambda view: _show(PermitDialog(ctx, view, parent)),
    )


def new_chicken_permit(ctx: AppContext, parent: QWidget, **prefill: Any) -> QDialog:
    from ui.permits.chicken_dialog import ChickenPermitDialog

    dialog = ChickenPermitDialog(ctx, parent=parent)
    dialog.saved.connect(lambda view: open_permit(ctx, view.id, parent))
    return _show(dialog)


def new_fancier_permit(ctx: AppContext, parent: QWidget, **prefill: Any) -> QDialog:
    from ui.permits.fancier_dialog import FancierPermitDialog

    dialog = FancierPermitDialog(ctx, parent=parent)
    dialog.saved.connect(lambda view: open_permit(ctx, view.id, parent))
    return _show(dialog)


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


def open_expiring(ctx: AppContext, _unused: int, parent: QWidget) -> None:
    """Today's count of permits expiring opens the permits list on the same permits
    (``fieldops.services.permits.module.today_items``)."""
    window = parent.window()
    if hasattr(window, "show_area"):
        page = window.show_area("licences")
        tab = getattr(page, "permits", None)
        if tab is not None:
            page.tabs.setCurrentWidget(tab)
            tab.show_status("expiring")


# The module's records, for ui.modules.open_record (fieldops.services.permits.module.KEY).
OPENERS = {("permit", "permit"): open_permit, ("permit", "list_expiring"): open_expiring}
CREATORS = {("permit", "chicken"): new_chicken_permit, ("permit", "fancier"): new_fancier_permit}
