"""Correcting a mistaken date or finding in a bite case (issue 9 follow-up): the time of the
bite, an exam's date and its finding. A corrected bite time moves every deadline through the
rules; the view, the list, Today, the log and the history follow; what the rules make
impossible is refused beside the field. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam, local_today
from sqlalchemy import text

from fieldops import modules
from fieldops.errors import ValidationError
from fieldops.rules import format_local
from fieldops.rules.quarantine import quarantine_plan
from fieldops.services import quarantine as qs
from fieldops.services.context import now
from fieldops.services.history import record_history
from fieldops.services.quarantine.listing import day_labels
from fieldops.services.quarantine.log import log_rows


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


@pytest.fixture
def pound(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))


def local(d, hour, minute=0):
    return datetime.combine(d, time(hour, minute), PROFILE.timezone)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def fix(db, actor, bite_id, target, target_id, field, value, reason="mistyped"):
    return qs.correct_record(db, actor, bite_id, target, target_id, field, value, reason, PROFILE)


def refused(db, actor, *args) -> str:
    with pytest.raises(ValidationError) as exc:
        fix(db, actor, *args)
    errors = {e.field: e.message for e in exc.value.errors}
    assert set(errors) == {"new_value"}  # beside the value typed
    return errors["new_value"]


def count_corrections(db) -> int:
    with db.read() as s:
        return s.execute(text("SELECT count(*) FROM quarantine_correction")).scalar_one()


def _items(db, on):
    return [
        (i.category, i.record_id)
        for i in modules.due_items(db, on, PROFILE)
        if i.module == "quarantine"
    ]


@pytest.fixture
def late_night(db, operator, rex, pound):
    """A bite written as 00:30 nine days ago that truly happened at 23:30 the evening before."""
    bitten = local(day(9), 0, 30)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            bitten, animal_id=rex.id, clinic_id=pound.id, ordered_at=bitten + timedelta(hours=2)
        ),
        PROFILE,
    )
    return r, bitten


def test_a_bite_time_corrected_across_midnight_moves_every_deadline(
    db, operator, supervisor, late_night
):
    r, bitten = late_night
    before = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert before.last_day == local_today() + timedelta(days=1)
    assert ("quarantine.period_ends_today", r.quarantine_id) not in _items(db, local_today())
    truly = bitten - timedelta(hours=1)  # 23:30 the day before: the bite day moves back
    fix(db, supervisor, r.bite_report_id, "bite_report", r.bite_report_id, "bitten_at", iso(truly))

    v = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    expected = quarantine_plan(
        truly, before.ordered_at, PROFILE, owner_known=True, rabies_proof=False
    )
    assert v.bite.bitten_at == truly
    assert v.last_day == expected.last_day == before.last_day - timedelta(days=1) == local_today()
    assert v.certificate_due == expected.certificate_due
    assert v.window == expected.intervening_exam_window
    assert v.deliver_by == expected.deliver_by and v.first_exam_day == expected.first_exam_day
    assert v.why["last_day"] == expected.why["last_day"]
    # The list's copies and its day count follow.
    row = qs.quarantine_rows(db, (v.id,), local_today())[v.id]
    assert row.certificate_due == expected.certificate_due
    labels = day_labels(db, (v.id,), local_today(), PROFILE)
    assert labels[v.id] == v.day_label
    assert labels[v.id].startswith("day 10 ")
    # Today's items follow: the observation now ends today.
    assert ("quarantine.period_ends_today", v.id) in _items(db, local_today())
    # The history says old, new and why.
    said = [
        h
        for h in record_history(db, "quarantine", v.id, PROFILE.timezone)
        if h.action == "quarantine_correction"
    ]
    assert len(said) == 1 and said[0].reason == "mistyped"
    assert "time of the bite" in said[0].sentence
    tz = PROFILE.timezone
    assert format_local(bitten, tz) in said[0].sentence  # the old value, in local words
    assert format_local(truly, tz) in said[0].sentence
    # The record itself is untouched.
    with db.read() as s:
        kept = s.execute(text("SELECT bitten_at FROM bite_report")).scalar_one()
    assert str(kept)[:16] != str(truly.astimezone(UTC))[:16]


def test_the_quarantine_log_shows_the_corrected_time_in_its_period(
    db, operator, supervisor, late_night
):
    r, bitten = late_night
    truly = bitten - timedelta(hours=1)
    fix(db, supervisor, r.bite_report_id, "bite_report", r.bite_report_id, "bitten_at", iso(truly))
    with db.read() as s:
        on_the_day_written = log_rows(
            s, day(9), day(9), PROFILE, redacted=False, today=local_today()
        )
        on_the_true_day = log_rows(
            s, day(10), day(10), PROFILE, redacted=False, today=local_today()
        )
        both = log_rows(s, day(12), day(0), PROFILE, redacted=False, today=local_today())
    assert on_the_day_written == []
    assert [x.bite_id for x in on_the_true_day] == [r.bite_report_id]
    assert f"{truly:%Y-%m-%d %H:%M}" in on_the_true_day[0].cells[0]
    assert len(both) == 1


def test_refused_bite_times_write_nothing(db, operator, supervisor, rex, pound, vaccinate):
    bitten = days_ago(3)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            bitten,
            animal_id=rex.id,
            clinic_id=pound.id,
            reported_at=bitten + timedelta(hours=1),
            ordered_at=bitten + timedelta(hours=2),
        ),
        PROFILE,
    )
    b = r.bite_report_id
    args = (b, "bite_report", b, "bitten_at")
    assert "future" in refused(db, supervisor, *args, iso(now() + timedelta(hours=2)))
    assert "ordered" in refused(db, supervisor, *args, iso(bitten + timedelta(hours=2, minutes=30)))
    assert "reported" in refused(
        db, supervisor, *args, iso(bitten + timedelta(hours=1, minutes=30))
    )
    # So far back that the observation had ended before the quarantine was ordered.
    assert "observation" in refused(db, supervisor, *args, iso(bitten - timedelta(days=12)))
    assert "Enter" in refused(db, supervisor, *args, "yesterday")
    assert "already" in refused(db, supervisor, *args, iso(bitten))
    assert count_corrections(db) == 0


def test_a_bite_time_after_an_exam_is_refused(db, operator, supervisor, rex, pound):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    exam(db, operator, r.quarantine_id, day(3))
    # The order and the first exam came the same day: any later bite time is refused.
    message = refused(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "bitten_at",
        iso(days_ago(1)),
    )
    assert "ordered" in message
    assert count_corrections(db) == 0


def test_a_bite_time_that_would_change_the_placement_is_refused(db, operator, supervisor, rex):
    bitten = days_ago(4)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            bitten, animal_id=rex.id, rabies_vaccinated_on=day(5), rabies_expires_on=day(-300)
        ),
        PROFILE,
    )
    assert qs.get_quarantine(db, r.quarantine_id, PROFILE).placement == "home"
    # Bitten before the vaccination: no proof on that day, the rules would want a clinic.
    message = refused(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "bitten_at",
        iso(days_ago(6)),
    )
    assert "clinic" in message
    assert count_corrections(db) == 0
    # A correction that keeps the proof current is accepted, and the home order stands.
    fix(
        db,
        supervisor,
        r.bite_report_id,
        "bite_report",
        r.bite_report_id,
        "bitten_at",
        iso(bitten - timedelta(hours=1)),
    )
    assert qs.get_quarantine(db, r.quarantine_id, PROFILE).placement == "home"


def test_a_referral_bite_time_is_corrected_and_refused_after_its_referral(db, operator, supervisor):
    bitten = days_ago(2)
    r = qs.report_bite(
        db,
        operator,
        bite_input(bitten, species="other", animal_description="Bat", owner_unknown=True),
        PROFILE,
    )
    b = r.bite_report_id
    fix(db, supervisor, b, "bite_report", b, "bitten_at", iso(bitten - timedelta(hours=3)))
    assert qs.get_bite(db, b, PROFILE).bitten_at == bitten - timedelta(hours=3)
    qs.record_referral_sent(db, operator, b, bitten + timedelta(minutes=10), "Dr. Health")
    assert (
        "referred"
        in refused(
            db, supervisor, b, "bite_report", b, "bitten_at", iso(bitten + timedelta(minutes=15))
        ).lower()
    )


def test_an_exam_date_corrected_moves_what_it_counts_as(db, operator, supervisor, rex, pound):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid = r.quarantine_id
    exam(db, operator, qid, day(4))  # written a day late: counts as the intervening one
    v = qs.get_quarantine(db, qid, PROFILE)
    x = v.exams[0]
    assert x.counts_as == "intervening examination"
    assert [e.slot for e in v.required if e.state == "overdue"] == ["first"]
    b = r.bite_report_id
    assert "future" in refused(db, supervisor, b, "exam", x.id, "examined_on", day(-1).isoformat())
    assert "ordered" in refused(db, supervisor, b, "exam", x.id, "examined_on", day(6).isoformat())
    assert "Enter" in refused(db, supervisor, b, "exam", x.id, "examined_on", "soon")
    assert count_corrections(db) == 0
    fix(db, supervisor, b, "exam", x.id, "examined_on", day(5).isoformat())
    v = qs.get_quarantine(db, qid, PROFILE)
    assert v.exams[0].examined_on == day(5)
    assert v.exams[0].counts_as == "first examination"
    assert not any(e.state == "overdue" for e in v.required)
    # Today no longer lists the first exam as overdue.
    assert ("quarantine.exam_overdue", qid) not in _items(db, local_today())
    said = [
        h.sentence
        for h in record_history(db, "quarantine", qid, PROFILE.timezone)
        if h.action == "quarantine_correction"
    ]
    assert any("date" in s for s in said)


def test_a_finding_that_needs_an_event_is_refused_until_it_is_recorded(
    db, operator, supervisor, rex, pound
):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid, b = r.quarantine_id, r.bite_report_id
    exam(db, operator, qid, day(3))
    x = qs.get_quarantine(db, qid, PROFILE).exams[0]
    assert "health officer" in refused(
        db, supervisor, b, "exam", x.id, "finding", "signs_of_rabies"
    )
    assert "death" in refused(db, supervisor, b, "exam", x.id, "finding", "died")
    assert "Choose" in refused(db, supervisor, b, "exam", x.id, "finding", "rabid-ish")
    assert count_corrections(db) == 0
    # Once the health officer's notification is recorded, the finding can agree with it.
    qs.record_signs_of_rabies(db, operator, qid, days_ago(2), "Dr. Health", PROFILE)
    fix(db, supervisor, b, "exam", x.id, "finding", "signs_of_rabies")
    v = qs.get_quarantine(db, qid, PROFILE)
    assert v.exams[0].finding == "signs_of_rabies"
    assert v.exams[0].finding_label == "Signs of rabies"


def test_signs_corrected_to_none_leave_today(db, operator, supervisor, rex, pound):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid, b = r.quarantine_id, r.bite_report_id
    exam(db, operator, qid, day(3), finding="signs_of_rabies")
    assert ("quarantine.signs_not_reported", qid) in _items(db, local_today())
    x = qs.get_quarantine(db, qid, PROFILE).exams[0]
    fix(db, supervisor, b, "exam", x.id, "finding", "no_signs", "the vet found none")
    assert ("quarantine.signs_not_reported", qid) not in _items(db, local_today())
    v = qs.get_quarantine(db, qid, PROFILE)
    assert not any("health officer" in w for w in v.warnings)
    said = [
        h.sentence
        for h in record_history(db, "quarantine", qid, PROFILE.timezone)
        if h.action == "quarantine_correction"
    ]
    assert any("Signs of rabies" in s and "No signs of rabies" in s for s in said)


def test_a_death_found_at_an_exam_is_never_corrected_away(db, operator, supervisor, rex, pound):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid, b = r.quarantine_id, r.bite_report_id
    exam(db, operator, qid, day(2), finding="died")
    x = qs.get_quarantine(db, qid, PROFILE).exams[0]
    assert "dead" in refused(db, supervisor, b, "exam", x.id, "finding", "no_signs")
    assert "dead" in refused(db, supervisor, b, "exam", x.id, "examined_on", day(3).isoformat())
    assert qs.get_quarantine(db, qid, PROFILE).status == "died"
    assert count_corrections(db) == 0


def test_the_bite_incident_on_the_seam_shows_the_corrected_time(
    db, operator, supervisor, late_night, rex
):
    r, bitten = late_night
    truly = bitten - timedelta(hours=1)
    fix(db, supervisor, r.bite_report_id, "bite_report", r.bite_report_id, "bitten_at", iso(truly))
    with db.read() as s:
        found = [i for i in modules.animal_incidents(s, rex.id) if i.module == "quarantine"]
    assert [(i.record_id, i.when) for i in found] == [(r.bite_report_id, truly)]


def test_the_log_counts_the_exams_on_the_corrected_dates(db, operator, supervisor, rex, pound):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=pound.id), PROFILE
    )
    qid, b = r.quarantine_id, r.bite_report_id
    exam(db, operator, qid, day(5))
    exam(db, operator, qid, day(4), vet="Dr. Ortega")

    def done():
        with db.read() as s:
            rows = log_rows(s, day(6), day(0), PROFILE, redacted=False, today=local_today())
        return [row.cells[6] for row in rows]

    assert done() == ["2 of 3"]
    second = [
        x for x in qs.get_quarantine(db, qid, PROFILE).exams if x.veterinarian == "Dr. Ortega"
    ]
    # The second exam was on the first day too: it counts as no required exam.
    fix(db, supervisor, b, "exam", second[0].id, "examined_on", day(5).isoformat())
    assert done() == ["1 of 3"]
    v = qs.get_quarantine(db, qid, PROFILE)
    assert [x.counts_as for x in v.exams].count("") == 1
    assert any("still missing" in x.warning for x in v.exams)
