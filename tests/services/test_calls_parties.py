"""The people and animals involved in a call beyond its caller (issue 16): saved with the
call in one audited unit of work, refused naming the row, found in a person's history,
their cautions shown on the call; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from fieldops.db.models import AuditEvent, CallParty
from fieldops.errors import StaleRecordError, ValidationError
from fieldops.services.calls.flags import set_flag
from fieldops.services.calls.listing import CallFilter, calls_page
from fieldops.services.calls.parties import PartyInput
from fieldops.services.calls.records import (
    CallInput,
    create_call,
    get_call,
    open_recheck,
    update_call,
)
from fieldops.services.history import record_history
from fieldops.services.people import PersonInput, create_person
from fieldops.services.places import person_history

# One instant for every call of the file: two forms made either side of a second's edge
# would differ in their time received, and an "unchanged" save would not be.
RECEIVED = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)


def _call(owner_id: int, *parties: PartyInput, **kw) -> CallInput:
    data = {
        "received_at": RECEIVED,
        "received_how": "phone",
        "kind": "bite",
        "address": "12 Elm St",
        "priority": 1,
        "caller_name": "Nora Neighbour",
        "owner_id": owner_id,
        "description": "A dog bit a child through the fence.",
        "parties": parties,
    }
    data.update(kw)
    return CallInput(**data)


def _events(db, call_id: int) -> int:
    with db.read() as s:
        return s.scalar(
            select(func.count()).where(
                AuditEvent.entity == "field_call", AuditEvent.entity_id == call_id
            )
        )


@pytest.fixture
def witness(db, operator):
    return create_person(db, operator, PersonInput(full_name="Wes Witness", address="3 Far Rd"))


def test_a_call_keeps_several_people_and_animals_in_order_audited(
    db, officer, owner, rex, witness, profile
):
    parties = (
        PartyInput("person", "witness", person_id=witness.id, notes="saw it from the porch"),
        PartyInput("person", "victim", description="Girl, about 8, bitten on the arm"),
        PartyInput("animal", "subject", animal_id=rex.id),
        PartyInput("animal", "other", description="  Small  white terrier "),
    )
    c = create_call(db, officer, _call(owner.id, *parties), client_key="p-1")
    assert [(p.kind, p.role, p.person_id, p.animal_id) for p in c.parties] == [
        ("person", "witness", witness.id, None),
        ("person", "victim", None, None),
        ("animal", "subject", None, rex.id),
        ("animal", "other", None, None),
    ]
    assert c.parties[0].name == "Wes Witness" and c.parties[2].name.startswith("Rex")
    assert c.parties[3].name == "Small white terrier"  # cleaned, as every field is
    again = create_call(db, officer, _call(owner.id, *parties), client_key="p-1")
    assert again.id == c.id and again.parties == c.parties  # a retry takes nothing twice
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(CallParty)) == 4
    words = [h.sentence for h in record_history(db, "field_call", c.id, profile.timezone)]
    assert "Wes Witness (witness" in words[-1] and "Rex" in words[-1]


def test_update_rewrites_the_parties_audited_once_and_an_unchanged_save_writes_nothing(
    db, officer, owner, rex, witness, profile
):
    first = PartyInput("person", "witness", person_id=witness.id)
    c = create_call(db, officer, _call(owner.id, first))
    same = update_call(db, officer, c.id, c.version, _call(owner.id, first))
    assert same.version == c.version and _events(db, c.id) == 1
    # Only the parties change: the call's version still moves, so a stale screen is refused.
    v = update_call(
        db,
        officer,
        c.id,
        c.version,
        _call(owner.id, PartyInput("animal", "victim", animal_id=rex.id), first),
    )
    assert v.version == c.version + 1 and _events(db, c.id) == 2
    assert [p.role for p in v.parties] == ["victim", "witness"]
    with pytest.raises(StaleRecordError):
        update_call(db, officer, c.id, c.version, _call(owner.id))
    words = [h.sentence for h in record_history(db, "field_call", c.id, profile.timezone)]
    assert "involved now" in words[0] and "Wes Witness" in words[0]
    v = update_call(db, officer, c.id, v.version, _call(owner.id))  # all removed
    assert v.parties == () and _events(db, c.id) == 3
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(CallParty)) == 0


def test_a_bad_row_is_refused_naming_it_and_nothing_is_written(db, officer, owner, witness):
    rows = (
        PartyInput("person", "witness", person_id=witness.id),
        PartyInput("person", "witness", person_id=witness.id),  # listed twice
        PartyInput("animal", "owner", description="a cat"),  # a person's role
        PartyInput("person", "victim"),  # neither registry nor described
        PartyInput("plant", "other", description="a fern"),
        PartyInput("person", "other", animal_id=1, description="a dog's walker"),
    )
    with pytest.raises(ValidationError) as e:
        create_call(db, officer, _call(owner.id, *rows))
    assert {
        "parties.1.person_id",
        "parties.2.role",
        "parties.3.description",
        "parties.4.kind",
        "parties.5.animal_id",
    } <= set(e.value.by_field())
    assert "Row 4" in e.value.by_field()["parties.3.description"]
    with pytest.raises(ValidationError) as e:
        create_call(
            db, officer, _call(owner.id, PartyInput("animal", "subject", animal_id=999_999))
        )
    assert set(e.value.by_field()) == {"parties.0.animal_id"}
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(CallParty)) == 0
        assert s.scalar(select(func.count()).where(AuditEvent.entity == "field_call")) == 0


def test_a_witness_finds_the_call_in_their_history_and_their_caution_shows_on_it(
    db, officer, supervisor, owner, witness
):
    c = create_call(
        db,
        officer,
        _call(owner.id, PartyInput("person", "witness", person_id=witness.id), address="7 Oak Ave"),
    )
    found = person_history(db, witness.id)
    assert ("call", "call", c.id) in {(r.module, r.kind, r.record_id) for r in found}
    listed = calls_page(db, CallFilter(show="all", text="wes witness"), 0, 9, datetime.now(UTC))
    assert [r.id for r in listed.rows] == [c.id]  # the list's search finds them too
    assert get_call(db, c.id).flags == ()
    assert not listed.rows[0].flagged
    set_flag(db, supervisor, person_id=witness.id, reason="Threatened an officer")
    assert [f.person_id for f in get_call(db, c.id).flags] == [witness.id]
    relisted = calls_page(db, CallFilter(show="all", text="wes witness"), 0, 9, datetime.now(UTC))
    assert relisted.rows[0].flagged  # the list's caution mark counts everyone involved


def test_a_recheck_copies_the_parties(db, officer, owner, witness):
    c = create_call(db, officer, _call(owner.id, PartyInput("person", "witness", witness.id)))
    r = open_recheck(db, officer, c.id)
    assert r.recheck_of_id == c.id and [p.person_id for p in r.parties] == [witness.id]
