"""A vicious case's status change reads in History as the statuses' words, the ones the case
view shows, never as codes ("declared to served")."""

from __future__ import annotations

import pytest
from support import local
from vicious_cases import declared, owner_and_dog

from fieldops.services.history import record_history
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import OutcomeInput, record_outcome
from fieldops.services.vicious.views import STATUS_LABELS


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


def test_status_changes_read_as_the_case_statuses_words(db, operator, profile, today):
    _, dog = owner_and_dog(db, operator, today)
    case = declared(db, operator, profile, dog.id)
    serve_notice(
        db,
        operator,
        case.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    record_outcome(db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 6)), profile)
    lines = [
        h
        for h in record_history(db, "vicious_case", case.id, profile.timezone)
        if h.action == "status" and "Status" in h.sentence
    ]
    said = " ".join(h.sentence for h in lines)
    assert lines, "a status change is in the history"
    assert STATUS_LABELS["declared"] in said and STATUS_LABELS["served"] in said
    assert STATUS_LABELS["not_complied"] in said
    assert "declared to served" not in said and "served to not" not in said
