"""One call's view reads the call with its caller, owner and animal in one statement
(issue 14). The view must name each as recorded, the described ones as described, and a
call without them as before, on SQLite and PostgreSQL; a missing call is still not found."""

from __future__ import annotations

import pytest
from calls_support import call_input

from fieldops.errors import NotFoundError
from fieldops.services.calls.flags import set_flag
from fieldops.services.calls.records import create_call, get_call
from fieldops.services.people import PersonInput, create_person


def test_a_calls_view_names_its_caller_owner_and_animal(
    db, officer, supervisor, owner, rex, selects
):
    caller = create_person(db, officer, PersonInput(full_name="Nora Neighbour", address="3 Elm"))
    named = create_call(
        db,
        officer,
        call_input(
            "12 Elm St", owner_id=owner.id, caller_id=caller.id, caller_name="", animal_id=rex.id
        ),
    )
    described = create_call(
        db,
        officer,
        call_input("14 Elm St", owner_description="a tall man", animal_description="brown dog"),
    )
    set_flag(db, supervisor, reason="Threatened an officer", person_id=owner.id)

    selects.clear()
    view = get_call(db, named.id)
    assert (view.caller_name, view.owner) == ("Nora Neighbour", owner.full_name)
    assert view.animal.startswith(f"{rex.name} (")
    assert [f.reason for f in view.flags] == ["Threatened an officer"]
    person_reads = [q for q in selects if "FROM person" in q and "JOIN" not in q]
    assert person_reads == []  # the caller and the owner came with the call
    assert get_call(db, named.id) == view

    other = get_call(db, described.id)
    assert (other.owner, other.animal, other.flags) == ("a tall man", "brown dog", ())
    assert other.caller_name == "Nora Neighbour"  # as written on the call


def test_a_call_not_on_file_is_not_found(db):
    with pytest.raises(NotFoundError):
        get_call(db, 4242)
