"""A veterinarian's extension of the observation period (58-527(b)) as every reader of the
record sees it: the plan replayed in the order its changes were recorded, the log's count
of exams done, and the officer's week."""

from __future__ import annotations

from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.services import quarantine as qs
from fieldops.services.quarantine.log import log_rows


def test_an_animal_found_at_large_inside_the_extended_period_moves_to_a_clinic(
    db, officer, rex, vaccinate, clinic
):
    """The extension is timed when it is typed; the officer then records the animal found
    at large earlier that day, after the original last day but inside the extension. It
    used to be replayed before the extension, and the save failed with a traceback."""
    vaccinate(rex.id, on=day(300), until=day(-400))
    inp = bite_input(
        days_ago(13),
        animal_id=rex.id,
        rabies_certificate="RV-77",
        rabies_vaccinated_on=day(300),
        rabies_expires_on=day(-400),
    )
    qid = qs.report_bite(db, officer, inp, PROFILE).quarantine_id
    assert qs.get_quarantine(db, qid, PROFILE).last_day == day(3)
    qs.extend_period(db, officer, qid, day(-2), "Dr. Kim", PROFILE)
    qs.record_broken_home(db, officer, qid, days_ago(2), clinic.id, PROFILE)
    q = qs.get_quarantine(db, qid, PROFILE)
    assert (q.placement, q.last_day) == ("clinic", day(-2))


def test_the_log_counts_exams_done_on_the_extended_plan(db, officer, rex, clinic):
    """Three exams, then the period is extended: the last exam is due again on the new last
    day, so the record shows two of three done, and the printed log must agree."""
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(12), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    ).quarantine_id
    for on in (day(12), day(7), day(2)):
        exam(db, officer, qid, on)
    qs.extend_period(db, officer, qid, day(-1), "Dr. Kim", PROFILE)
    q = qs.get_quarantine(db, qid, PROFILE)
    done = sum(1 for x in q.required if x.state == "done")
    assert done == 2
    with db.read() as s:
        (row,) = log_rows(s, day(13), day(0), PROFILE, redacted=False, today=day(0))
    assert row.cells[6] == f"2 of {PROFILE.exams_required}"


def test_the_week_does_not_ask_for_a_last_exam_already_made(db, officer, rex, clinic):
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(10), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    ).quarantine_id
    for on in (day(10), day(5)):
        exam(db, officer, qid, on)
    asked = [i for i in qs.week_schedule(db, day(0), PROFILE) if i.quarantine_id == qid]
    assert [i.day for i in asked if i.kind == "exam"] == [day(0)]  # the last one, today
    exam(db, officer, qid, day(0))
    q = qs.get_quarantine(db, qid, PROFILE)
    assert q.status == "open" and [x.state for x in q.required] == ["done", "done", "done"]
    asked = [i for i in qs.week_schedule(db, day(0), PROFILE) if i.quarantine_id == qid]
    assert [i for i in asked if i.kind == "exam"] == []
