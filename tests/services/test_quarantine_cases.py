"""Bite quarantines from the report to the outcome (city code 58-527; RULES.md section 3; issue 9).

Every event and refusal, on SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam, local_today
from sqlalchemy import select

from fieldops.db.models import AuditEvent
from fieldops.errors import PermissionDeniedError, StaleRecordError, ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.history import record_history


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    tests here record them as one."""
    return officer


@pytest.fixture
def spa(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("Westgate Pet Spa", licensed=False))


def fields(exc) -> set[str]:
    return {e.field for e in exc.value.errors}


def test_a_home_quarantine_from_bite_report_to_certificate_received(db, operator, rex, vaccinate):
    vaccinate(rex.id, on=day(300), until=day(-400))
    bitten = days_ago(12)
    inp = bite_input(
        bitten,
        animal_id=rex.id,
        rabies_certificate="RV-77",
        rabies_vaccinated_on=day(300),
        rabies_expires_on=day(-400),
    )
    proposal = qs.propose(db, inp, PROFILE)
    assert not proposal.referral and proposal.plan.placement == "home"
    assert "58-527(b)" in proposal.why and proposal.rabies_proof
    r = qs.report_bite(db, operator, inp, PROFILE)
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert (q.status, q.placement, q.deliver_by) == ("open", "home", None)
    assert q.bite.owner == "Ana Ruiz" and q.bite.has_victim_contact
    assert qs.bite_victim_contact(db, operator, q.bite.id) == "608-555-0199"
    assert q.last_day == day(12) + timedelta(days=10)
    assert q.first_exam_day == day(12)
    assert q.window == (day(11), day(3))
    assert set(q.why) >= {
        "placement",
        "first_exam_day",
        "last_day",
        "certificate_due",
        "intervening_exam_window",
    }
    assert [x.state for x in q.required] == ["overdue", "overdue", "overdue"]
    for on in (day(12), day(7), day(2)):
        assert exam(db, operator, q.id, on).warning == ""
    q = qs.get_quarantine(db, q.id, PROFILE)
    assert [x.state for x in q.required] == ["done", "done", "done"]
    assert [x.counts_as for x in q.exams] == [
        "first examination",
        "intervening examination",
        "last examination",
    ]
    assert q.exam_fees == Decimal("135.00")
    qs.release_certified(db, operator, q.id, days_ago(2, 15), "Dr. Kim", PROFILE)
    q = qs.get_quarantine(db, q.id, PROFILE)
    assert q.status == "certified" and q.closed_at is not None
    assert qs.record_certificate_received(db, operator, q.id, day(1), PROFILE).warning == ""
    q = qs.get_quarantine(db, q.id, PROFILE)
    assert q.certificate_received_on == day(1)
    with pytest.raises(ValidationError) as exc:
        qs.record_certificate_received(db, operator, q.id, day(0), PROFILE)
    assert fields(exc) == {"received_on"}
    actions = [h.action for h in record_history(db, "quarantine", q.id, PROFILE.timezone)]
    assert actions[0] == "quarantine_certificate" and actions[-1] == "quarantine_order"
    assert actions.count("quarantine_exam") == 3
    # The contact of the person bitten is kept on the case, not copied into the audit trail.
    with db.read() as s:
        data = [
            e.after for e in s.scalars(select(AuditEvent).where(AuditEvent.entity == "bite_report"))
        ]
    assert data and all("608-555-0199" not in str(a) for a in data)


def test_a_bite_without_proof_goes_to_a_licensed_clinic_with_its_delivery_deadline(
    db, operator, rex, clinic, spa, vaccinate
):
    bitten = days_ago(1)
    # A vaccination that expired before the bite is no proof (checked against the bite day).
    inp = bite_input(
        bitten,
        animal_id=rex.id,
        rabies_certificate="RV-1",
        rabies_vaccinated_on=day(800),
        rabies_expires_on=day(5),
    )
    proposal = qs.propose(db, inp, PROFILE)
    assert proposal.plan.placement == "clinic" and not proposal.rabies_proof
    assert "expired" in proposal.rabies_why and "58-527(c)" in proposal.why
    with pytest.raises(ValidationError) as exc:
        qs.report_bite(db, operator, inp, PROFILE)
    assert fields(exc) == {"clinic_id"}
    with pytest.raises(ValidationError, match="not a licensed"):
        qs.report_bite(
            db, operator, bite_input(bitten, animal_id=rex.id, clinic_id=spa.id), PROFILE
        )
    r = qs.report_bite(
        db, operator, bite_input(bitten, animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    ordered = bitten + timedelta(hours=1)
    assert q.placement == "clinic" and q.clinic == clinic.name
    assert q.deliver_by == ordered + timedelta(hours=24)
    assert "24 real hours" in q.why["deliver_by"]
    assert any("Delivery" in w for w in q.warnings)
    qs.record_delivery(db, operator, q.id, ordered + timedelta(hours=2), PROFILE)
    q = qs.get_quarantine(db, q.id, PROFILE)
    assert q.delivered_at == ordered + timedelta(hours=2) and not q.warnings
    with pytest.raises(ValidationError, match="already recorded"):
        qs.record_delivery(db, operator, q.id, ordered + timedelta(hours=3), PROFILE)


def test_the_report_names_every_missing_field_and_writes_nothing(db, operator):
    with pytest.raises(ValidationError) as exc:
        qs.report_bite(db, operator, qs.BiteInput(None, "", "", "", None, ""), PROFILE)
    assert fields(exc) >= {
        "bitten_at",
        "place",
        "victim_name",
        "reported_by",
        "reported_at",
        "officer",
        "species",
        "animal_description",
        "owner_id",
    }
    with pytest.raises(ValidationError) as exc:
        qs.report_bite(
            db,
            operator,
            bite_input(
                days_ago(1),
                species="dog",
                animal_description="Brown terrier mix",
                owner_unknown=True,
                reported_at=days_ago(2),
            ),
            PROFILE,
        )
    assert fields(exc) == {"reported_at"}
    # Ordered after the observation period has ended: refused, refer it instead.
    with pytest.raises(ValidationError, match="health officer") as exc:
        qs.report_bite(
            db,
            operator,
            bite_input(
                days_ago(14),
                species="dog",
                animal_description="Brown terrier mix",
                owner_unknown=True,
                ordered_at=days_ago(1),
            ),
            PROFILE,
        )
    assert fields(exc) == {"ordered_at"}
    with db.read() as s:
        assert s.scalar(select(AuditEvent.id).where(AuditEvent.entity == "bite_report")) is None


def test_an_unknown_owner_goes_to_a_clinic(db, operator, clinic):
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(0, 1),
            species="dog",
            animal_description="Brown terrier mix",
            owner_unknown=True,
            clinic_id=clinic.id,
        ),
        PROFILE,
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert q.placement == "clinic" and q.bite.owner == "unknown"
    assert "58-527(e)" in q.why["placement"]


def test_a_bite_by_another_species_is_logged_and_referred_not_quarantined(db, operator):
    inp = bite_input(days_ago(1), species="other", animal_description="Ferret", owner_unknown=True)
    assert qs.propose(db, inp, PROFILE).referral
    r = qs.report_bite(db, operator, inp, PROFILE)
    assert r.quarantine_id is None
    b = qs.get_bite(db, r.bite_report_id, PROFILE)
    assert b.referral and "health officer" in b.referral_why and b.referral_sent is None
    with pytest.raises(ValidationError) as exc:
        qs.record_referral_sent(db, operator, b.id, days_ago(1, 12), "")
    assert fields(exc) == {"who"}
    qs.record_referral_sent(db, operator, b.id, days_ago(1, 12), "Dr. Ellen Park")
    assert qs.get_bite(db, b.id, PROFILE).referral_sent.who == "Dr. Ellen Park"
    with pytest.raises(ValidationError, match="already"):
        qs.record_referral_sent(db, operator, b.id, days_ago(1, 13), "Dr. Ellen Park")


def test_a_broken_home_quarantine_moves_to_a_clinic_and_keeps_the_exam_schedule(
    db, operator, rex, clinic, vaccinate
):
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(6), animal_id=rex.id, rabies_vaccinated_on=day(300), rabies_expires_on=day(-60)
        ),
        PROFILE,
    )
    before = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    exam(db, operator, before.id, day(6))
    with pytest.raises(ValidationError) as exc:
        qs.record_broken_home(db, operator, before.id, days_ago(2), None, PROFILE)
    assert fields(exc) == {"clinic_id"}
    with pytest.raises(ValidationError) as exc:
        qs.record_delivery(db, operator, before.id, days_ago(2), PROFILE)
    assert "home quarantine" in str(exc.value)
    found = days_ago(2, 19)
    qs.record_broken_home(db, operator, before.id, found, clinic.id, PROFILE, citation="C-1234")
    q = qs.get_quarantine(db, before.id, PROFILE)
    assert (q.placement, q.clinic) == ("clinic", clinic.name)
    assert q.deliver_by == found + timedelta(hours=24)
    assert (q.first_exam_day, q.window, q.last_day, q.certificate_due) == (
        before.first_exam_day,
        before.window,
        before.last_day,
        before.certificate_due,
    )
    assert q.required[0].state == "done"
    assert "balance" in q.why["placement"]
    assert [e.citation for e in q.events if e.kind == "broken_home"] == ["C-1234"]
    with pytest.raises(ValidationError, match="already in a clinic"):
        qs.record_broken_home(db, operator, q.id, days_ago(1), clinic.id, PROFILE)


def test_the_veterinarian_extends_the_period_and_the_last_exam_moves(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(11), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    with pytest.raises(ValidationError) as exc:
        qs.extend_period(db, operator, q.id, q.last_day, "Dr. Kim", PROFILE)
    assert fields(exc) == {"new_last_day"}
    for on in (day(11), day(6), day(1)):
        exam(db, operator, q.id, on)
    new_last = q.last_day + timedelta(days=4)
    qs.extend_period(db, operator, q.id, new_last, "Dr. Kim", PROFILE, notes="Lethargic")
    q2 = qs.get_quarantine(db, q.id, PROFILE)
    assert q2.last_day == new_last and "extended" in q2.why["last_day"].lower()
    assert q2.certificate_due == q.certificate_due
    assert [x.state for x in q2.required] == ["done", "done", "upcoming"]
    assert q2.required[-1].start == new_last
    with pytest.raises(ValidationError, match="runs until"):
        qs.release_certified(db, operator, q.id, days_ago(0, 1), "Dr. Kim", PROFILE)


def test_an_exam_off_its_day_is_accepted_with_a_warning_naming_the_missing_exam(
    db, operator, rex, clinic
):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(12), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    qid = r.quarantine_id
    exam(db, operator, qid, day(12))
    exam(db, operator, qid, day(9))
    done = exam(db, operator, qid, day(8))  # the intervening one is already done
    assert "last examination" in done.warning and "58-527(b)" in done.warning
    q = qs.get_quarantine(db, qid, PROFILE)
    assert q.exams[-1].counts_as == "" and q.exams[-1].warning == done.warning
    with pytest.raises(ValidationError) as exc:
        exam(db, operator, qid, day(-1))
    assert fields(exc) == {"examined_on"}
    with pytest.raises(ValidationError) as exc:
        exam(db, operator, qid, day(13))
    assert fields(exc) == {"examined_on"}
    with pytest.raises(ValidationError) as exc:
        qs.record_exam(db, operator, qid, qs.ExamInput(day(5), "", "maybe", None), PROFILE)
    assert fields(exc) == {"veterinarian", "finding", "fee"}
    # Released only with every required exam: the last one is missing.
    with pytest.raises(ValidationError, match="last examination") as exc:
        qs.release_certified(db, operator, qid, days_ago(1), "Dr. Kim", PROFILE)
    assert fields(exc) == {"exams"}


def test_a_last_exam_with_signs_of_rabies_cannot_be_certified(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(12), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    qid = r.quarantine_id
    for on, finding in ((day(12), "no_signs"), (day(7), "no_signs"), (day(2), "signs_of_rabies")):
        exam(db, operator, qid, on, finding)
    q = qs.get_quarantine(db, qid, PROFILE)
    assert any("health officer" in w for w in q.warnings)
    with pytest.raises(ValidationError, match="cannot be certified"):
        qs.release_certified(db, operator, qid, days_ago(1), "Dr. Kim", PROFILE)
    with pytest.raises(ValidationError) as exc:
        qs.record_signs_of_rabies(db, operator, qid, days_ago(2, 12), "", PROFILE)
    assert fields(exc) == {"who"}
    qs.record_signs_of_rabies(db, operator, qid, days_ago(2, 12), "Dr. Ellen Park", PROFILE)
    assert not any("health officer" in w for w in qs.get_quarantine(db, qid, PROFILE).warnings)


def test_death_closes_it_and_the_specimen_is_recorded_once(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(5), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    qid = r.quarantine_id
    with pytest.raises(ValidationError, match="after the animal died"):
        qs.record_specimen_sent(db, operator, qid, days_ago(1), "Off. Lee", PROFILE)
    with pytest.raises(ValidationError):
        qs.record_death(db, operator, qid, "vanished", days_ago(2), PROFILE)
    qs.record_death(db, operator, qid, "euthanized", days_ago(2), PROFILE)
    q = qs.get_quarantine(db, qid, PROFILE)
    assert q.status == "euthanized" and any(
        "do not damage the head" in w.lower() for w in q.warnings
    )
    assert [x.state for x in q.required][-1] == "not_needed"
    with pytest.raises(ValidationError, match="closed"):
        exam(db, operator, qid, day(1))
    with pytest.raises(ValidationError, match="no certification"):
        qs.record_certificate_received(db, operator, qid, day(0), PROFILE)
    with pytest.raises(ValidationError) as exc:
        qs.record_specimen_sent(db, operator, qid, days_ago(1), "", PROFILE)
    assert fields(exc) == {"who"}
    qs.record_specimen_sent(db, operator, qid, days_ago(1), "Off. Lee", PROFILE)
    with pytest.raises(ValidationError, match="already"):
        qs.record_specimen_sent(db, operator, qid, days_ago(1), "Off. Lee", PROFILE)


def test_an_exam_finding_death_closes_the_quarantine_as_died(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    exam(db, operator, r.quarantine_id, day(1), "died")
    assert qs.get_quarantine(db, r.quarantine_id, PROFILE).status == "died"


def test_an_escape_closes_it_and_nothing_more_is_recorded(db, operator, rex, vaccinate):
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            days_ago(4),
            animal_id=rex.id,
            rabies_vaccinated_on=day(100),
            rabies_expires_on=day(-100),
        ),
        PROFILE,
    )
    qid = r.quarantine_id
    with pytest.raises(ValidationError) as exc:
        qs.record_escape(db, operator, qid, days_ago(20), PROFILE)
    assert fields(exc) == {"at"}
    qs.record_escape(db, operator, qid, days_ago(1), PROFILE, notes="Dug under the fence")
    assert qs.get_quarantine(db, qid, PROFILE).status == "escaped"
    for call in (
        lambda: qs.record_escape(db, operator, qid, days_ago(0, 1), PROFILE),
        lambda: qs.extend_period(db, operator, qid, day(-30), "Dr. Kim", PROFILE),
        lambda: qs.release_certified(db, operator, qid, days_ago(0, 1), "Dr", PROFILE),
    ):
        with pytest.raises(ValidationError, match="escaped"):
            call()


def test_the_clinic_register_is_a_supervisors_task(db, operator, supervisor, clinic):
    with pytest.raises(PermissionDeniedError):
        qs.create_clinic(db, operator, qs.ClinicInput("Lakeview"))
    with pytest.raises(ValidationError) as exc:
        qs.create_clinic(db, supervisor, qs.ClinicInput("eastside veterinary clinic"))
    assert fields(exc) == {"name"}
    changed = qs.update_clinic(
        db, supervisor, clinic.id, clinic.version, qs.ClinicInput(clinic.name, licensed=False)
    )
    assert not changed.licensed
    with pytest.raises(StaleRecordError):
        qs.update_clinic(db, supervisor, clinic.id, clinic.version, qs.ClinicInput(clinic.name))
    assert [c.name for c in qs.list_clinics(db, licensed_only=True)] == []


@pytest.mark.parametrize("table", ["bite_report", "quarantine_exam", "quarantine_event"])
def test_bite_records_cannot_be_changed_or_deleted(db, operator, rex, clinic, table):
    from sqlalchemy import text
    from sqlalchemy.exc import DatabaseError

    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    exam(db, operator, r.quarantine_id, day(3))
    qs.record_delivery(db, operator, r.quarantine_id, days_ago(3, 13), PROFILE)
    for statement in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError, match="never changed"), db.write() as s:
            s.execute(text(statement))


def test_every_bite_event_reads_as_a_sentence(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    qs.record_delivery(db, operator, r.quarantine_id, days_ago(3, 13), PROFILE)
    exam(db, operator, r.quarantine_id, day(3))
    lines = record_history(db, "quarantine", r.quarantine_id, PROFILE.timezone)
    words = " ".join(h.sentence for h in lines)
    assert "Quarantine ordered in a licensed clinic" in words
    assert "Delivered to the clinic" in words and "first examination" in words
    bite = record_history(db, "bite_report", r.bite_report_id, PROFILE.timezone)
    assert "Rex" in bite[0].sentence and "Jack O'Brien" in bite[0].sentence


def test_dates_of_the_plan_are_local_days(db, operator, rex, clinic):
    r = qs.report_bite(
        db, operator, bite_input(days_ago(2), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert isinstance(q.last_day, date) and q.day_n == 2 and q.day_label == "day 2 of 10"
    assert local_today() - q.bite.bitten_at.astimezone(PROFILE.timezone).date() == timedelta(days=2)


def test_no_certified_release_once_an_examination_found_signs_of_rabies(db, operator, rex, clinic):
    """58-527(b): released only on the veterinarian's certification of no signs of rabies.
    An intervening exam that found signs (reported to the health officer) is not undone
    by a last exam that found none."""
    qid = qs.report_bite(
        db, operator, bite_input(days_ago(12), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    ).quarantine_id
    for on, finding in ((day(12), "no_signs"), (day(7), "signs_of_rabies"), (day(2), "no_signs")):
        exam(db, operator, qid, on, finding)
    qs.record_signs_of_rabies(db, operator, qid, days_ago(7, 12), "Dr. Ellen Park", PROFILE)
    with pytest.raises(ValidationError) as exc:
        qs.release_certified(db, operator, qid, days_ago(1), "Dr. Kim", PROFILE)
    assert fields(exc) == {"exams"}
    assert qs.get_quarantine(db, qid, PROFILE).status == "open"
