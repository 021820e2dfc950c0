"""The bite-quarantine module on the seam (issue 9): the release block, due items, checks, the
list and the officer's week."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from quarantine_support import PROFILE, bite_input, day, days_ago, exam, local_today
from sqlalchemy import text

from fieldops import modules
from fieldops.check import integrity_problems
from fieldops.errors import ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.context import now
from fieldops.services.dispositions import (
    ReleaseRequest,
    RequirementsNotMet,
    release,
    release_check,
)
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment


@pytest.fixture
def pound(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))


def test_the_module_takes_the_placeholders_place():
    m = [m for m in modules.installed_modules() if m.key == "quarantine"]
    assert len(m) == 1 and m[0].release_blocks is not None and m[0].title == "Bite quarantines"
    assert all(c.startswith("quarantine.") for c in m[0].categories)


def test_a_biting_stray_in_the_pound_is_not_released_while_its_quarantine_is_open(
    db, operator, officer, supervisor, rex, impound, pound, vaccinate
):
    vaccinate(rex.id, on=day(300), until=day(-300))
    imp = impound(rex.id, days_ago(12), reason="bite", bit_person=True)
    r = qs.report_bite(
        db,
        officer,
        bite_input(
            days_ago(12) - timedelta(hours=2),
            impoundment_id=imp.id,
            owner_unknown=True,
            clinic_id=pound.id,
            ordered_at=days_ago(12),
        ),
        PROFILE,
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert q.bite.animal_id == rex.id and q.bite.impoundment_id == imp.id
    at = now() - timedelta(minutes=2)
    fees = quote(db, imp.id, at, True, PROFILE)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(
            tuple(LineInput(f.kind, f.amount) for f in fees.lines if f.amount > 0),
            "cash",
            "R-9",
            payer_id=rex.owner_id,
            paid_at=at,
        ),
        PROFILE,
    )
    req = ReleaseRequest(
        True, rex.owner_id, at=at, rabies_certificate="RV-77", licence_receipt="L-9"
    )
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, PROFILE)}
    block = checked["no_open_quarantine"]
    assert not block.met and block.module == "quarantine"
    assert f"#{q.id}" in block.evidence
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, PROFILE)
    assert {r.code for r in exc.value.requirements} == {"no_open_quarantine"}
    for on in (day(12), day(7), day(2)):
        exam(db, officer, q.id, on, clinic=pound.id)
    qs.record_delivery(db, officer, q.id, days_ago(12, 12), PROFILE)
    qs.release_certified(db, officer, q.id, days_ago(2, 16), "Dr. Kim", PROFILE)
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, PROFILE)}
    assert checked["no_open_quarantine"].met
    view = release(db, operator, imp.id, req, PROFILE)
    assert view.disposition.kind == "reclaimed"


def test_the_stray_must_still_be_in_the_pound(db, officer, rex, impound, pound):
    imp = impound(rex.id, days_ago(3), reason="bite", bit_person=True)
    with pytest.raises(ValidationError, match="no impoundment"):
        qs.report_bite(
            db,
            officer,
            bite_input(
                days_ago(3), impoundment_id=imp.id + 99, owner_unknown=True, clinic_id=pound.id
            ),
            PROFILE,
        )


def test_a_linked_impoundment_not_recorded_as_a_bite_is_flagged(db, officer, rex, impound, pound):
    imp = impound(rex.id, days_ago(3))
    r = qs.report_bite(
        db,
        officer,
        bite_input(
            days_ago(3) - timedelta(hours=1),
            impoundment_id=imp.id,
            clinic_id=pound.id,
            ordered_at=days_ago(3),
        ),
        PROFILE,
    )
    q = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert any("10-day hold" in w for w in q.warnings)


def _categories(db, on):
    return [
        (i.category, i.record_id, i.overdue)
        for i in modules.due_items(db, on, PROFILE)
        if i.module == "quarantine"
    ]


def test_overdue_and_due_items_through_the_seam(db, officer, rex, pound, vaccinate):
    # Ordered three days ago, no exam: the first exam is overdue.
    late = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    # Just ordered at a clinic: delivery due within hours, first exam due today. Today
    # locally: in the first hours after midnight, an order an hour ago was yesterday's,
    # and its first exam rightly overdue.
    midnight = datetime.combine(local_today(), time(0), PROFILE.timezone)
    bitten = max(now() - timedelta(hours=2), midnight)
    fresh = qs.report_bite(
        db,
        officer,
        bite_input(
            bitten,
            species="dog",
            animal_description="Brown terrier mix",
            owner_unknown=True,
            clinic_id=pound.id,
            reported_at=bitten,
            ordered_at=max(now() - timedelta(hours=1), bitten),
        ),
        PROFILE,
    ).quarantine_id
    # Released 18 days after the bite without its certificate: overdue.
    done = qs.report_bite(
        db, officer, bite_input(days_ago(20), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    for on in (day(20), day(15), day(10)):
        exam(db, officer, done, on)
    qs.release_certified(db, officer, done, days_ago(10, 16), "Dr. Kim", PROFILE)
    # Another species, not yet referred.
    bat = qs.report_bite(
        db,
        officer,
        bite_input(days_ago(1), species="other", animal_description="Bat", owner_unknown=True),
        PROFILE,
    ).bite_report_id
    items = _categories(db, local_today())
    assert ("quarantine.exam_overdue", late, True) in items
    assert ("quarantine.delivery_due", late, True) in items  # 24 hours passed, not delivered
    assert ("quarantine.delivery_due", fresh, False) in items
    assert ("quarantine.exam_due_today", fresh, False) in items
    assert ("quarantine.certificate_overdue", done, True) in items
    assert ("quarantine.referral_not_sent", bat, True) in items
    assert not any(rid == done and c != "quarantine.certificate_overdue" for c, rid, _ in items)
    merged = modules.due_items(db, local_today(), PROFILE)
    assert merged[0].overdue  # overdue first on Today and in `fieldops due`
    # On the last day of the observation: the period ends today.
    q = qs.get_quarantine(db, late, PROFILE)
    assert ("quarantine.period_ends_today", late, False) in _categories(db, q.last_day)
    assert ("quarantine.period_ended_open", late, True) in _categories(
        db, q.last_day + timedelta(days=1)
    )
    assert ("quarantine.certificate_due_today", late, False) in _categories(db, q.certificate_due)


def test_check_finds_a_quarantine_changed_past_the_services(db, officer, rex, pound):
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(2), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    assert not [p for p in integrity_problems(db) if "quarantine" in p]
    with db.write() as s:
        s.execute(text("UPDATE quarantine SET status = 'certified' WHERE id = :i"), {"i": qid})
    assert any("quarantine(s) show a state" in p for p in integrity_problems(db))


def test_the_list_filters_searches_and_sorts_in_sql(db, officer, rex, pound):
    a = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    b = qs.report_bite(
        db,
        officer,
        bite_input(
            days_ago(1),
            species="cat",
            animal_description="Grey tabby",
            owner_unknown=True,
            clinic_id=pound.id,
        ),
        PROFILE,
    ).quarantine_id
    qs.record_escape(db, officer, b, days_ago(0, 1), PROFILE)
    today = local_today()
    f = qs.QuarantineFilter
    assert qs.quarantine_ids(db, f("open"), today) == (a,)
    assert qs.quarantine_ids(db, f("closed"), today) == (b,)
    assert qs.quarantine_ids(db, f("overdue"), today) == (a,)
    assert qs.quarantine_ids(db, f("all", text="tabby"), today) == (b,)
    assert qs.quarantine_ids(db, f("all", text="ana ruiz"), today) == (a,)
    assert qs.quarantine_ids(db, f("all", sort="animal"), today) == (b, a)
    assert qs.count_quarantines(db, f("all"), today) == 2
    page = qs.quarantine_page(db, f("all", sort="animal"), today, PROFILE, 0, 50)
    row = {r.id: r for r in page.rows}[a]
    assert row.day == "day 3 of 10" and row.placement == "City Animal Control Pound"
    assert row.next_exam_overdue and row.owner == "Ana Ruiz"
    assert {r.id: r for r in page.rows}[b].day == ""


def test_the_officers_week_lists_exams_deliveries_and_certificates_by_day(db, officer, rex, pound):
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(8), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    exam(db, officer, qid, day(8))
    exam(db, officer, qid, day(4))
    qs.record_delivery(db, officer, qid, days_ago(8, 13), PROFILE)
    week = qs.week_schedule(db, local_today(), PROFILE)
    q = qs.get_quarantine(db, qid, PROFILE)
    assert [(i.day, i.kind) for i in week] == [(q.last_day, "exam")]
    week = qs.week_schedule(db, local_today() + timedelta(days=3), PROFILE)
    assert (q.certificate_due, "certificate") in [(i.day, i.kind) for i in week]


def test_the_officers_week_starts_with_the_exams_already_overdue(db, officer, rex, pound):
    qid = qs.report_bite(
        db, officer, bite_input(days_ago(4), animal_id=rex.id, clinic_id=pound.id), PROFILE
    ).quarantine_id
    week = qs.week_schedule(db, local_today(), PROFILE)
    first = [i for i in week if i.quarantine_id == qid and i.day == local_today()]
    assert any("overdue since" in i.text for i in first)
    # Its delivery deadline passed before the week: listed first, as overdue.
    assert any(i.kind == "delivery" and "overdue" in i.text for i in first)
