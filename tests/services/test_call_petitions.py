"""Petitions after a complaint (58-534(a)): what is written is what the clerk asked for,
on the days the law allows; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from calls_support import call_input, complained_call

from fieldops.errors import ValidationError
from fieldops.services.calls import complaints
from fieldops.services.calls.complaints import (
    PetitionInput,
    file_petition,
    log_complaint,
    record_notification,
)
from fieldops.services.calls.records import create_call, get_call


def _today(profile):
    return datetime.now(profile.timezone).date()


def _complete(day, **kw) -> PetitionInput:
    data = {
        "received_on": day,
        "petitioners": "Nora Neighbour, 555-0101, 14 Elm St",
        "animal": "Black Labrador; owner Ana Ruiz, 12 Elm St",
        "violations": "Barking 10 pm to 2 am, 3 to 5 March",
        "reported_on": "3, 4 and 5 March",
        "will_testify": True,
        "referred_to": "police",
        "referred_on": day,
    }
    data.update(kw)
    return PetitionInput(**data)


def test_a_complete_petition_is_never_recorded_as_refused_nor_as_accepted(
    db, officer, owner, profile
):
    v = complained_call(db, officer, owner.id)
    comp = v.complaints[0]
    with pytest.raises(ValidationError) as e:
        file_petition(db, officer, comp.id, _complete(_today(profile)), record_refusal=True)
    assert set(e.value.by_field()) == {"missing"}
    assert "five parts" in e.value.by_field()["missing"]
    assert get_call(db, v.id).complaints[0].petitions == ()  # nothing written
    # The clerk says what it lacks (the statement to testify): the refusal is recorded so.
    lacking = _complete(_today(profile), will_testify=False)
    v = file_petition(db, officer, comp.id, lacking, record_refusal=True)
    (refused,) = v.complaints[0].petitions
    assert (refused.status, refused.missing, refused.referred_to) == (
        "refused",
        ("will_testify",),
        None,
    )


def test_a_petition_is_not_received_before_the_owner_was_notified(db, officer, owner, profile):
    v = complained_call(db, officer, owner.id)  # the owner notified just now
    comp = v.complaints[0]
    earlier = _today(profile) - timedelta(days=30)
    for refusal in (False, True):
        with pytest.raises(ValidationError) as e:
            file_petition(
                db,
                officer,
                comp.id,
                _complete(earlier, referred_on=earlier, will_testify=not refusal),
                record_refusal=refusal,
            )
        assert set(e.value.by_field()) == {"received_on"}
        assert "notified" in e.value.by_field()["received_on"]
    assert get_call(db, v.id).complaints[0].petitions == ()
    same_day = file_petition(db, officer, comp.id, _complete(_today(profile)), profile=profile)
    assert same_day.complaints[0].petitions[0].status == "accepted"


def test_a_petition_is_not_received_nor_referred_in_the_future(db, officer, owner, profile):
    v = complained_call(db, officer, owner.id)
    comp = v.complaints[0]
    today = _today(profile)
    tomorrow = today + timedelta(days=1)
    with pytest.raises(ValidationError) as e:
        file_petition(db, officer, comp.id, _complete(tomorrow))
    assert set(e.value.by_field()) == {"received_on", "referred_on"}
    with pytest.raises(ValidationError) as e:
        file_petition(
            db, officer, comp.id, _complete(today, referred_on=today + timedelta(days=400))
        )
    assert set(e.value.by_field()) == {"referred_on"}
    assert get_call(db, v.id).complaints[0].petitions == ()


def test_in_the_evening_the_citys_tomorrow_is_still_to_come(
    db, officer, owner, profile, monkeypatch
):
    # 8 pm in the city on Tuesday 10 March 2026: 01:00 on 11 March in UTC.
    evening = datetime(2026, 3, 11, 1, 0, tzinfo=UTC)
    c = create_call(
        db, officer, call_input(owner_id=owner.id, received_at=evening - timedelta(hours=3))
    )
    c = log_complaint(
        db,
        officer,
        c.id,
        complainant="Nora",
        alleged="Barking",
        logged_at=evening - timedelta(hours=2),
    )
    comp = c.complaints[0]
    record_notification(
        db, officer, comp.id, comp.version, how="phone", at=evening - timedelta(hours=1)
    )
    monkeypatch.setattr(complaints, "now", lambda: evening)
    with pytest.raises(ValidationError) as e:
        file_petition(db, officer, comp.id, _complete(date(2026, 3, 11)), profile=profile)
    assert set(e.value.by_field()) == {"received_on", "referred_on"}
    v = file_petition(db, officer, comp.id, _complete(date(2026, 3, 10)), profile=profile)
    assert v.complaints[0].petitions[0].received_on == date(2026, 3, 10)


def test_a_received_instant_not_a_day_is_refused_beside_its_field(db, officer, owner, profile):
    v = complained_call(db, officer, owner.id)
    instant = datetime.now(UTC)  # a datetime is a date to Python: it is not compared as one
    with pytest.raises(ValidationError) as e:
        file_petition(
            db, officer, v.complaints[0].id, _complete(instant, referred_on=_today(profile))
        )
    assert set(e.value.by_field()) == {"received_on"}
