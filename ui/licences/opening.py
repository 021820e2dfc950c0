"""Opening dog licences and the licence form from anywhere in the app (Today, the
release wizard), through ``ui.modules``."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.licences.views import get_licence
from ui.context import AppContext


def open_licence(ctx: AppContext, licence_id: int, parent: QWidget) -> None:
    from ui.licences.record_dialog import LicenceDialog

    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, LicenceDialog)
            and widget.isVisible()
            and widget.licence_id() == licence_id
        ):
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        get_licence,
        ctx.db,
        licence_id,
        owner=parent,
        on_done=lambda view: _show(LicenceDialog(ctx, view, parent)),
    )


def new_licence(ctx: AppContext, parent: QWidget, **prefill: object) -> QDialog:
    """The licence form, prefilled with ``animal_id``, ``owner_id``, ``impoundment_id``."""
    from ui.licences.issue_dialog import IssueLicenceDialog

    dialog = IssueLicenceDialog(ctx, parent, **prefill)  # type: ignore[arg-type]
    return _show(dialog)


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


def _renewals_opener(show: str):  # type: ignore[no-untyped-def]
    """Today's licence counts open the licence list on that Show filter (``due_summary``)."""

    def open_list(ctx: AppContext, _year: int, parent: QWidget) -> None:
        window = parent.window()
        if hasattr(window, "show_area"):
            page = window.show_area("licences")
            page.tabs.setCurrentWidget(page.licences)
            page.licences.set_show(show)

    return open_list


# The module's key is "licence" (its due items' category prefix); the form is also known
# by the area's name, as the release wizard asks for it.
OPENERS = {("licence", "licence"): open_licence} | {
    ("licence", f"renewals_{show}"): _renewals_opener(show) for show in ("due", "late", "current")
}
CREATORS = {("licences", "licence"): new_licence, ("licence", "licence"): new_licence}
