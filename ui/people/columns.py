"""How people, animals and their records show in lists."""

from __future__ import annotations

from datetime import date

from fieldops.services.animals import VaccinationView
from ui.context import AppContext
from ui.table_models import Column

SPECIES_LABELS = {"dog": "Dog", "cat": "Cat", "other": "Other"}
SEX_LABELS = {"unknown": "Unknown", "male": "Male", "female": "Female"}
ACTION_LABELS = {
    "create": "Created",
    "update": "Changed",
    "archive": "Archived",
    "add_vaccination": "Rabies vaccination added",
}


def animal_name(name: str) -> str:
    return name or "(no name)"


def species_label(species: str) -> str:
    return SPECIES_LABELS.get(species, species)


PERSON_COLUMNS = (
    Column("Name", lambda r: r.full_name, 230),
    Column("Address", lambda r: r.address, 250),
    Column("City", lambda r: r.city, 130),
    Column("Phone", lambda r: r.phone, 140),
    Column("E-mail", lambda r: r.email),
)

ANIMAL_COLUMNS = (
    Column("Name", lambda r: animal_name(r.name), 160),
    Column("Species", lambda r: species_label(r.species), 80),
    Column("Breed", lambda r: r.breed, 150),
    Column("Colour", lambda r: r.colour, 120),
    Column("Microchip", lambda r: r.microchip, 160),
    Column("Licence", lambda r: r.licence_number, 110),
    Column("Owner", lambda r: r.owner_name),
)

OWNED_ANIMAL_COLUMNS = (
    Column("Name", lambda a: animal_name(a.name), 120),
    Column("Species", lambda a: species_label(a.species), 70),
    Column("Breed", lambda a: a.breed),
)


def vaccination_columns(ctx: AppContext) -> tuple[Column, ...]:
    def status(v: VaccinationView) -> str:
        today = ctx.today()
        if v.current_on(today):
            return "Current"
        return "Expired" if v.expires_on < today else "Not yet in force"

    return (
        Column("Vaccinated on", lambda v: _day(v.vaccinated_on), 120),
        Column("Expires on", lambda v: _day(v.expires_on), 120),
        Column("Status", status, 110),
        Column("Certificate", lambda v: v.certificate_number, 140),
        Column("Veterinarian", lambda v: v.veterinarian),
    )


def history_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        Column("When", lambda h: f"{ctx.local_time(h.at):%Y-%m-%d %H:%M}", 140),
        Column("Who", lambda h: h.actor, 100),
        Column("What", lambda h: ACTION_LABELS.get(h.action, h.action.replace("_", " ")), 170),
        Column("Details", lambda h: h.summary, 380),
        Column("Reason", lambda h: h.reason),
    )


def _day(d: date) -> str:
    return d.isoformat()

