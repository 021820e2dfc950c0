"""Correcting a saved intake: audited with a reason, the hold recomputed by the rules."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from support import local

from fieldops.db.models import AuditEvent
from fieldops.errors import PermissionDeniedError, StaleRecordError, UserError, ValidationError
from fieldops.services.animals import get_animal
from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import get_impoundment
from fieldops.services.intake_corrections import IntakeDetails, correct_intake


def _events(db, action):
    from sqlalchemy import select

    with db.read() as s:
        return [
            (e.before, e.after, e.reason, e.actor)
            for e in s.scalars(
                select(AuditEvent).where(AuditEvent.action == action).order_by(AuditEvent.id)
            )
        ]


def test_an_operator_corrects_the_details_with_a_reason_and_the_old_values_are_kept(
    db, rex, impound, operator, profile
):
    view = impound(rex.id, local(2026, 11, 2, 10), found_place="Elm & 3rd")
    details = IntakeDetails.of(view)
    corrected = replace(
        details,
        found_place="Elm & 4th",
        found_at=local(2026, 11, 2, 9),
        condition="thin",
        injuries="Limping, right hind",
        altered=True,
        colour="tan and white",
    )
    after = correct_intake(
        db, operator, view.id, details, corrected, "Typed the wrong street", profile
    )
    assert (after.found_place, after.found_at, after.condition, after.injuries) == (
        "Elm & 4th",
        local(2026, 11, 2, 9),
        "thin",
        "Limping, right hind",
    )
    assert after.animal.altered is True and after.animal.colour == "tan and white"
    assert get_animal(db, rex.id).colour == "tan and white"
    assert after.last_claim_day == view.last_claim_day  # the hold did not move
    [(before, new, reason, who)] = _events(db, "correct_intake")
    assert before["found_place"] == "Elm & 3rd" and new["found_place"] == "Elm & 4th"
    assert before["colour"] == "" and new["colour"] == "tan and white"
    assert (reason, who) == ("Typed the wrong street", "opal")
    assert "custody_day" not in new
    [animal_event] = [e for e in _events(db, "update") if e[1].get("colour")]
    assert "Typed the wrong street" in animal_event[2]


def test_a_correction_needs_a_reason_and_a_change_and_saves_nothing_otherwise(
    db, rex, impound, operator, profile
):
    view = impound(rex.id, local(2026, 11, 2, 10))
    details = IntakeDetails.of(view)
    with pytest.raises(ValidationError) as exc:
        correct_intake(
            db,
            operator,
            view.id,
            details,
            replace(details, found_place=" ", officer=""),
            "  ",
            profile,
        )
    assert {"correction_reason", "found_place", "officer"} <= set(exc.value.by_field())
    with pytest.raises(UserError, match="Nothing was corrected"):
        correct_intake(db, operator, view.id, details, details, "why not", profile)
    assert get_impoundment(db, view.id, profile).found_place == view.found_place
    assert _events(db, "correct_intake") == []


def test_moving_the_time_or_the_bite_needs_a_supervisor(db, rex, impound, operator, profile):
    view = impound(rex.id, local(2026, 11, 2, 10))
    details = IntakeDetails.of(view)
    for corrected in (
        replace(details, bit_person=True),
        replace(details, impounded_at=local(2026, 11, 1, 10)),
    ):
        with pytest.raises(PermissionDeniedError, match="supervisor"):
            correct_intake(db, operator, view.id, details, corrected, "wrong", profile)
    assert get_impoundment(db, view.id, profile).last_claim_day == date(2026, 11, 9)


def test_a_supervisor_corrects_the_bite_and_the_hold_is_recomputed_and_audited(
    db, rex, impound, supervisor, profile
):
    view = impound(rex.id, local(2026, 11, 16, 9))  # Monday; 7 days: Mon 23 Nov
    assert view.last_claim_day == date(2026, 11, 23)
    details = IntakeDetails.of(view)
    after = correct_intake(
        db,
        supervisor,
        view.id,
        details,
        replace(details, bit_person=True, reason="bite"),
        "The bite report came in after intake",
        profile,
    )
    # 16 Nov + 10 = Thanksgiving: extended to Fri 27 Nov (the rules, not this service).
    assert after.bit_person and after.last_claim_day == date(2026, 11, 27)
    assert after.release_to_others_from == local(2026, 11, 28, 0)
    [(before, new, _reason, _who)] = _events(db, "correct_intake")
    assert (before["bit_person"], new["bit_person"]) == (False, True)
    assert (before["last_claim_day"], new["last_claim_day"]) == ("2026-11-23", "2026-11-27")


def test_a_supervisor_moves_the_time_and_the_custody_day_and_repeat_follow(
    db, rex, impound, escaped, supervisor, profile
):
    escaped(impound(rex.id, local(2026, 9, 1, 10)).id, local(2026, 9, 2, 10))
    view = impound(rex.id, local(2026, 11, 2, 10))  # 62 days later: not a repeat
    assert view.repeat_of is None
    details = IntakeDetails.of(view)
    after = correct_intake(
        db,
        supervisor,
        view.id,
        details,
        replace(details, impounded_at=local(2026, 10, 30, 10)),
        "Held overnight at the station first",
        profile,
    )
    assert after.custody_day == date(2026, 10, 30) and after.repeat_of is not None
    assert after.last_claim_day == date(2026, 11, 6)


def test_the_hold_of_a_disposed_animal_cannot_be_corrected(db, rex, impound, supervisor, profile):
    view = impound(rex.id, local(2026, 11, 2, 10))
    record_escape(db, supervisor, view.id, profile, at=local(2026, 11, 3, 10), notes="gate")
    details = IntakeDetails.of(get_impoundment(db, view.id, profile))
    with pytest.raises(ValidationError) as exc:
        correct_intake(
            db,
            supervisor,
            view.id,
            details,
            replace(details, bit_person=True),
            "late bite report",
            profile,
        )
    assert set(exc.value.by_field()) == {"bit_person"}
    # The description can still be corrected.
    after = correct_intake(
        db,
        supervisor,
        view.id,
        details,
        replace(details, markings="white blaze"),
        "seen on the photo",
        profile,
    )
    assert after.animal.markings == "white blaze"


def test_a_correction_over_someone_elses_change_is_refused(db, rex, impound, operator, profile):
    view = impound(rex.id, local(2026, 11, 2, 10))
    details = IntakeDetails.of(view)
    correct_intake(
        db, operator, view.id, details, replace(details, condition="thin"), "first", profile
    )
    with pytest.raises(StaleRecordError):
        correct_intake(
            db,
            operator,
            view.id,
            details,
            replace(details, injuries="cut"),
            "second, from the old screen",
            profile,
        )
    assert get_impoundment(db, view.id, profile).injuries == ""


def test_the_history_reads_a_correction_as_a_sentence_with_old_and_new(
    db, rex, impound, operator, profile
):
    from fieldops.services.history import record_history

    view = impound(rex.id, local(2026, 11, 2, 10), found_place="Elm & 3rd")
    details = IntakeDetails.of(view)
    correct_intake(
        db,
        operator,
        view.id,
        details,
        replace(details, found_place="Elm & 4th"),
        "Typed the wrong street",
        profile,
    )
    line = [
        h
        for h in record_history(db, "impoundment", view.id, profile.timezone)
        if h.what == "Intake corrected"
    ][-1]
    assert "Elm & 3rd" in line.sentence and "Elm & 4th" in line.sentence
    assert "found_place" not in line.sentence and "{" not in line.sentence
    assert line.reason == "Typed the wrong street"


def test_the_time_cannot_move_into_another_impoundment_or_past_a_death(
    db, rex, impound, escaped, supervisor, profile
):
    """An intake corrected in time is checked as a new intake would be: the animal was
    not in the pound under another record then, and was not already dead."""
    from fieldops.services.dispositions import destroy

    paper = impound(rex.id, local(2026, 9, 1, 10))  # entered late, still open
    escaped(paper.id, local(2026, 9, 2, 10))
    later = impound(rex.id, local(2026, 10, 1, 10))
    destroy(
        db,
        supervisor,
        later.id,
        profile,
        at=local(2026, 10, 20, 15),
        basis="hold_ended",
        decided_by="Off. Lee",
    )
    # A third record, from before the euthanasia, entered from paper and still open.
    view = impound(rex.id, local(2026, 9, 10, 10))
    details = IntakeDetails.of(view)
    for moved_to, named in ((local(2026, 10, 5, 10), later.id), (local(2026, 10, 25), later.id)):
        with pytest.raises(ValidationError) as exc:
            correct_intake(
                db,
                supervisor,
                view.id,
                details,
                replace(details, impounded_at=moved_to),
                "Time misread",
                profile,
            )
        assert set(exc.value.by_field()) == {"impounded_at"}
        assert f"#{named}" in exc.value.by_field()["impounded_at"]
    assert get_impoundment(db, view.id, profile).impounded_at == local(2026, 9, 10, 10)
    after = correct_intake(
        db,
        supervisor,
        view.id,
        details,
        replace(details, impounded_at=local(2026, 9, 12, 10)),
        "Time misread",
        profile,
    )
    assert after.custody_day == date(2026, 9, 12)
