"""An animal in the pound now, in the pound at the time given, or recorded dead, is not
logged in again: the intake is refused beside the animal, with the record to open
instead, and nothing is written."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select
from support import local

from fieldops.db.models import Impoundment
from fieldops.errors import ValidationError
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import destroy, record_escape, transfer
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from fieldops.services.intake_check import IntakeCheck, intake_check
from fieldops.services.people import PersonInput, create_person


def _intake(animal_id: int, day: int) -> IntakeInput:
    return IntakeInput(
        impounded_at=local(2026, 11, 2, 9) + timedelta(days=day),
        animal_id=animal_id,
        officer="Off. Lee",
        reason="at_large",
        found_place="Elm & 3rd",
    )


@pytest.fixture
def dog(db, operator):
    owner = create_person(db, operator, PersonInput(full_name="Ana Ruiz", address="1 Elm St"))

    def make(name: str) -> int:
        pet = AnimalInput(species="dog", name=name, owner_id=owner.id)
        return create_animal(db, operator, pet, today=date(2026, 11, 1)).id

    return make


def _count(db) -> int:
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(Impoundment))


def test_an_animal_in_the_pound_is_not_impounded_a_second_time(db, operator, profile, dog):
    rex = dog("Rex")
    first = intake(db, operator, _intake(rex, 0), profile)
    with pytest.raises(ValidationError) as e:
        intake(db, operator, _intake(rex, 1), profile)
    errors = e.value.by_field()
    assert set(errors) == {"animal"}
    assert f"#{first.id}" in errors["animal"] and "Rex" in errors["animal"]
    assert _count(db) == 1


def test_a_dead_animal_is_not_impounded_again_but_an_escaped_one_is(db, operator, profile, dog):
    bo, max_ = dog("Bo"), dog("Max")
    put_down = intake(db, operator, _intake(bo, 0), profile).id
    destroy(
        db,
        operator,
        put_down,
        profile,
        at=local(2026, 11, 12, 15),
        basis="hold_ended",
        decided_by="Off. Lee",
    )
    with pytest.raises(ValidationError) as e:
        intake(db, operator, _intake(bo, 12), profile)
    why = e.value.by_field()["animal"]
    assert "euthanized" in why and f"#{put_down}" in why
    assert _count(db) == 1
    # An impoundment from before the euthanasia, entered late from paper, is still taken.
    assert intake(db, operator, _intake(bo, -20), profile).id
    ran_off = intake(db, operator, _intake(max_, 0), profile).id
    record_escape(db, operator, ran_off, profile, at=local(2026, 11, 3, 10), notes="Dug out")
    assert intake(db, operator, _intake(max_, 5), profile).id  # found again: a new intake


def test_a_late_paper_intake_at_a_time_it_was_in_the_pound_is_refused(db, operator, profile, dog):
    rex = dog("Rex")
    first = intake(db, operator, _intake(rex, 0), profile).id
    record_escape(db, operator, first, profile, at=local(2026, 11, 6, 10), notes="Gate")
    with pytest.raises(ValidationError) as e:
        intake(db, operator, _intake(rex, 2), profile)  # inside 2 to 6 November
    assert f"#{first}" in e.value.by_field()["animal"]
    assert _count(db) == 1
    assert intake(db, operator, _intake(rex, -3), profile).id  # before it: taken
    assert _count(db) == 2


def test_the_form_is_told_of_a_refusal_before_saving_and_of_a_repeat_otherwise(
    db, operator, profile, dog
):
    rex, bo = dog("Rex"), dog("Bo")
    in_pound = intake(db, operator, _intake(rex, 0), profile).id
    check = intake_check(db, rex, local(2026, 11, 9, 9), profile)
    assert f"#{in_pound}" in check.refusal and "Rex" in check.refusal
    assert check.repeat is None  # a refused intake warns of no fee
    ran_off = intake(db, operator, _intake(bo, 0), profile).id
    record_escape(db, operator, ran_off, profile, at=local(2026, 11, 3, 10), notes="Dug out")
    check = intake_check(db, bo, local(2026, 11, 9, 9), profile)
    assert check.refusal == "" and check.repeat is not None
    assert check.repeat.impoundment_id == ran_off
    assert intake_check(db, dog("Max"), local(2026, 11, 9, 9), profile) == IntakeCheck("", None)


def test_two_workstations_cannot_both_log_one_animal_in(db, operator, profile, dog):
    """The second of two simultaneous intakes of one animal waits for the first and is
    refused (the animal's row is held while the first checks and saves)."""
    import threading

    from fieldops.services.animals import load_animal
    from fieldops.services.intake_check import refuse_an_intake

    rex = dog("Rex")
    outcome: dict[str, object] = {}
    started = threading.Event()

    def workstation_b():
        started.set()
        try:
            intake(db, operator, _intake(rex, 0), profile)
            outcome["b"] = "logged"
        except ValidationError as exc:
            outcome["b"] = sorted(exc.by_field())
        except Exception as exc:  # a lock timeout would show here
            outcome["b"] = repr(exc)

    with db.write() as s:  # workstation A is mid-intake: it holds the animal and checks
        load_animal(s, rex, lock=True)
        refuse_an_intake(s, rex, "Rex", local(2026, 11, 2, 9), profile.timezone)
        thread = threading.Thread(target=workstation_b)
        thread.start()
        started.wait()
        thread.join(timeout=0.5)
        assert thread.is_alive(), "B must wait while A holds the animal"
        s.add(
            Impoundment(
                animal_id=rex,
                impounded_at=local(2026, 11, 2, 9),
                custody_day=date(2026, 11, 2),
                last_claim_day=date(2026, 11, 9),
                release_to_others_from=local(2026, 11, 10),
                officer="Off. Lee",
                reason="at_large",
                recorded_by="opal",
            )
        )
    thread.join(timeout=30)
    assert outcome == {"b": ["animal"]}
    assert _count(db) == 1


def test_a_stay_cannot_end_after_the_animal_was_impounded_again(
    db, operator, supervisor, profile, dog
):
    rex = dog("Rex")
    later = intake(db, operator, _intake(rex, 5), profile).id  # 7 November
    record_escape(db, operator, later, profile, at=local(2026, 11, 8, 10), notes="Gate")
    paper = intake(db, operator, _intake(rex, 0), profile).id  # 2 November, from paper
    for record in (
        lambda: record_escape(db, operator, paper, profile, at=local(2026, 11, 9, 9), notes="x"),
        lambda: transfer(db, operator, paper, "Rescue North", profile, at=local(2026, 11, 7, 10)),
    ):
        with pytest.raises(ValidationError) as e:
            record()
        assert set(e.value.by_field()) == {"at"} and f"#{later}" in e.value.by_field()["at"]
    with pytest.raises(ValidationError) as e:
        destroy(
            db,
            operator,
            paper,
            profile,
            at=local(2026, 11, 4, 9),
            basis="hopelessly_injured",
            decided_by="Off. Lee",
        )
    assert f"#{later}" in e.value.by_field()["kind"]  # it was alive on 7 November
    assert get_impoundment(db, paper, profile).disposition is None  # nothing was written
    record_escape(db, operator, paper, profile, at=local(2026, 11, 4, 9), notes="Dug out")
    fix = {"reason": "Wrong day on the paper form", "profile": profile}
    with pytest.raises(ValidationError) as e:
        correct_disposition(db, supervisor, paper, kind="escaped", at=local(2026, 11, 8, 9), **fix)
    assert f"#{later}" in e.value.by_field()["at"]
    with pytest.raises(ValidationError) as e:
        correct_disposition(db, supervisor, paper, kind="died", at=local(2026, 11, 4, 9), **fix)
    assert f"#{later}" in e.value.by_field()["kind"]
    corrected = correct_disposition(
        db, supervisor, paper, kind="escaped", at=local(2026, 11, 5, 9), **fix
    )
    assert corrected.disposition is not None
    assert corrected.disposition.at == local(2026, 11, 5, 9)
