"""Field calls (issue 16): calls, dispatches, complaints and petitions, citations on the
penalty ladder, caution flags, rechecks and the due items; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from fieldops.errors import PermissionDeniedError, StaleRecordError, ValidationError
from fieldops.modules import due_items
from fieldops.rules import penalty_for
from fieldops.services.calls.citations import CitationInput, cite, update_citation
from fieldops.services.calls.complaints import (
    PetitionInput,
    file_petition,
    log_complaint,
    record_notification,
)
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.flags import clear_flag, set_flag
from fieldops.services.calls.module import checks
from fieldops.services.calls.records import (
    CallInput,
    create_call,
    get_call,
    open_recheck,
    update_call,
)
from fieldops.services.history import record_history


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)


def _call(owner, **kw) -> CallInput:
    data = {
        "received_at": _now(),
        "received_how": "phone",
        "kind": "noise",
        "address": "12 Elm St",
        "priority": 2,
        "caller_name": "Nora Neighbour",
        "caller_phone": "555-0101",
        "owner_id": owner.id,
        "description": "Barking all night.",
    }
    data.update(kw)
    return CallInput(**data)


def _categories(db, profile, day=None):
    day = day or datetime.now(profile.timezone).date()
    return [(i.category, i.record_id) for i in due_items(db, day, profile) if i.module == "call"]


def test_a_call_is_taken_once_per_save_and_refused_naming_its_fields(db, officer, owner):
    c = create_call(db, officer, _call(owner), client_key="k-1")
    again = create_call(db, officer, _call(owner), client_key="k-1")
    assert again.id == c.id and c.section == "58-531" and c.status == "open"
    with pytest.raises(ValidationError) as e:
        create_call(db, officer, _call(owner, address=" ", kind="nope", caller_name=""))
    assert {"address", "kind", "caller_name"} <= set(e.value.by_field())
    anon = create_call(db, officer, _call(owner, anonymous=True, caller_name="Hidden"))
    assert anon.anonymous and anon.caller_name == ""


def test_phone_to_dispatch_to_outcome_follow_up_and_recheck(db, officer, owner, profile):
    c = create_call(db, officer, _call(owner))
    assert ("call.not_dispatched", c.id) in _categories(db, profile)
    v = dispatch(db, officer, c.id, c.version, officer.username, _now() + timedelta(minutes=5))
    assert v.status == "dispatched" and v.officer == officer.username
    assert ("call.no_outcome", c.id) in _categories(db, profile)
    with pytest.raises(StaleRecordError):
        dispatch(db, officer, c.id, c.version, officer.username)
    d = v.dispatches[0]
    with pytest.raises(ValidationError) as e:
        update_dispatch(db, officer, d.id, d.version, DispatchUpdate(outcome="warned"))
    assert "cleared_at" in e.value.by_field()
    today = datetime.now(profile.timezone).date()
    v = update_dispatch(
        db,
        officer,
        d.id,
        d.version,
        DispatchUpdate(
            arrived_at=d.sent_at + timedelta(minutes=20),
            cleared_at=d.sent_at + timedelta(minutes=40),
            outcome="warned",
            follow_up_on=today,
        ),
    )
    assert (v.status, v.outcome, v.follow_up_on) == ("closed", "warned", today)
    cats = _categories(db, profile)
    assert ("call.follow_up_due", c.id) in cats and ("call.no_outcome", c.id) not in cats
    r = open_recheck(db, officer, c.id)
    assert r.recheck_of_id == c.id and r.address == c.address and r.kind == "noise"
    assert get_call(db, c.id).rechecks == (r.id,)
    assert ("call.follow_up_due", c.id) not in _categories(db, profile)
    with db.read() as s:
        assert checks(s.connection()) == []
    words = [h.sentence for h in record_history(db, "call_dispatch", d.id, profile.timezone)]
    assert any("Warned" in w for w in words)


def test_an_officer_must_come_from_the_staff(db, officer, operator, owner):
    c = create_call(db, officer, _call(owner))
    with pytest.raises(ValidationError) as e:
        dispatch(db, officer, c.id, c.version, "nobody")
    assert "officer" in e.value.by_field()
    with pytest.raises(ValidationError):
        dispatch(db, officer, c.id, c.version, operator.username)  # a pound account


def test_barking_complaint_notice_refused_then_accepted_petition(db, officer, owner, profile):
    c = create_call(db, officer, _call(owner))
    v = log_complaint(db, officer, c.id, complainant="Nora Neighbour", alleged="Barking")
    comp = v.complaints[0]
    incomplete = PetitionInput(
        received_on=datetime.now(profile.timezone).date(),  # the city's day
        petitioners="Nora, 555-0101, 14 Elm",
        animal="Lab",
    )
    with pytest.raises(ValidationError) as e:  # before the owner was notified
        file_petition(db, officer, comp.id, incomplete, record_refusal=True)
    assert "notified_at" in e.value.by_field()
    v = record_notification(db, officer, comp.id, comp.version, how="mail")
    assert v.complaints[0].notified_how == "mail"
    with pytest.raises(ValidationError) as e:
        file_petition(db, officer, comp.id, incomplete)
    assert set(e.value.by_field()) == {"violations", "reported_on", "will_testify"}
    assert get_call(db, c.id).complaints[0].petitions == ()  # nothing written
    v = file_petition(db, officer, comp.id, incomplete, record_refusal=True)
    refused = v.complaints[0].petitions[0]
    assert refused.status == "refused"
    assert refused.missing == ("violations", "reported_on", "will_testify")
    complete = PetitionInput(
        received_on=incomplete.received_on,
        petitioners=incomplete.petitioners,
        animal=incomplete.animal,
        violations="Nightly barking 10 pm - 2 am, 3-5 March",
        reported_on="3, 4 and 5 March",
        will_testify=True,
    )
    with pytest.raises(ValidationError) as e:
        file_petition(db, officer, comp.id, complete)
    assert {"referred_to", "referred_on"} == set(e.value.by_field())
    v = file_petition(
        db,
        officer,
        comp.id,
        PetitionInput(
            **{**complete.__dict__, "referred_to": "police", "referred_on": complete.received_on}
        ),
    )
    accepted = v.complaints[0].petitions[1]
    assert (accepted.status, accepted.referred_to) == ("accepted", "police")
    with pytest.raises(Exception, match="never changed"), db.write() as s:
        s.execute(text("UPDATE call_petition SET status = 'refused'"))


def test_repeat_offender_climbs_the_ladder_each_day_an_offence(db, officer, owner, profile):
    today = datetime.now(profile.timezone).date()
    first = cite(
        db,
        officer,
        CitationInput(
            owner.id,
            "58-531",
            (today - timedelta(days=30),),
            "Off. Lee",
            court_on=today - timedelta(days=3),
        ),
        profile,
    )
    later = cite(
        db,
        officer,
        CitationInput(
            owner.id, "58-531", (today - timedelta(days=1), today - timedelta(days=2)), "Off. Lee"
        ),
        profile,
    )
    numbers = [c.offence_number for c in (*first, *later)]
    assert numbers == [1, 2, 3]
    assert [c.forfeiture for c in (*first, *later)] == [
        penalty_for("58-531", n, profile).forfeiture for n in numbers
    ]
    with pytest.raises(ValidationError) as e:
        cite(
            db,
            officer,
            CitationInput(owner.id, "58-531", (today - timedelta(days=1),), "X"),
            profile,
        )
    assert "days" in e.value.by_field()
    if first[0].forfeiture:
        assert ("call.citation_unpaid", first[0].id) in _categories(db, profile)
        update_citation(
            db, officer, first[0].id, first[0].version, court_on=first[0].court_on, paid_on=today
        )
    assert ("call.citation_unpaid", first[0].id) not in _categories(db, profile)
    other = cite(db, officer, CitationInput(owner.id, "58-529", (today,), "X"), profile)
    assert other[0].offence_number == 1  # counted per section


def test_caution_flags_set_and_cleared_by_a_supervisor_shown_on_calls(
    db, officer, supervisor, owner, profile
):
    with pytest.raises(PermissionDeniedError):
        set_flag(db, officer, reason="Threatened an officer", person_id=owner.id)
    with pytest.raises(ValidationError) as e:
        set_flag(db, supervisor, reason=" ")
    assert {"reason", "person_id"} <= set(e.value.by_field())
    f = set_flag(db, supervisor, reason="Dog has attacked", address="12  ELM St.")
    c = create_call(db, officer, _call(owner, owner_id=None))
    assert [x.id for x in c.flags] == [f.id]
    p = set_flag(db, supervisor, reason="Threatened an officer", person_id=owner.id)
    c2 = create_call(db, officer, _call(owner, address="9 Far Rd"))
    assert [x.id for x in c2.flags] == [p.id]
    with pytest.raises(ValidationError):
        clear_flag(db, supervisor, f.id, f.version, "")
    clear_flag(db, supervisor, f.id, f.version, "Dog moved away")
    assert get_call(db, c.id).flags == ()
    words = [h.sentence for h in record_history(db, "caution_flag", f.id, profile.timezone)]
    assert any("Dog moved away" in w for w in words) and any("Dog has attacked" in w for w in words)


def test_a_form_time_in_the_same_minute_is_not_before_the_step_it_follows(db, officer, owner):
    c = create_call(db, officer, _call(owner, received_at=datetime.now(UTC) - timedelta(seconds=1)))
    minute = c.received_at.replace(second=0, microsecond=0)
    v = dispatch(db, officer, c.id, c.version, officer.username, minute)  # the form's minute
    v = log_complaint(db, officer, c.id, complainant="Nora", alleged="Barking")
    comp = v.complaints[0]
    v = record_notification(
        db,
        officer,
        comp.id,
        comp.version,
        how="phone",
        at=comp.logged_at.replace(second=0, microsecond=0),
    )
    assert v.complaints[0].notified_how == "phone"


def test_a_complaint_logged_before_its_call_came_in_is_refused(db, officer, owner):
    # A complaint is made on a call (58-534(a)): not before it came in, as a dispatch.
    c = create_call(db, officer, _call(owner))
    for before in (timedelta(days=30), timedelta(minutes=1)):
        with pytest.raises(ValidationError) as e:
            log_complaint(
                db,
                officer,
                c.id,
                complainant="Nora",
                alleged="Barking",
                logged_at=c.received_at - before,
            )
        assert set(e.value.by_field()) == {"logged_at"}
    assert get_call(db, c.id).complaints == ()
    minute = c.received_at.replace(second=0, microsecond=0)  # the form's minute
    v = log_complaint(db, officer, c.id, complainant="Nora", alleged="Barking", logged_at=minute)
    assert [x.logged_at for x in v.complaints] == [minute]


def test_check_reports_a_call_whose_state_its_dispatches_do_not_support(db, officer, owner):
    c = create_call(db, officer, _call(owner))
    dispatch(db, officer, c.id, c.version, officer.username)
    with db.write() as s:
        s.execute(text("UPDATE field_call SET status = 'closed'"))
    with db.read() as s:
        problems = checks(s.connection())
    assert any(f"#{c.id}" in p and "state" in p for p in problems)


def test_a_call_is_not_revised_to_be_received_after_its_dispatch(db, officer, owner):
    c = create_call(db, officer, _call(owner))
    sent = c.received_at + timedelta(minutes=10, seconds=30)
    v = dispatch(db, officer, c.id, c.version, officer.username, sent)
    d = v.dispatches[0]
    v = update_dispatch(
        db, officer, d.id, d.version, DispatchUpdate(sent, sent + timedelta(minutes=20), "warned")
    )
    for later in (datetime.now(UTC), sent + timedelta(minutes=1)):  # after clearing, sending
        with pytest.raises(ValidationError) as e:
            update_call(db, officer, v.id, v.version, _call(owner, received_at=later))
        assert set(e.value.by_field()) == {"received_at"}
    assert get_call(db, c.id).received_at == c.received_at  # nothing changed
    in_its_minute = sent.replace(second=0)  # the form gives the minute
    v = update_call(db, officer, v.id, v.version, _call(owner, received_at=in_its_minute))
    assert v.received_at == in_its_minute
    open_call = create_call(db, officer, _call(owner))
    later = update_call(
        db, officer, open_call.id, open_call.version, _call(owner, received_at=datetime.now(UTC))
    )
    assert later.received_at > open_call.received_at  # no dispatch yet: nothing it must precede


def test_a_recheck_retried_with_its_key_is_opened_once(db, officer, owner):
    c = create_call(db, officer, _call(owner))
    first = open_recheck(db, officer, c.id, client_key="recheck-1")
    again = open_recheck(db, officer, c.id, client_key="recheck-1")  # the reply was lost
    assert again.id == first.id and get_call(db, c.id).rechecks == (first.id,)
