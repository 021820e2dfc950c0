"""A vicious-animal case's view reads the parts it has at most one of (its animal, owner,
declaration, outcome and ending) in one statement (issue 14: one statement each cost more
than reading them). The view must hold each part as recorded, and none when there is none,
on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest
from support import local
from vicious_cases import declared, owner_and_dog

from fieldops.db.models import ViciousEnding, ViciousOutcome
from fieldops.services.vicious.cases import load_case
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import (
    EndingInput,
    OutcomeInput,
    end_declaration,
    record_outcome,
)


@pytest.fixture
def operator(officer):
    """Vicious cases are an officer's work (issue 12)."""
    return officer


def _stored(db, model, case_id):
    with db.read() as s:
        return s.query(model).filter_by(case_id=case_id).one_or_none()


def test_each_part_as_recorded_and_none_where_there_is_none(
    db, operator, supervisor, profile, today, selects
):
    _, rex = owner_and_dog(db, operator, today)
    _, bo = owner_and_dog(db, operator, today, "Cy Dunn", "Bo")
    bare = declared(db, operator, profile, rex.id)
    full = declared(db, operator, profile, bo.id)
    serve_notice(
        db,
        operator,
        full.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    written = record_outcome(
        db, operator, full.id, OutcomeInput("not_complied", local(2026, 11, 5, 9)), profile
    )
    ended = end_declaration(
        db,
        supervisor,
        full.id,
        EndingInput("overturned", date(2026, 11, 20), "Dane County Circuit Court", "Provoked"),
        profile,
    )
    assert written.outcome is not None and ended.ending is not None

    selects.clear()
    none = load_case(db, bare.id, profile)
    # The case, its one-of-each parts, and its incidents, notices and steps.
    assert len(selects) == 5
    assert (none.outcome, none.ending, none.notices) == (None, None, ())
    assert none.owner == "Ana Ruiz" and none.animal.startswith("Rex (")
    assert none == bare  # the view the declaration returned

    both = load_case(db, full.id, profile)
    outcome, ending = _stored(db, ViciousOutcome, full.id), _stored(db, ViciousEnding, full.id)
    assert (both.outcome.kind, both.outcome.at) == (outcome.kind, outcome.at)
    assert (both.ending.kind, both.ending.authority) == (ending.kind, ending.authority)
    assert both.owner == "Cy Dunn" and not both.declared
    assert both == ended  # the view a write returns is the one a read gives
