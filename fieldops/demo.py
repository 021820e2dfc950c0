"""``fieldops demo``: realistic, deterministic demo data.

The same seed and the same anchor day give the same records. The shared
registry (clinics, people, animals) is written here; then every installed
module (``fieldops.modules``) writes its own records relative to the anchor
(today by default), so that every state shows on the screens (the pound's:
``fieldops.services.pound_demo``). Everything goes
through the services, audited, except the bulk of a large people list, which
is inserted in one transaction with its audit events (the same records the
service would write, appended to the chain by the same writer) so a
million-person registry loads in reasonable time.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from sqlalchemy import insert

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.db.models import Clinic, Person
from fieldops.db.search import phone_search_text
from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, VaccinationInput, add_vaccination, create_animal
from fieldops.services.context import Actor, AuditRecord, append_audit, now
from fieldops.services.people import PersonInput, create_person, sort_name

FIRST = [
    "Ana",
    "Bea",
    "Carl",
    "Dana",
    "Eli",
    "Faye",
    "Gus",
    "Hana",
    "Ivan",
    "Jada",
    "Kofi",
    "Lena",
    "Marco",
    "Nia",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sam",
    "Tara",
    "Uma",
    "Vic",
    "Wes",
    "Xena",
    "Yusuf",
    "Zoe",
    "Maria",
    "James",
    "Linh",
    "Tomasz",
    "Aisha",
    "Pedro",
    "Greta",
]
LAST = [
    "Ruiz",
    "Quinn",
    "Olson",
    "Nguyen",
    "Schmidt",
    "Johnson",
    "Hansen",
    "Garcia",
    "Kowalski",
    "Larsen",
    "Miller",
    "Brown",
    "Anderson",
    "Peterson",
    "Yang",
    "Vang",
    "Thao",
    "Lee",
    "Novak",
    "Fischer",
    "Weber",
    "Jensen",
    "Lopez",
    "Okafor",
    "Patel",
    "O'Brien",
    "Müller",
]
STREETS = [
    "Elm St",
    "Oak Ave",
    "Johnson St",
    "Williamson St",
    "Park St",
    "Monroe St",
    "Atwood Ave",
    "Regent St",
    "Mineral Point Rd",
    "University Ave",
    "Fish Hatchery Rd",
    "Sherman Ave",
    "Commercial Ave",
]
DOG_BREEDS = [
    "Beagle",
    "Labrador mix",
    "German Shepherd",
    "Pit bull mix",
    "Boxer",
    "Husky",
    "Chihuahua",
    "Border Collie",
    "Golden Retriever",
    "Dachshund",
]
CAT_BREEDS = ["Domestic shorthair", "Domestic longhair", "Siamese mix", "Maine Coon mix"]
COLOURS = [
    "black",
    "white",
    "brown",
    "tan",
    "brindle",
    "grey tabby",
    "orange",
    "tricolour",
    "black and white",
]
DOG_NAMES = [
    "Rex",
    "Bella",
    "Max",
    "Luna",
    "Charlie",
    "Daisy",
    "Rocky",
    "Sadie",
    "Buddy",
    "Molly",
    "Zeus",
    "Penny",
]
CAT_NAMES = ["Tom", "Mittens", "Cleo", "Simba", "Nala", "Oliver", "Pumpkin", "Shadow"]


def _person(rng: random.Random, i: int) -> PersonInput:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return PersonInput(
        full_name=f"{first} {last}",
        address=f"{rng.randint(1, 4999)} {rng.choice(STREETS)}",
        city="Madison",
        postal_code=f"537{rng.randint(0, 19):02d}",
        in_city=rng.random() < 0.9,
        phone=f"608-555-{rng.randint(0, 9999):04d}",
        email=f"{first.lower()}.{last.lower().replace(chr(39), '')}{i}@example.org"
        if rng.random() < 0.5
        else "",
    )


def _bulk_people(db: Database, actor: Actor, rng: random.Random, count: int, start: int) -> None:
    """Insert many people at once, each with the audit row the service would write."""
    at = now()
    batch = 20_000
    for first in range(0, count, batch):
        rows = []
        for i in range(first, min(first + batch, count)):
            p = _person(rng, start + i)
            rows.append(
                {
                    **p.__dict__,
                    "sort_name": sort_name(p.full_name),
                    "search_phone": phone_search_text(p.phone),
                    "created_at": at,
                    "updated_at": at,
                    "version": 1,
                }
            )
        with db.write() as s:
            ids = s.scalars(insert(Person).returning(Person.id), rows).all()
            append_audit(
                s,
                actor,
                [
                    AuditRecord(
                        "create",
                        "person",
                        pid,
                        after={k: r[k] for k in PersonInput.__dataclass_fields__},
                        reason="demo",
                    )
                    for pid, r in zip(ids, rows, strict=True)
                ],
            )


def fill(
    db: Database,
    actor: Actor,
    *,
    seed: int = 1,
    people: int = 200,
    anchor: date | None = None,
    profile: Profile | None = None,
) -> str:
    """Write demo data; returns a one-line summary."""
    profile = profile or Profile.default()
    rng = random.Random(seed)
    anchor = anchor or now().astimezone(profile.timezone).date()
    today = anchor
    with db.write() as s:
        for name in ("Eastside Veterinary Clinic", "Lakeview Animal Hospital"):
            if not s.query(Clinic).filter_by(name=name).first():
                s.add(Clinic(name=name, address="100 Clinic Way, Madison", licensed=True))
    detailed = min(people, 200)
    persons = [create_person(db, actor, _person(rng, i)) for i in range(detailed)]
    if people > detailed:
        _bulk_people(db, actor, rng, people - detailed, detailed)
    animals = []
    for i, owner in enumerate(persons):
        if rng.random() > 0.6:
            continue
        dog = rng.random() < 0.65
        inp = AnimalInput(
            species="dog" if dog else "cat",
            name=rng.choice(DOG_NAMES if dog else CAT_NAMES),
            breed=rng.choice(DOG_BREEDS if dog else CAT_BREEDS),
            colour=rng.choice(COLOURS),
            sex=rng.choice(("male", "female")),
            altered=rng.random() < 0.7,
            birth_date=today - timedelta(days=rng.randint(120, 4000)),
            microchip=f"985112{seed % 1000:03d}{i:06d}" if rng.random() < 0.5 else "",
            licence_number=f"D-{today.year}-{i:04d}" if dog and rng.random() < 0.5 else "",
            licence_year=today.year if dog else None,
            owner_id=owner.id,
        )
        if not inp.licence_number:
            inp = AnimalInput(**{**inp.__dict__, "licence_year": None})
        a = create_animal(db, actor, inp, today=today)
        if rng.random() < 0.6:
            given = today - timedelta(days=rng.randint(30, 900))
            a = add_vaccination(
                db,
                actor,
                a.id,
                VaccinationInput(
                    given,
                    given + timedelta(days=3 * 365),
                    f"RV-{rng.randint(10000, 99999)}",
                    "Dr. Kim, Eastside Veterinary Clinic",
                ),
                today=today,
            )
        animals.append(a)
    shared = modules.Demo(db, actor, rng, anchor, profile, tuple(persons), tuple(animals))
    parts = [f"{people} people", f"{len(animals)} animals"]
    for m in modules.installed_modules():
        if m.demo is not None and (part := m.demo(shared)):
            parts.append(part)
    return f"{', '.join(parts)} (seed {seed}, anchored on {anchor.isoformat()})"


__all__ = ["fill"]
