"""Demo field calls in every kind and state, relative to the anchor day, through the services.

Calls waiting for an officer, dispatched without an outcome, closed with every outcome,
follow-ups due and a recheck; a barking complaint with the owner's notice, a refused and
an accepted petition; a repeat offender's citations climbing the ladder (one unpaid past
its court date); cautions on a person and an address.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from fieldops.modules import Demo
from fieldops.rules import Profile, local_date
from fieldops.rules import calls as rules
from fieldops.services.context import now

STREETS = ("Elm St", "Oak Ave", "Birch Ct", "Monroe St", "Park St", "Willow Ln", "Main St")
WHAT = {
    "at_large": "Brown dog running loose in the street, no collar seen.",
    "bite": "A dog bit a neighbour's child through the fence.",
    "vicious": "Dog lunges at people walking past; chased a mail carrier.",
    "noise": "Dog barking for hours every night, since last week.",
    "waste": "Dog waste piling up in the yard; smell reaches the sidewalk.",
    "wild": "Raccoon in a garage acting strangely in daylight.",
    "not_allowed": "Goats kept in a back yard in a residential district.",
    "welfare": "Dog left outside without water or shade.",
    "dead": "Dead deer on the road shoulder.",
    "other": "Caller asks what to do about a stray cat colony.",
}


def _at(day: date, hour: int, profile: Profile, minute: int = 10) -> datetime:
    return min(
        datetime.combine(day, time(hour, minute), profile.timezone).astimezone(UTC),
        now() - timedelta(minutes=30),
    )


def fill(d: Demo) -> int:
    from fieldops.services.calls.citations import CitationInput, cite, update_citation
    from fieldops.services.calls.complaints import (
        PetitionInput,
        file_petition,
        log_complaint,
        record_notification,
    )
    from fieldops.services.calls.dispatching import (
        DispatchUpdate,
        dispatch,
        field_officers,
        update_dispatch,
    )
    from fieldops.services.calls.flags import set_flag
    from fieldops.services.calls.records import CallInput, create_call, open_recheck

    db, actor, rng, anchor, profile = d.db, d.actor, d.rng, d.anchor, d.profile
    officers = [u for u, _ in field_officers(db)] or [actor.username]
    people = list(d.people)
    if len(people) < 4:
        return 0
    outcomes = list(rules.OUTCOMES)
    count = 0

    def new_call(kind: str, days_ago: int, n: int) -> int:
        nonlocal count
        person = people[n % len(people)]
        address = person.address or f"{100 + n} {STREETS[n % len(STREETS)]}"
        inp = CallInput(
            received_at=_at(anchor - timedelta(days=days_ago), 8 + n % 9, profile),
            received_how=("phone", "walk_in", "police")[n % 3],
            kind=kind,
            address=address,
            priority=(1, 2, 3)[n % 3] if kind not in ("bite", "vicious") else 1,
            place=("Back yard", "Front sidewalk", "Alley behind the garage", "")[n % 4],
            description=WHAT[kind],
            anonymous=n % 5 == 4,
            caller_id=None if n % 5 == 4 else people[(n + 1) % len(people)].id,
            owner_id=person.id if kind not in ("wild", "dead") else None,
            animal_description="" if kind != "at_large" else "Brown mixed breed, medium",
        )
        count += 1
        return create_call(db, actor, inp).id

    n = 0
    for kind in rules.CALL_KINDS:
        for state in ("open", "dispatched", "closed"):
            n += 1
            days_ago = 0 if state == "open" else rng.randint(1, 20)
            call_id = new_call(kind, days_ago, n)
            if state == "open":
                continue
            view = dispatch(
                db,
                actor,
                call_id,
                1,
                officers[n % len(officers)],
                _at(anchor - timedelta(days=days_ago), 9 + n % 9, profile, 30),
            )
            if state == "dispatched":
                continue
            sent = view.dispatches[-1].sent_at
            outcome = outcomes[n % len(outcomes)]
            follow = (
                anchor + timedelta(days=(n % 4) - 2) if outcome in ("warned", "cited") else None
            )
            if follow is not None and follow < local_date(sent, profile):
                follow = local_date(sent, profile)
            update_dispatch(
                db,
                actor,
                view.dispatches[-1].id,
                view.dispatches[-1].version,
                DispatchUpdate(
                    arrived_at=sent + timedelta(minutes=25),
                    cleared_at=sent + timedelta(minutes=55),
                    outcome=outcome,
                    follow_up_on=follow,
                    notes="Spoke with the resident." if outcome == "warned" else "",
                ),
                profile,
            )
            if follow is not None and n % 2 == 0:
                open_recheck(db, actor, call_id)
                count += 1

    # A barking complaint through the owner's notice and two petitions.
    owner = people[2]
    call_id = new_call("noise", 30, 2)
    view = log_complaint(
        db,
        actor,
        call_id,
        complainant=people[3].full_name,
        alleged="Habitual barking at night (58-531).",
        logged_at=_at(anchor - timedelta(days=30), 10, profile),
    )
    complaint = view.complaints[-1]
    record_notification(
        db,
        actor,
        complaint.id,
        complaint.version,
        how="mail",
        at=_at(anchor - timedelta(days=29), 11, profile),
    )
    parts = PetitionInput(
        received_on=anchor - timedelta(days=12),
        petitioners=f"{people[3].full_name}, 555-0101, {people[3].address}",
        animal=f"Black Labrador; owner {owner.full_name}, {owner.address}",
        violations="Barking 10 pm to 2 am on several nights in a row, audible two houses away.",
    )
    file_petition(db, actor, complaint.id, parts, record_refusal=True, profile=profile)
    file_petition(
        db,
        actor,
        complaint.id,
        PetitionInput(
            received_on=anchor - timedelta(days=5),
            petitioners=parts.petitioners,
            animal=parts.animal,
            violations=parts.violations,
            reported_on="Reported by phone on the nights in question",
            will_testify=True,
            referred_to="police",
            referred_on=anchor - timedelta(days=4),
        ),
        profile=profile,
    )
    # The repeat offender: a first citation, then a violation continuing two days.
    first = cite(
        db,
        actor,
        CitationInput(
            owner.id,
            "58-531",
            (anchor - timedelta(days=60),),
            officers[0],
            call_id=call_id,
            address=owner.address,
            court_on=anchor - timedelta(days=30),
        ),
        profile,
    )
    update_citation(
        db,
        actor,
        first[0].id,
        first[0].version,
        court_on=first[0].court_on,
        paid_on=anchor - timedelta(days=40),
        profile=profile,
    )
    cite(
        db,
        actor,
        CitationInput(
            owner.id,
            "58-531",
            (anchor - timedelta(days=3), anchor - timedelta(days=2)),
            officers[0],
            call_id=call_id,
            address=owner.address,
            court_on=anchor - timedelta(days=1),
            description="Barking continued on consecutive nights after the petition.",
        ),
        profile,
    )
    set_flag(
        db, actor, person_id=people[0].id, reason="Threatened an officer at the door; go in pairs."
    )
    set_flag(
        db,
        actor,
        address=people[1].address or "7 Birch Ct",
        reason="Large dog that has attacked a meter reader; loose in the yard.",
    )
    return count + _involved(d) + fill_actions(d)


def _involved(d: Demo) -> int:
    """Calls with two or three further people and animals involved: a bite with its
    victim, a witness and a second dog; a dog attack on a cat with the keeper; two dogs
    at large together."""
    from fieldops.services.calls.parties import PartyInput
    from fieldops.services.calls.records import CallInput, create_call

    people, animals = list(d.people), list(d.animals)
    if len(people) < 6 or len(animals) < 3:
        return 0
    at = _at(d.anchor - timedelta(days=1), 15, d.profile)
    calls = (
        (
            "bite",
            people[4],
            animals[0],
            (
                PartyInput("person", "victim", description="Boy, about 10, bitten on the hand"),
                PartyInput("person", "witness", person_id=people[5].id, notes="Saw it happen"),
                PartyInput("animal", "other", animal_id=animals[1].id, notes="Was with the dog"),
            ),
        ),
        (
            "vicious",
            people[5],
            animals[1],
            (
                PartyInput("animal", "victim", description="Grey tabby cat, injured"),
                PartyInput("person", "keeper", person_id=people[4].id, notes="Walking the dog"),
            ),
        ),
        (
            "at_large",
            None,
            animals[2],
            (
                PartyInput("animal", "subject", description="Second dog, black, no collar"),
                PartyInput("person", "witness", description="Mail carrier on the route"),
            ),
        ),
    )
    for n, (kind, owner, animal, parties) in enumerate(calls):
        create_call(
            d.db,
            d.actor,
            CallInput(
                received_at=at + timedelta(minutes=40 * n),
                received_how="phone",
                kind=kind,
                address=(owner.address if owner else "") or f"{300 + n} {STREETS[n]}",
                priority=1 if kind in ("bite", "vicious") else 2,
                description=WHAT[kind],
                caller_id=people[3].id,
                owner_id=owner.id if owner else None,
                animal_id=animal.id,
                parties=parties,
            ),
        )
    return len(calls)


def fill_actions(d: Demo) -> int:
    """The call actions: a bite call linked to a bite report on file (found through the
    seam), a follow-up recorded as done, and a citation voided by a supervisor."""
    from fieldops import modules
    from fieldops.services.calls.citation_corrections import void_citation
    from fieldops.services.calls.citations import CitationInput, cite
    from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
    from fieldops.services.calls.followups import record_follow_up
    from fieldops.services.calls.links import link_record
    from fieldops.services.calls.records import CallInput, create_call

    db, actor, anchor, profile = d.db, d.actor, d.anchor, d.profile
    people = list(d.people)
    made = 0
    with db.read() as s:
        bite = next(
            (
                i
                for a in d.animals
                for i in modules.animal_incidents(s, a.id)
                if (i.module, i.kind) == ("quarantine", "bite")
            ),
            None,
        )
    if bite is not None:
        call = create_call(
            db,
            actor,
            CallInput(
                received_at=min(bite.when, now() - timedelta(minutes=30)),
                received_how="phone",
                kind="bite",
                address=bite.place or "Address not given",
                priority=1,
                description=f"{WHAT['bite']} ({bite.summary})",
                caller_name="Demo caller",
            ),
        )
        link_record(db, actor, call.id, bite.module, bite.kind, bite.record_id)
        made += 1
    # A warning whose follow-up visit found the problem fixed.
    person = people[4 % len(people)]
    call = create_call(
        db,
        actor,
        CallInput(
            received_at=_at(anchor - timedelta(days=6), 9, profile),
            received_how="phone",
            kind="waste",
            address=person.address or "15 Park St",
            description=WHAT["waste"],
            caller_name="Demo caller",
            owner_id=person.id,
        ),
    )
    sent = _at(anchor - timedelta(days=6), 10, profile)
    v = dispatch(db, actor, call.id, call.version, actor.username, sent)
    dv = v.dispatches[-1]
    v = update_dispatch(
        db,
        actor,
        dv.id,
        dv.version,
        DispatchUpdate(
            arrived_at=sent + timedelta(minutes=20),
            cleared_at=sent + timedelta(minutes=45),
            outcome="warned",
            follow_up_on=anchor - timedelta(days=2),
        ),
        profile,
    )
    record_follow_up(
        db,
        actor,
        call.id,
        v.version,
        done_at=min(_at(anchor - timedelta(days=2), 11, profile), now() - timedelta(minutes=5)),
        done_by=actor.username,
        note="Yard cleaned up; owner says it will be kept so.",
        outcome="no_violation",
    )
    made += 1
    # A citation written for the wrong resident, voided (it stays on record).
    (wrong,) = cite(
        db,
        actor,
        CitationInput(
            person.id,
            "58-529",
            (anchor - timedelta(days=5),),
            actor.full_name or actor.username,
            call_id=call.id,
            address=person.address,
        ),
        profile,
    )
    void_citation(db, actor, wrong.id, wrong.version, "Issued to the wrong resident of the house.")
    return made
