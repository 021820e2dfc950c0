"""Petitions after a complaint (58-534(a)): what is written is what the clerk asked for,
on the days the law allows; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest
from calls_support import complained_call

from fieldops.errors import ValidationError
from fieldops.services.calls.complaints import PetitionInput, file_petition
from fieldops.services.calls.records import get_call


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
