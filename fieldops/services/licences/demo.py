"""Demo dog licences: current (licensed last year and renewed on time), lapsed (last
year's not renewed: late after the late-fee day), late (bought after it, with the
late fee), half rate (a puppy five months old after July 1), a replaced tag, a
transfer to a new owner and a void."""

from __future__ import annotations

from datetime import date, timedelta

from fieldops.errors import UserError
from fieldops.modules import Demo
from fieldops.rules import local_date
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import now
from fieldops.services.licences.changes import replace_tag, transfer_licence, void_licence
from fieldops.services.licences.issue import LicenceInput, issue_licence


def _tag(year: int, n: int) -> str:
    return f"{year % 100:02d}-{n:04d}"


def fill(d: Demo) -> int:
    db, actor, profile = d.db, d.actor, d.profile
    today = min(d.anchor, local_date(now(), profile))
    year = today.year
    dogs = [a for a in d.animals if a.species == "dog" and a.owner_id is not None][:14]
    made = 0
    serial = iter(range(1, 10_000))

    def issue(animal_id: int, y: int, on: date, altered: bool, **kw: object) -> int | None:
        nonlocal made
        if on > today:
            return None
        try:
            view = issue_licence(
                db,
                actor,
                LicenceInput(
                    animal_id=animal_id,
                    licence_year=y,
                    tag_number=_tag(y, next(serial)),
                    applied_on=on,
                    altered=altered,
                    rabies_certificate=f"RV-{animal_id:04d}-{y}",
                    rabies_vaccinated_on=on - timedelta(days=40),
                    rabies_expires_on=on - timedelta(days=40) + timedelta(days=3 * 365),
                    **kw,  # type: ignore[arg-type]
                ),
                profile,
            )
        except UserError:
            return None  # a dog the demo's registry makes unlicensable that day
        made += 1
        return view.id

    for i, dog in enumerate(dogs):
        altered = dog.altered if dog.altered is not None else i % 2 == 0
        last = issue(dog.id, year - 1, date(year - 1, 2, 1) + timedelta(days=i), altered)
        if last is None:
            continue
        if i % 3 == 0:
            continue  # lapsed: not renewed this year
        late = i % 5 == 1
        on = date(year, 6, 15) if late else date(year, 1, 20) + timedelta(days=i)
        issue(dog.id, year, on, altered, renews_id=last)
    # A puppy of the first owner, five months old after July 1: the half rate.
    if dogs and date(year, 8, 20) <= today:
        pup = create_animal(
            db,
            actor,
            AnimalInput(
                species="dog",
                name="Pip",
                breed="Dachshund",
                sex="female",
                altered=False,
                birth_date=date(year, 3, 10),
                owner_id=dogs[0].owner_id,
            ),
            today=today,
        )
        issue(pup.id, year, date(year, 8, 20), False)
    _changes(d, year)
    return made


def _changes(d: Demo, year: int) -> None:
    """A lost tag replaced, a licence transferred and one voided: every status."""
    from sqlalchemy import select

    from fieldops.db.models import DogLicence

    with d.db.read() as s:
        current = list(
            s.scalars(
                select(DogLicence.id)
                .where(
                    DogLicence.licence_year == year,
                    DogLicence.status == "current",
                    DogLicence.late.is_(False),
                    DogLicence.half_rate.is_(False),
                )
                .order_by(DogLicence.id)
            )
        )
    others = [p.id for p in d.people]
    if len(current) < 3 or len(others) < 2:
        return
    replace_tag(d.db, d.actor, current[0], _tag(year, 9001), d.profile)
    with d.db.read() as s:
        owner = s.get(DogLicence, current[1])
        assert owner is not None
        new_owner = next(p for p in others if p != owner.owner_id)
    transfer_licence(d.db, d.actor, current[1], new_owner, d.profile)
    void_licence(d.db, d.actor, current[-1], "Issued to the wrong dog at the counter")
