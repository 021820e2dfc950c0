"""Demo vicious-animal cases in every state, relative to the anchor day, through the services.

Refused for an exception; declared with no notice yet; notice served in person (expiring
within a day); posted after the owner refused it (expired, no outcome: overdue); complied
by removal; destroyed; not complied, with a court action due; withdrawn.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from fieldops.modules import Demo
from fieldops.permissions import Permission, has_permission
from fieldops.rules import Profile
from fieldops.rules import vicious as rules
from fieldops.services.context import now

if TYPE_CHECKING:  # imported where used at run time, as the module's services are
    from fieldops.services.animals import AnimalView
    from fieldops.services.vicious.declaring import Finding
    from fieldops.services.vicious.views import CaseView

OFFICERS = ("Off. Dana Lee", "Off. Marco Vang", "Off. Greta Hansen")
PLACES = (
    "the sidewalk in front of 412 Elm St",
    "Brittingham Park, by the shelter house",
    "the alley behind 18 Oak Ave",
    "the front yard of 7 Birch Ct",
    "the bike path at Monroe St",
)
WHAT = (
    "Bit a jogger on the left calf; two puncture wounds, treated at the clinic.",
    "Ran at a mail carrier growling and snapping; she climbed onto a car to escape.",
    "Attacked a leashed dog, which needed stitches; the owner was bitten separating them.",
    "Lunged over the fence and bit a child's arm; the skin was broken.",
)


def _at(day: date, hour: int, profile: Profile, minute: int = 15) -> datetime:
    return min(
        datetime.combine(day, time(hour, minute), profile.timezone).astimezone(UTC),
        now() - timedelta(minutes=10),
    )


def _findings(applies: str | None = None, why: str = "") -> dict[str, Finding]:
    from fieldops.services.vicious.declaring import Finding

    return {
        code: Finding(code == applies, why if code == applies else "Not so on the facts.")
        for code in rules.EXCEPTIONS
    }


def cases(d: Demo) -> int:
    from fieldops.services.vicious.declaring import (
        DeclarationInput,
        IncidentInput,
        animal_incidents,
        declare,
    )
    from fieldops.services.vicious.notices import NoticeInput, serve_notice
    from fieldops.services.vicious.outcomes import (
        EndingInput,
        OutcomeInput,
        StepInput,
        add_step,
        end_declaration,
        record_outcome,
    )

    dogs = [a for a in d.animals if a.species == "dog" and a.owner_id is not None]
    if len(dogs) < 8:
        return 0
    rng, p, today = d.rng, d.profile, d.anchor
    pool = dogs[-8:]
    addresses = {x.id: x for x in d.people}
    written = 0

    def case(
        animal: AnimalView, days_ago: int, applies: str | None = None, why: str = ""
    ) -> CaseView:
        nonlocal written
        when = _at(today - timedelta(days=days_ago), rng.randint(9, 15), p)
        inc = IncidentInput(
            when - timedelta(days=1, hours=rng.randint(1, 6)), rng.choice(PLACES), rng.choice(WHAT)
        )
        # A bite report of the animal on file (the quarantine module's demo) is linked.
        on_file = [i for i in animal_incidents(d.db, animal.id) if i.when < when]
        linked = tuple(
            IncidentInput(None, "", "", linked=(i.module, i.kind, i.record_id)) for i in on_file[:1]
        )
        grounds = (
            ("bit_or_clawed",) if rng.random() < 0.7 else ("bit_or_clawed", "known_propensity")
        )
        view = declare(
            d.db,
            d.actor,
            DeclarationInput(
                animal.id,
                animal.owner_id,
                rng.choice(OFFICERS),
                when,
                grounds,
                _findings(applies, why),
                (*linked, inc),
            ),
            p,
        )
        written += 1
        return view

    def door(animal: AnimalView) -> str:
        owner = addresses.get(animal.owner_id)
        return owner.address if owner is not None and owner.address else "the owner's residence"

    case(
        pool[0],
        20,
        "provoked_by_person",
        "Witnesses saw the victim strike the dog with a stick before it bit.",
    )
    case(pool[1], 1)
    served = case(pool[2], 2)
    serve_notice(
        d.db,
        d.actor,
        served.id,
        NoticeInput("in_person", now() - timedelta(hours=30), OFFICERS[0], door(pool[2])),
        p,
    )
    posted = case(pool[3], 9)
    serve_notice(
        d.db,
        d.actor,
        posted.id,
        NoticeInput(
            "posted",
            _at(today - timedelta(days=8), 16, p),
            OFFICERS[1],
            door(pool[3]),
            "The owner refused the notice at the door; posted on the front door.",
        ),
        p,
    )
    for n, (kind, extra) in enumerate(
        (
            (
                "removed",
                {
                    "removed_to": "The owner's brother, 1220 County Rd K, Verona",
                    "confirmed_how": "Called the Verona police, who saw the dog there.",
                },
            ),
            (
                "destroyed",
                {
                    "by_whom": "Dr. Kim, Eastside Veterinary Clinic",
                    "proof": "The clinic's euthanasia record no. 4471, copy on file.",
                },
            ),
            ("not_complied", {}),
        )
    ):
        animal = pool[4 + n]
        v = case(animal, 30 + 5 * n)
        notice = serve_notice(
            d.db,
            d.actor,
            v.id,
            NoticeInput(
                "in_person",
                _at(today - timedelta(days=29 + 5 * n), 11, p),
                OFFICERS[2],
                door(animal),
            ),
            p,
        ).notice
        assert notice is not None
        at = notice.deadline + (
            timedelta(hours=2) if kind == "not_complied" else -timedelta(hours=20)
        )
        record_outcome(d.db, d.actor, v.id, OutcomeInput(kind, at, **extra), p)
        if kind == "not_complied":
            add_step(
                d.db,
                d.actor,
                v.id,
                StepInput(
                    "court_action",
                    today - timedelta(days=1),
                    "File in circuit court for an order authorizing destruction (58-524(c)(3)).",
                ),
                p,
            )
            add_step(
                d.db,
                d.actor,
                v.id,
                StepInput(
                    "seizure",
                    today + timedelta(days=3),
                    "Seize the dog if found off the owner's premises (58-524(c)(1)).",
                ),
                p,
            )
    with d.db.read() as s:
        may_end = has_permission(s, d.actor, Permission.OVERRIDES)
    if may_end:
        ended = case(pool[7], 40)
        end_declaration(
            d.db,
            d.actor,
            ended.id,
            EndingInput(
                "overturned",
                today - timedelta(days=10),
                "Dane County Circuit Court",
                "The court found the dog was provoked (58-524(a)(2)b(iii)).",
            ),
            p,
        )
    return written
