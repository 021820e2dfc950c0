"""Animal fancier's permits (58-533(a)): the animal list and its 30 days, incidents, the
annual review by ``fancier_renewal``, the certified-mail notice, the appeal (enforcement
stayed while it is open) and its decision."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from fieldops.db.models import PermitReview
from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.rules import fancier_list_update_due, fancier_renewal, format_day
from fieldops.services.history import record_history
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.animal_list import note_animal_change, update_animal_list
from fieldops.services.permits.appeals import decide_appeal, file_appeal, mail_notice
from fieldops.services.permits.applying import FancierInput, apply_fancier, renew_fancier
from fieldops.services.permits.enforcing import IncidentInput, record_incident, review_permit
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.module import due_items
from fieldops.services.permits.views import AnimalLine

PIGEONS = (AnimalLine("pigeons", 14, "Racing homers"), AnimalLine("rabbits", 3))


@pytest.fixture
def permit(db, operator, profile):
    who = create_person(db, operator, PersonInput(full_name="Ivo Marsh", address="3 Loft Ln"))
    v = apply_fancier(
        db, operator, who.id, who.address, FancierInput(date(2026, 1, 5), 2026, PIGEONS), profile
    )
    return issue_permit(db, operator, v.id, date(2026, 1, 6), profile)


def _incident(db, operator, pid, day, ending="warning", kind="noise", profile=None):
    number = "C-1" if ending == "citation" else ""
    return record_incident(
        db, operator, pid, IncidentInput(day, kind, ending, "Complaint", number), profile
    )


def test_the_list_is_due_30_days_after_a_change_and_overdue_after(db, operator, permit, profile):
    assert permit.animals == PIGEONS
    with pytest.raises(ValidationError) as e:
        update_animal_list(db, operator, permit.id, date(2026, 9, 1), date(2026, 9, 2), (), profile)
    assert e.value.field == "animals"
    v = note_animal_change(db, operator, permit.id, date(2026, 9, 1), "Six kits born", profile)
    due = fancier_list_update_due(date(2026, 9, 1), profile)
    assert v.list_update_due == due
    on_time = {i.category for i in due_items(db, due, profile) if i.record_id == v.id}
    late = [i for i in due_items(db, date(2026, 11, 30), profile) if i.record_id == v.id]
    assert "permit.list_update_overdue" not in on_time
    assert [(i.category, i.overdue) for i in late if "list" in i.category] == [
        ("permit.list_update_overdue", True)
    ]
    lines = (AnimalLine("pigeons", 14), AnimalLine("rabbits", 9, ""))
    v = update_animal_list(db, operator, v.id, date(2026, 9, 1), date(2026, 11, 20), lines, profile)
    assert v.list_update_due is None and v.animals == lines
    assert v.list_entries[-1].late and "30 days" in v.list_entries[-1].due_why
    assert not [i for i in due_items(db, date(2026, 11, 30), profile) if "list" in i.category]


def test_three_incidents_mean_not_renewed_with_notice_and_appeal(
    db, operator, officer, permit, profile
):
    pid = permit.id
    for day, ending in ((date(2026, 1, 20), "warning"), (date(2026, 4, 2), "citation")):
        _incident(db, operator, pid, day, ending, profile=profile)
    _incident(db, operator, pid, date(2026, 5, 5), "none", profile=profile)  # not counted
    with pytest.raises(PermissionDeniedError):
        review_permit(db, operator, pid, date(2026, 11, 2), profile)
    v = review_permit(db, officer, pid, date(2026, 6, 1), profile)
    assert v.status == "issued" and v.review.renew  # two: renewed
    v = _incident(db, operator, pid, date(2026, 10, 9), "citation", "at_large", profile)
    v = review_permit(db, officer, pid, date(2026, 11, 2), profile)
    review = v.review
    assert v.status == "not_renewed" and not review.renew
    assert review.counted == (date(2026, 1, 20), date(2026, 4, 2), date(2026, 10, 9))
    assert [i.occurred_on for i in review.incidents] == list(review.counted)
    assert v.can_mail_notice and not v.can_appeal
    with pytest.raises(ValidationError) as e:
        renew_fancier(db, operator, pid, date(2026, 11, 3), 2027, profile)
    assert e.value.field == "permit"  # not renewed: no renewal
    with pytest.raises(ValidationError) as e:
        mail_notice(db, officer, pid, date(2026, 11, 3), "", profile)
    assert e.value.field == "article_number"
    v = mail_notice(db, officer, pid, date(2026, 11, 3), "7019 0700 0000 1111", profile)
    expected = fancier_renewal(review.counted, date(2026, 11, 2), profile).appeal_by(
        date(2026, 11, 3)
    )
    assert v.appeal_by == expected == v.review.notice.appeal_by
    lines = record_history(db, "permit", pid, profile.timezone)
    assert any(h.sentence == f"Appeal due by {format_day(expected)}." for h in lines)
    assert "certified mail" in v.review.notice.appeal_why
    days = {i.category for i in due_items(db, date(2026, 11, 4), profile) if i.record_id == pid}
    assert "permit.appeal_due" in days
    v = file_appeal(db, officer, pid, date(2026, 11, 20), "Disputes the noise", profile)
    assert v.status == "appeal_pending" and v.stayed and v.status_label.startswith("Appeal pending")
    assert v.in_force(date(2026, 11, 25))  # enforcement stayed: the permit still stands
    v = decide_appeal(db, officer, pid, date(2026, 11, 28), "upheld", "Board of appeals", profile)
    assert v.status == "not_renewed" and not v.in_force(date(2027, 1, 2))
    assert v.review.appeal.decision.outcome == "upheld"


def test_a_late_appeal_is_refused_and_a_reversed_one_restores_the_permit(
    db, operator, officer, permit, profile
):
    pid = permit.id
    for day in (date(2026, 2, 1), date(2026, 3, 1), date(2026, 4, 1)):
        _incident(db, operator, pid, day, profile=profile)
    review_permit(db, officer, pid, date(2026, 4, 10), profile, purpose="revocation")
    v = mail_notice(db, officer, pid, date(2026, 4, 11), "7019 0700 0000 2222", profile)
    assert v.status == "revoked"
    with pytest.raises(ValidationError) as e:
        file_appeal(db, officer, pid, v.appeal_by + timedelta(days=1), "", profile)
    assert e.value.field == "filed_on"
    file_appeal(db, officer, pid, v.appeal_by, "", profile)
    v = decide_appeal(
        db, officer, pid, date(2026, 6, 1), "reversed", "Board of appeals", profile, reason="x"
    )
    assert v.status == "issued" and v.in_force(date(2026, 6, 2)) and v.appeal_by is None


def test_renewal_waits_for_a_favourable_review(db, operator, officer, permit, profile):
    with pytest.raises(ValidationError) as e:
        renew_fancier(db, operator, permit.id, date(2026, 11, 20), 2027, profile)
    assert e.value.field == "review"
    review_permit(db, officer, permit.id, date(2026, 11, 19), profile)
    v = renew_fancier(db, operator, permit.id, date(2026, 11, 20), 2027, profile)
    v = issue_permit(db, operator, v.id, date(2026, 11, 21), profile)
    assert v.renewed and v.year == 2027


def test_a_review_dated_before_the_permit_was_issued_is_refused_and_renews_nothing(
    db, operator, officer, permit, profile
):
    # 58-533(a)(2)c: the review counts the incidents in the 12 months up to its day; one
    # dated before the permit was issued (6 Jan 2026) counts none of them.
    for day in (date(2026, 2, 1), date(2026, 3, 1), date(2026, 4, 1)):
        _incident(db, operator, permit.id, day, profile=profile)
    for day in (date(2023, 6, 1), date(2026, 1, 5)):
        with pytest.raises(ValidationError) as e:
            review_permit(db, officer, permit.id, day, profile)
        assert e.value.field == "review_day"
    # A renewing review of the year dated before the issue (as one could be recorded before
    # this was refused) is no review of the year in force: the renewal waits for one.
    with db.write() as s:
        s.add(
            PermitReview(
                permit_id=permit.id,
                year=2026,
                review_day=date(2023, 6, 1),
                purpose="renewal",
                renew=True,
                counted=[],
                incident_ids=[],
                recorded_by=officer.username,
                recorded_at=datetime.now(UTC),
            )
        )
    with pytest.raises(ValidationError) as e:
        renew_fancier(db, operator, permit.id, date(2026, 11, 20), 2027, profile)
    assert e.value.field == "review"
    v = review_permit(db, officer, permit.id, date(2026, 6, 1), profile)
    assert v.status == "not_renewed" and v.review.counted == (
        date(2026, 2, 1),
        date(2026, 3, 1),
        date(2026, 4, 1),
    )
