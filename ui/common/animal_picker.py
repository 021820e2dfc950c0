"""Choosing a registry animal by searching, without a mouse: the animal picker, and a
field showing the chosen animal with Choose… and Clear (as ``PersonField`` for people)."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import (
    QSizePolicy,
    QWidget,
)

from fieldops.services.animals import AnimalRow, animals_page, count_animals
from ui.common.registry_picker import RegistryField, RegistryPickerDialog
from ui.common.table_models import Column
from ui.common.text import SPECIES
from ui.context import AppContext


def animal_label(row: AnimalRow) -> str:
    """An animal in a few words: "Rex, dog, Beagle" (as the record names it)."""
    parts = (row.name or "(no name)", SPECIES.get(row.species, row.species), row.breed)
    return ", ".join(x for x in parts if x)


ANIMAL_COLUMNS = (
    Column("Name", lambda r: r.name or "(no name)", 120),
    Column("Species", lambda r: SPECIES.get(r.species, r.species), 70),
    Column("Breed", lambda r: r.breed, 140),
    Column("Colour", lambda r: r.colour, 110),
    Column("Microchip", lambda r: r.microchip, 140),
    Column("Licence", lambda r: r.licence_number, 100),
    Column("Owner", lambda r: r.owner_name),
)


class AnimalPickerDialog(RegistryPickerDialog):
    """Search by name, breed, colour, microchip, licence or owner; Enter (or Choose)
    picks the highlighted animal."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(
            ctx,
            parent,
            name="AnimalPickerDialog",
            title="Choose an animal",
            placeholder="Name, breed, colour, microchip, licence or owner",
            columns=ANIMAL_COLUMNS,
            count=partial(count_animals, ctx.db),
            page=partial(animals_page, ctx.db),
            words=animal_label,
        )


class AnimalField(RegistryField):
    """Which animal: a read-only label with Choose… (the animal picker) and Clear."""

    picker_class = AnimalPickerDialog

    def __init__(self, ctx: AppContext, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(ctx, placeholder, parent)
        # An animal in words is long ("Tom (cat, Maine Coon mix, tan) (#1)"): take the width.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def animal_id(self) -> int | None:
        return self.chosen_id()

    def animal_name(self) -> str:
        return self.name.text()

    def set_animal(self, animal_id: int | None, label: str) -> None:
        self.set_chosen(animal_id, label)
