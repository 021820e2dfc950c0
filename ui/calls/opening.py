"""Opening calls and the quick call form from anywhere in the app."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.calls.records import get_call
from ui.context import AppContext


def open_call(ctx: AppContext, call_id: int, parent: QWidget) -> None:
    from ui.calls.call_dialog import CallDialog

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, CallDialog) and widget.isVisible() and widget.call_id() == call_id:
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        get_call,
        ctx.db,
        call_id,
        owner=parent,
        on_done=lambda view: _show(CallDialog(ctx, view, parent)),
    )


def open_citation(ctx: AppContext, citation_id: int, parent: QWidget) -> None:
    """A citation opens the call it was issued on (Today's "citation unpaid")."""
    from fieldops.services.calls.citations import citation_call

    def opened(call_id: int | None) -> None:
        if call_id is None:
            ctx.errors.tell(f"Citation #{citation_id} was issued without a call.", parent)
        else:
            open_call(ctx, call_id, parent)

    ctx.tasks.run(citation_call, ctx.db, citation_id, owner=parent, on_done=opened)


def new_call(ctx: AppContext, parent: QWidget, **_prefill: object) -> QDialog:
    from ui.calls.call_form import CallForm

    dialog = CallForm(ctx, parent)
    dialog.saved.connect(lambda view: open_call(ctx, view.id, parent))
    return _show(dialog)


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


# The module's records, for ui.modules.open_record (fieldops.services.calls.module.KEY).
OPENERS = {("call", "call"): open_call, ("call", "citation"): open_citation}
CREATORS = {("call", "call"): new_call}
