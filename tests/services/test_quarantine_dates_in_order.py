"""A quarantine's record reads in the order things happened (an audit at the counter):
no death or escape before an examination that found the animal alive, and no
certification of quarantine returned before the observation period's last day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam

from fieldops.errors import ValidationError
from fieldops.services import quarantine as qs


@pytest.fixture
def operator(officer):
    return officer


@pytest.fixture
def examined(db, operator, rex, clinic):
    """A clinic quarantine of a bite 5 days ago, examined alive on its first day and today."""
    r = qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    exam(db, operator, r.quarantine_id, day(5))
    exam(db, operator, r.quarantine_id, day(0))
    return r.quarantine_id


def refused(call) -> str:
    with pytest.raises(ValidationError) as exc:
        call()
    return exc.value.field


def test_no_death_or_escape_before_an_examination_that_found_the_animal_alive(
    db, operator, examined
):
    qid = examined
    assert refused(lambda: qs.record_death(db, operator, qid, "died", days_ago(2), PROFILE)) == "at"
    assert refused(lambda: qs.record_death(db, operator, qid, "euthanized", days_ago(1), PROFILE))
    assert refused(lambda: qs.record_escape(db, operator, qid, days_ago(2), PROFILE)) == "at"
    assert refused(lambda: exam(db, operator, qid, day(2), "died")) == "examined_on"
    assert qs.get_quarantine(db, qid, PROFILE).status == "open"  # nothing written
    qs.record_death(db, operator, qid, "euthanized", days_ago(0, 23), PROFILE)  # after it
    assert qs.get_quarantine(db, qid, PROFILE).status == "euthanized"


def test_found_dead_at_an_examination_after_the_last_one_that_found_it_alive(
    db, operator, examined
):
    exam(db, operator, examined, day(0), "died")  # the same day: examined again, found dead
    assert qs.get_quarantine(db, examined, PROFILE).status == "died"


def test_the_certification_is_not_received_before_the_observation_period_ends(
    db, operator, rex, vaccinate
):
    vaccinate(rex.id, on=day(300), until=day(-400))
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(12),
            animal_id=rex.id,
            rabies_certificate="RV-77",
            rabies_vaccinated_on=day(300),
            rabies_expires_on=day(-400),
        ),
        PROFILE,
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert q.last_day == day(2)
    for early in (day(12), q.last_day - timedelta(days=1)):  # the bite's day; the day before
        assert (
            refused(lambda e=early: qs.record_certificate_received(db, operator, q.id, e, PROFILE))
            == "received_on"
        )
    assert qs.get_quarantine(db, q.id, PROFILE).certificate_received_on is None
    qs.record_certificate_received(db, operator, q.id, q.last_day, PROFILE)
    assert qs.get_quarantine(db, q.id, PROFILE).certificate_received_on == day(2)


def test_a_finding_of_death_on_no_day_is_refused_beside_the_day(db, operator, examined):
    from datetime import UTC, datetime

    bad = datetime(2000, 1, 1, tzinfo=UTC)  # an instant where a day belongs
    assert refused(lambda: exam(db, operator, examined, bad, "died")) == "examined_on"
    assert qs.get_quarantine(db, examined, PROFILE).status == "open"


def test_no_escape_or_death_before_the_delivery_to_the_clinic(db, operator, rex, clinic):
    qid = qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    ).quarantine_id
    qs.record_delivery(db, operator, qid, days_ago(4), PROFILE)
    for record in (
        lambda at: qs.record_escape(db, operator, qid, at, PROFILE),
        lambda at: qs.record_death(db, operator, qid, "died", at, PROFILE),
    ):
        with pytest.raises(ValidationError) as exc:
            record(days_ago(5, 11))
        assert {e.field for e in exc.value.errors} == {"at"}
    with pytest.raises(ValidationError) as exc:
        qs.record_exam(db, operator, qid, qs.ExamInput(day(5), "Dr. Kim", "died", 0), PROFILE)
    assert {e.field for e in exc.value.errors} == {"examined_on"}
    qs.record_escape(db, operator, qid, days_ago(3), PROFILE)
    assert qs.get_quarantine(db, qid, PROFILE).status == "escaped"
