"""Opening people and animals in their dialogs, from anywhere in the app.

A record is fetched through a task (a few milliseconds, but it still should
not hold the GUI thread while the database is busy) and its dialog opens
window-modal without a nested event loop. The dialogs open each other (a
person's animal, an animal's owner) through ``ui.modules``, never by
importing this file, so it can import them.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QWidget

from fieldops.services.animals import get_animal
from fieldops.services.people import get_person
from ui.context import AppContext
from ui.people.animal_dialog import AnimalDialog
from ui.people.person_dialog import PersonDialog


def open_person(ctx: AppContext, person_id: int, parent: QWidget) -> None:
    ctx.tasks.run(
        get_person,
        ctx.db,
        person_id,
        owner=parent,
        on_done=lambda view: _show(_person_dialog(ctx, view, parent)),
    )


def open_animal(ctx: AppContext, animal_id: int, parent: QWidget) -> None:
    ctx.tasks.run(
        get_animal,
        ctx.db,
        animal_id,
        owner=parent,
        on_done=lambda view: _show(_animal_dialog(ctx, view, parent)),
    )


def new_person(ctx: AppContext, parent: QWidget) -> QDialog:
    return _show(_person_dialog(ctx, None, parent))


def new_animal(ctx: AppContext, parent: QWidget, owner: tuple[int, str] | None = None) -> QDialog:
    return _show(AnimalDialog(ctx, None, parent, owner=owner))


def _person_dialog(ctx: AppContext, view, parent: QWidget) -> QDialog:
    return PersonDialog(ctx, view, parent)


def _animal_dialog(ctx: AppContext, view, parent: QWidget) -> QDialog:
    return AnimalDialog(ctx, view, parent)


def _show(dialog: QDialog) -> QDialog:
    dialog.open()
    return dialog


# The shared registry's records, for ui.modules.open_record.
OPENERS = {("registry", "person"): open_person, ("registry", "animal"): open_animal}
CREATORS = {("registry", "person"): new_person, ("registry", "animal"): new_animal}
