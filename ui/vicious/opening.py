"""Opening vicious-animal cases and the declaration form from anywhere in the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fieldops.services.vicious.cases import load_case
from ui.context import AppContext

if TYPE_CHECKING:  # pragma: no cover
    from ui.vicious.declaration_dialog import DeclarationDialog


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


def new_declaration(ctx: AppContext, parent: QWidget, **prefill: object) -> QDialog:
    """The declaration form; ``prefill`` is what another record knows (a call): ``when``,
    ``place`` and ``description`` (its first incident), ``owner_id``/``owner_name``,
    ``animal_id``/``animal_name``, ``officer``, ``notes``. Others are ignored."""
    from ui.vicious.declaration_dialog import DeclarationDialog

    dialog = DeclarationDialog(ctx, parent)
    _prefill(dialog, prefill)
    dialog.saved.connect(lambda view: open_case(ctx, view.id, parent))
    return _show(dialog)


def _prefill(dialog: DeclarationDialog, prefill: dict[str, object]) -> None:
    from datetime import datetime

    def text(key: str) -> str:
        value = prefill.get(key)
        return value.strip() if isinstance(value, str) else ""

    animal_id, owner_id = prefill.get("animal_id"), prefill.get("owner_id")
    if isinstance(animal_id, int):
        dialog.animal.set_animal(animal_id, text("animal_name") or f"Animal #{animal_id}")
    if isinstance(owner_id, int):
        dialog.owner.set_person(owner_id, text("owner_name"))
    if text("officer"):
        dialog.officer.setText(text("officer"))
    if text("notes"):
        dialog.notes.setPlainText(text("notes"))
    incident = dialog.incident_rows[0]
    when = prefill.get("when")
    if isinstance(when, datetime) and when.tzinfo is not None:
        incident.when.set_value(when)
    if text("place"):
        incident.place.setText(text("place"))
    if text("description"):
        incident.what.setPlainText(text("description"))
    dialog.mark_clean()


def _show(dialog: QDialog) -> QDialog:
    dialog.show()
    return dialog


# The module's records, for ui.modules.open_record (fieldops.services.vicious.module.KEY).
OPENERS = {("vicious", "case"): open_case}
CREATORS = {("vicious", "case"): new_declaration}
