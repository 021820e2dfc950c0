"""How people, animals and their records show in lists."""

from __future__ import annotations

from collections.abc import Callable

from fieldops.rules import format_day, format_local
from fieldops.services.animal_record import AnimalFate, AnimalImpoundment, AnimalListRow
from fieldops.services.animals import VaccinationView
from ui.common.table_models import Column, number_column
from ui.common.text import SPECIES
from ui.context import AppContext


def animal_name(name: str) -> str:
    return name or "(no name)"


def species_label(species: str) -> str:
    return SPECIES.get(species, species)


def owner_text(name: str, former: bool) -> str:
    """The registry's owner; after a death or a transfer, as the former owner."""
    if not name:
        return ""
    return f"{name} (former owner)" if former else name


def _owner(r: AnimalListRow) -> str:
    return owner_text(r.owner_name, r.owner_is_former)


# The owner reads whole with "(former owner)"; what became of the animal (blank for
# one at home) takes the rest of the row. A two-word colour and a tag number with its
# year read whole too.
ANIMAL_COLUMNS = (
    Column("Name", lambda r: animal_name(r.name), 110),
    Column("Species", lambda r: species_label(r.species), 66),
    Column("Breed", lambda r: r.breed, 134),
    Column("Colour", lambda r: r.colour, 108, fits="black and white"),
    Column("Microchip", lambda r: r.microchip, 136),
    Column("Licence", lambda r: r.licence_number, 96, fits="D-2026-0000000"),
    Column("Owner", _owner, 200),
    Column("Status", lambda r: r.status),
)

OWNED_ANIMAL_COLUMNS = (
    Column("Name", lambda a: animal_name(a.name), 120),
    Column("Species", lambda a: species_label(a.species), 70),
    Column("Breed", lambda a: a.breed),
)


def vaccination_columns(
    ctx: AppContext, fate: Callable[[], AnimalFate | None] = lambda: None
) -> tuple[Column, ...]:
    """``fate`` says what became of the animal: a dead animal's vaccination is not "Current"."""

    def status(v: VaccinationView) -> str:
        today = ctx.today()
        ended = fate()
        if ended is not None and ended.dead and ended.at is not None:
            died_on = ended.at.astimezone(ctx.timezone).date()
            if v.vaccinated_on <= died_on:
                return "Ended (animal deceased)"
        if v.current_on(today):
            return "Current"
        return "Expired" if v.expires_on < today else "Not yet in force"

    return (
        Column("Vaccinated on", lambda v: format_day(v.vaccinated_on), 130),
        Column("Expires on", lambda v: format_day(v.expires_on), 130),
        Column("Status", status, 200),
        Column("Certificate", lambda v: v.certificate_number, 130),
        Column("Veterinarian", lambda v: v.veterinarian),
    )


def animal_impoundment_columns(ctx: AppContext) -> tuple[Column, ...]:
    def ended(r: AnimalImpoundment) -> str:
        if r.disposition_at is None:
            return ""
        return format_local(r.disposition_at, ctx.timezone)

    return (
        number_column(),
        Column("Impounded", lambda r: format_local(r.impounded_at, ctx.timezone), 215),
        Column("Status", lambda r: r.status, 150),
        Column("Ended", ended, 215),
        Column("Released to", lambda r: r.released_to, 200),
        Column("Days held", lambda r: str(r.days_held), 84),
        Column("Kennel", lambda r: r.kennel),
    )
