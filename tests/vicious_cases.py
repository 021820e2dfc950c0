"""Builders shared by the vicious-animal tests (services and screens)."""

from __future__ import annotations

from datetime import timedelta

from support import local

from fieldops.rules import vicious as rules
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person
from fieldops.services.vicious.declaring import (
    DeclarationInput,
    Finding,
    IncidentInput,
    declare,
)
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import OutcomeInput, StepInput, add_step, record_outcome

HOSTILE = "O'Brien & <Sons>"


def no_exceptions(**applies: str) -> dict[str, Finding]:
    """A finding on every exception: none applies, except those named (code -> why)."""
    return {
        c: Finding(c in applies, applies.get(c, "Not so on the facts.")) for c in rules.EXCEPTIONS
    }


def owner_and_dog(db, actor, today, owner_name="Ana Ruiz", dog="Rex"):
    owner = create_person(
        db,
        actor,
        PersonInput(full_name=owner_name, address="12 Elm St", city="Madison", postal_code="53703"),
    )
    animal = create_animal(
        db,
        actor,
        AnimalInput(species="dog", name=dog, breed="Beagle", colour="brown", owner_id=owner.id),
        today=today,
    )
    return owner, animal


def declaration(
    animal_id, *, applies: dict[str, str] | None = None, decided_at=None, grounds=("bit_or_clawed",)
) -> DeclarationInput:
    decided_at = decided_at or local(2026, 11, 2, 9)
    return DeclarationInput(
        animal_id=animal_id,
        owner_id=None,
        officer="Off. Dana Lee",
        decided_at=decided_at,
        grounds=tuple(grounds),
        findings=no_exceptions(**(applies or {})),
        incidents=(
            IncidentInput(
                decided_at - timedelta(hours=16), "Elm & 3rd", "Bit a jogger on the calf."
            ),
        ),
    )


def declared(db, actor, profile, animal_id, **kw):
    return declare(db, actor, declaration(animal_id, **kw), profile)


def with_step(db, actor, profile, animal_id, kind, due_on):
    """A case declared, its notice served in person on Tue 3 Nov 2026 and not complied
    with, and a next step of ``kind`` due ``due_on``: the case's view after the step."""
    case = declared(db, actor, profile, animal_id)
    serve_notice(
        db,
        actor,
        case.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    record_outcome(db, actor, case.id, OutcomeInput("not_complied", local(2026, 11, 5, 9)), profile)
    return add_step(db, actor, case.id, StepInput(kind, due_on), profile)
