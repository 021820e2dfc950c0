"""A record's history reads as sentences: names, amounts and local times, never codes."""

from __future__ import annotations

import re
from datetime import date
from zoneinfo import ZoneInfo

from support import local

from fieldops.services.animals import AnimalInput, update_animal
from fieldops.services.context import Actor, audit
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import (
    ReleaseRequest,
    destroy,
    record_death,
    record_escape,
    release,
    transfer,
)
from fieldops.services.fee_schedules import FeeScheduleInput, SpeciesFees, enter_fee_schedule
from fieldops.services.history import all_event_kinds, record_history
from fieldops.services.impounds import get_impoundment
from fieldops.services.intake_corrections import move_kennel
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, archive_person, create_person, update_person
from fieldops.services.staff import set_staff

CHICAGO = ZoneInfo("America/Chicago")
# What must never reach a clerk: dict and list reprs, key=value, ISO instants, raw ids.
RAW = re.compile(r"\{'|\[\{|\w+=|\d{4}-\d\d-\d\dT\d\d:\d\d|\+00:00|_id\b|recipient|None")


def sentences(db, entity, entity_id):
    return {h.action: h for h in record_history(db, entity, entity_id, CHICAGO)}


def assert_readable(lines):
    for h in lines:
        assert not RAW.search(h.sentence), f"{h.action}: {h.sentence}"
        assert h.sentence.endswith("."), h.sentence
        assert h.at.tzinfo is not None


def test_a_release_with_payment_and_its_correction_read_as_sentences(
    db, operator, supervisor, admin, owner, rex, impound, vaccinate, profile
):
    set_staff(db, admin, "opal", "operator", full_name="Opal Operator")
    imp = impound(rex.id, local(2026, 11, 2, 9, 30), kennel="K-4")
    vaccinate(rex.id)
    at = local(2026, 11, 5, 15, 45)
    total = quote(db, imp.id, at, True, profile).total
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(
            (LineInput("impound", total),), "cash", "R-10442", payer_id=owner.id, paid_at=at
        ),
        profile,
    )
    release(
        db, operator, imp.id, ReleaseRequest(True, owner.id, at=at, licence_receipt="L-9"), profile
    )
    correct_disposition(
        db,
        supervisor,
        imp.id,
        kind="reclaimed",
        at=local(2026, 11, 5, 15, 15),
        reason="Clock was read wrong",
        profile=profile,
    )
    move_kennel(
        db, operator, imp.id, "K-7", expected_version=get_impoundment(db, imp.id, profile).version
    )
    lines = record_history(db, "impoundment", imp.id, CHICAGO)
    assert_readable(lines)
    h = {x.action: x for x in lines}
    assert h["intake"].sentence.startswith(
        "Took in Rex, Beagle, impounded Mon 2 Nov 2026 9:30 AM CST by Off. Dana Lee"
    )
    assert "owner: Ana Ruiz" in h["intake"].sentence
    assert f"Ana Ruiz paid ${total:,.2f} in cash, receipt R-10442" in h["payment"].sentence
    assert h["reclaimed"].sentence == (
        "Released to Ana Ruiz, the owner, Thu 5 Nov 2026 3:45 PM CST."
    )
    assert (
        "from reclaimed by owner (Thu 5 Nov 2026 3:45 PM CST) to reclaimed by owner "
        "(Thu 5 Nov 2026 3:15 PM CST)" in h["correct_disposition"].sentence
    )
    assert h["correct_disposition"].reason == "Clock was read wrong"
    assert h["update"].sentence == "Changed kennel from “K-4” to “K-7”."
    # Who: the staff member's name when one is on file, else the login.
    assert h["payment"].who == "Opal Operator"
    assert h["correct_disposition"].who == "Sam Supervisor"  # every actor has an account now


def test_every_other_disposition_reads_as_a_sentence(
    db, operator, owner, rex, impound, profile, today
):
    from fieldops.services.animals import create_animal

    def animal(name):
        return create_animal(db, operator, AnimalInput(species="dog", name=name), today=today)

    moved = impound(animal("Ace").id, local(2026, 11, 2))
    transfer(
        db, operator, moved.id, "Dane County Humane Society", profile, at=local(2026, 11, 12, 10)
    )
    dead = impound(animal("Bo").id, local(2026, 11, 2))
    record_death(db, operator, dead.id, profile, at=local(2026, 11, 3, 7), notes="Found dead")
    gone = impound(animal("Cy").id, local(2026, 11, 2))
    record_escape(db, operator, gone.id, profile, at=local(2026, 11, 3, 8), notes="Gate open")
    put_down = impound(animal("Di").id, local(2026, 11, 2), bit_person=True)
    destroy(
        db,
        operator,
        put_down.id,
        profile,
        at=local(2026, 11, 20, 10),
        basis="hold_ended",
        decided_by="Off. Lee, officer",
    )
    said = {}
    for imp in (moved, dead, gone, put_down):
        lines = record_history(db, "impoundment", imp.id, CHICAGO)
        assert_readable(lines)
        said.update({x.action: x for x in lines})
    assert said["transferred"].sentence == (
        "Transferred to Dane County Humane Society, Thu 12 Nov 2026 10:00 AM CST."
    )
    assert said["died"].sentence == "Died in the pound's care, Tue 3 Nov 2026 7:00 AM CST."
    assert said["died"].reason == "Found dead"
    assert said["escaped"].sentence == "Escaped, Tue 3 Nov 2026 8:00 AM CST."
    assert said["euthanized"].sentence.startswith(
        "Humanely destroyed, Fri 20 Nov 2026 10:00 AM CST: the hold has ended and the animal "
        "was not claimed; decided by Off. Lee, officer; the body is kept until"
    )


def test_people_animals_fees_and_staff_read_as_sentences(
    db, operator, supervisor, admin, owner, rex, vaccinate, today
):
    update_person(
        db,
        operator,
        owner.id,
        PersonInput(full_name="Ana Ruiz", address="14 Oak St", city="Madison", postal_code="53703"),
        expected_version=owner.version,
    )
    archive_person(db, operator, owner.id, "Moved away")
    person = record_history(db, "person", owner.id, CHICAGO)
    assert_readable(person)
    said = {x.action: x for x in person}
    assert (
        said["create"].sentence == "Created the record of Ana Ruiz, 12 Elm St, Madison, WI 53703."
    )
    assert said["update"].sentence == "Changed address from “12 Elm St” to “14 Oak St”."
    assert (said["archive"].sentence, said["archive"].reason) == (
        "Archived the record.",
        "Moved away",
    )

    vaccinate(rex.id)
    adopter = create_person(db, operator, PersonInput(full_name="Bea Quinn", address="4 Oak Ave"))
    update_animal(
        db,
        operator,
        rex.id,
        AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=adopter.id),
        expected_version=rex.version,
        today=today,
    )
    animal = record_history(db, "animal", rex.id, CHICAGO)
    assert_readable(animal)
    said = {x.action: x for x in animal}
    assert said["create"].sentence == "Registered Rex, dog, Beagle, owned by Ana Ruiz."
    assert said["add_vaccination"].sentence == (
        "Added a rabies vaccination given Sat 10 Jan "
        "2026, expiring Sun 10 Jan 2027, certificate "
        "RV-77, by Dr Vet."
    )
    assert said["update"].sentence == "Changed owner from Ana Ruiz to Bea Quinn."

    enter_fee_schedule(
        db,
        supervisor,
        FeeScheduleInput(
            "2026-41",
            date(2026, 12, 1),
            {
                "dog": SpeciesFees("40.00", "15.00", "75.00"),
                "cat": SpeciesFees("30.00", "12.00", "50.00"),
                "other": SpeciesFees("20.00", "10.00", "25.00"),
            },
        ),
    )
    from fieldops.db.models import FeeScheduleEntry

    with db.read() as s:
        entry_id = s.query(FeeScheduleEntry.id).filter_by(species="dog").scalar()
    (fees,) = record_history(db, "fee_schedule", entry_id, CHICAGO)
    assert fees.sentence == (
        "Entered the fees for dogs under resolution 2026-41, in force from "
        "Tue 1 Dec 2026: impound $40.00, boarding $15.00 a day, adoption "
        "$75.00."
    )
    set_staff(db, admin, "otto", "officer", full_name="Otto Officer")
    with db.read() as s:
        from fieldops.db.models import StaffUser

        staff_id = s.query(StaffUser.id).filter_by(username="otto").scalar()
    (staff,) = record_history(db, "staff_user", staff_id, CHICAGO)
    assert staff.sentence == "Added Otto Officer (otto) as officer."


def test_an_unknown_event_kind_reads_as_field_value_pairs_in_local_time(db, owner):
    with db.write() as s:
        audit(
            s,
            Actor("opal"),
            "intake_details_corrected",
            "person",
            owner.id,
            after={
                "found_at": "2026-12-01T21:45:00+00:00",
                "owner_id": owner.id,
                "kennel": "K-2",
                "bit_person": True,
                "lines": [{"kind": "impound"}],
            },
        )
    (event,) = [
        h
        for h in record_history(db, "person", owner.id, CHICAGO)
        if h.action == "intake_details_corrected"
    ]
    assert event.what == "Intake details corrected"
    assert event.sentence == (
        "Intake details corrected: found at: Tue 1 Dec 2026 3:45 PM CST, "
        "owner: Ana Ruiz, kennel: K-2, bit a person: yes, lines: kind: "
        "Impound fee."
    )


def test_every_event_the_services_write_has_an_entry(db):
    """Each audit action written anywhere in the core has its sentence.

    Read from the syntax tree, not the text: a formatter that splits an
    ``audit(...)`` call over lines must not hide its action from this test.
    """
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "fieldops"
    written = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "audit"
                and len(node.args) >= 3
                and isinstance(node.args[2], ast.Constant)
                and isinstance(node.args[2].value, str)
            ):
                written.add(node.args[2].value)
            if isinstance(node, ast.Dict):  # an event written as a row: {"action": "create"}
                for k, v in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == "action"
                        and isinstance(v, ast.Constant)
                    ):
                        written.add(v.value)
    assert {"intake", "payment", "correct_disposition", "correct_intake"} <= written, written
    # The release and the other dispositions record their kind as the action.
    written |= {"reclaimed", "adopted", "transferred", "euthanized", "died", "escaped"}
    known = {k.split(":")[-1] for k in all_event_kinds()}
    assert written <= known, written - known
