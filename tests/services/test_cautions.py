"""Caution flags through the seam (issue 16): every module's record reads the cautions on
its people and its addresses with ``modules.cautions_for``; a cleared flag is gone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fieldops import modules
from fieldops.modules import Caution, Module
from fieldops.services.calls.flags import clear_flag, set_flag
from fieldops.services.cautions import address_cautions, record_cautions
from fieldops.services.people import PersonInput, create_person


def test_flags_of_any_of_the_people_and_of_the_address_come_back_and_a_cleared_one_does_not(
    db, supervisor, operator, owner
):
    bea = create_person(db, operator, PersonInput(full_name="Bea Quinn", address="4 Oak Ave"))
    cy = create_person(db, operator, PersonInput(full_name="Cy Stone", address="9 Ash Ct"))
    t0 = datetime.now(UTC) - timedelta(days=2)
    threat = set_flag(db, supervisor, reason="Threatened an officer", person_id=bea.id, at=t0)
    dog = set_flag(db, supervisor, reason="Dog has attacked", address="12 Elm St", at=t0)
    gone = set_flag(db, supervisor, reason="Shotgun at the door", person_id=owner.id)
    set_flag(db, supervisor, reason="Not this one", person_id=cy.id)
    set_flag(db, supervisor, reason="Nor this", address="112 Elm St")
    clear_flag(db, supervisor, gone.id, gone.version, "Moved away")

    with db.read() as s:
        # The address as another module writes it: with the city, or with the place.
        for address in ("12 Elm St, Madison", "12 ELM ST., front yard", "12 elm st"):
            found = modules.cautions_for(s, (owner.id, bea.id), address)
            assert [(c.module, c.kind, c.record_id) for c in found] == [
                ("call", "caution", threat.id),
                ("call", "caution", dog.id),
            ], address
        assert found[0].reason == "Threatened an officer" and found[0].set_by == supervisor.username
        assert "Bea Quinn" in found[0].text and found[0].set_at == threat.set_at
        assert modules.cautions_for(s, (owner.id,), "40 Oak Ave") == ()
        assert modules.cautions_for(s, (), "") == ()
    # The record's read: an owner, the place found and the owner's address, each flag once.
    got = record_cautions(db, (None, bea.id), ("12 Elm St, back yard", "12 Elm St", ""))
    assert [c.record_id for c in got] == [threat.id, dog.id]
    assert record_cautions(db, (owner.id, None), ("40 Oak Ave",)) == ()
    # Before knocking: the address's cautions and those of the people living there.
    assert [c.record_id for c in address_cautions(db, "4 Oak Ave, Madison")] == [threat.id]
    assert [c.record_id for c in address_cautions(db, "12 Elm St")] == [dog.id]
    assert address_cautions(db, "  ") == ()


def test_every_modules_cautions_are_merged_each_flag_once_oldest_first(db, supervisor, owner):
    later = datetime.now(UTC) + timedelta(days=1)

    def fake(_s, people, address):
        c = Caution("fake", "warning", 7, "Bees", "Hive at the gate", "sam", later)
        return [c, c] if owner.id in people or address else []

    flag = set_flag(db, supervisor, reason="Dog has attacked", person_id=owner.id)
    with modules.extra(Module("fake", "Fake", cautions=fake)), db.read() as s:
        found = modules.cautions_for(s, (owner.id, owner.id), "")
    assert [(c.module, c.record_id) for c in found] == [("call", flag.id), ("fake", 7)]


def test_the_call_view_shows_a_flag_set_on_the_address_however_the_call_writes_it(
    db, officer, supervisor
):
    """The call's own caution box and every other record's banner match addresses the same way."""
    from fieldops.services.calls.records import CallInput, create_call, get_call

    dog = set_flag(db, supervisor, reason="Dog has attacked", address="12 Elm St")
    call = create_call(
        db,
        officer,
        CallInput(
            received_at=datetime.now(UTC) - timedelta(hours=1),
            received_how="phone",
            kind="at_large",
            address="12 Elm St, Madison",
            priority=2,
            caller_name="Nora Neighbour",
        ),
    )
    assert [f.id for f in get_call(db, call.id).flags] == [dog.id]
