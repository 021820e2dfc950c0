"""Opening vicious-animal cases and the declaration form from anywhere in the app."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.vicious.cases import load_case
from ui.context import AppContext


def open_case(ctx: AppContext, case_id: int, parent: QWidget) -> None:
    from ui.vicious.case_dialog import CaseDialog

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, CaseDialog) and widget.isVisible() and widget.case_id() == case_id:
            widget.raise_()
            widget.activateWindow()
            return
    ctx.tasks.run(
        load_case,
        ctx.db,
        case_id,
        ctx.profile,
        owner=parent,
        on_done=lambda view: _show(CaseDialog(ctx, view, parent)),
    )


def new_declaration(ctx: AppContext, parent: QWidget) -> QDialog:
    from ui.vicious.declaration_dialog import DeclarationDialog

    dialog = DeclarationDialog(ctx, parent)
    dialog.saved.connect(lambda view: open_case(ctx, view.id, parent))
    return _show(dialog)


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


# The module's records, for ui.modules.open_record (fieldops.services.vicious.module.KEY).
OPENERS = {("vicious", "case"): open_case}
