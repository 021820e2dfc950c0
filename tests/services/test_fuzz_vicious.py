"""Hypothesis fuzzes a vicious case after its declaration (issue 13): the notice, the
outcome, a next step and its completion, and the declaration's end. Only a
ValidationError (or a NotFoundError, for an id no record has) or success comes out, and
what is accepted reads back unchanged, on SQLite and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import itertools
from datetime import UTC, timedelta

import pytest
from fuzz_strategies import (
    FUZZ_FEW,
    good_text,
    hostile_day,
    hostile_id,
    hostile_instant,
    hostile_text,
    only_refusals,
    recent,
    records,
)
from hypothesis import example, given
from hypothesis import strategies as st
from sqlalchemy import select

from fieldops.db.models import (
    ViciousEnding,
    ViciousNotice,
    ViciousOutcome,
    ViciousStep,
    ViciousStepDone,
)
from fieldops.errors import NotFoundError
from fieldops.rules import Profile, to_local
from fieldops.services import validate as v
from fieldops.services.context import now
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import (
    EndingInput,
    OutcomeInput,
    StepInput,
    add_step,
    complete_step,
    end_declaration,
    record_outcome,
)

_OWNERS = itertools.count()
_P = Profile.default()  # the days a strategy draws are the city's local days


def _utc(at):
    return None if at is None else at.astimezone(UTC)


def _one(db, model, case_id):
    with db.read() as s:
        return s.scalars(select(model).where(model.case_id == case_id)).all()


@pytest.fixture
def new_case(db, officer, profile, today):
    """``new_case(days=...)``: a fresh owner's dog declared vicious ``days`` ago, its notice
    served a day later when ``served`` (each example its own case)."""
    from vicious_cases import declaration, owner_and_dog

    from fieldops.services.vicious.declaring import declare

    def _new(days: int = 1, served: bool = False):
        n = next(_OWNERS)
        _owner, dog = owner_and_dog(db, officer, today, owner_name=f"Ana Ruiz {n}")
        decided = now() - timedelta(days=days)
        case = declare(db, officer, declaration(dog.id, decided_at=decided), profile)
        if served:
            at = decided + timedelta(hours=1)
            notice = NoticeInput("in_person", at, "Off. Vang", "12 Elm St", "")
            case = serve_notice(db, officer, case.id, notice, profile)
        return case

    return _new


@example(
    fields={
        "method": "in_person",
        "served_at": now() - timedelta(minutes=5),
        "served_by": "Off. Vang",
        "place": "12 Elm St",
        "notes": "",
        "case": 2**31,  # once an overflow on PostgreSQL: now "no vicious-animal case #..."
    }
)
@FUZZ_FEW
@given(
    fields=records(
        {
            "method": st.sampled_from(["in_person", "posted"]),
            "served_at": recent(50),
            "served_by": good_text,
            "place": good_text,
            "notes": good_text,
            "case": st.just("own"),
        },
        {
            "method": hostile_text,
            "served_at": hostile_instant,
            "served_by": hostile_text,
            "place": hostile_text,
            "notes": hostile_text,
            "case": hostile_id,
        },
    )
)
def test_a_notice_is_refused_or_read_back_unchanged(db, officer, profile, new_case, fields):
    case = new_case(days=1)
    case_id = case.id if fields["case"] == "own" else fields["case"]
    inp = NoticeInput(
        fields["method"], fields["served_at"], fields["served_by"], fields["place"], fields["notes"]
    )
    view = only_refusals(lambda: serve_notice(db, officer, case_id, inp, profile), NotFoundError)
    if view is None:
        assert _one(db, ViciousNotice, case.id) == []
        return
    row = _one(db, ViciousNotice, view.id)[-1]  # the newest (a fuzzed id's case may have one)
    assert (row.method, _utc(row.served_at), row.served_by, row.place, row.notes) == (
        fields["method"],
        _utc(fields["served_at"]),
        v.clean(fields["served_by"]),
        v.clean(fields["place"]),
        fields["notes"].strip(),
    )


@FUZZ_FEW
@given(
    fields=records(
        {
            "kind": st.sampled_from(["destroyed", "removed"]),
            "at": recent(60 * 20),
            "by_whom": good_text,
            "proof": good_text,
            "removed_to": good_text,
            "confirmed_how": good_text,
            "notes": good_text,
        },
        {
            "kind": st.one_of(hostile_text, st.just("not_complied")),
            "at": hostile_instant,
            "by_whom": hostile_text,
            "proof": hostile_text,
            "removed_to": hostile_text,
            "confirmed_how": hostile_text,
            "notes": hostile_text,
        },
    )
)
def test_an_outcome_is_refused_or_read_back_unchanged(db, officer, profile, new_case, fields):
    case = new_case(days=2, served=True)
    inp = OutcomeInput(**fields)
    view = only_refusals(lambda: record_outcome(db, officer, case.id, inp, profile))
    rows = _one(db, ViciousOutcome, case.id)
    if view is None:
        assert rows == []
        return
    (row,) = rows
    assert (row.kind, _utc(row.at), row.notes) == (
        fields["kind"],
        _utc(fields["at"]),
        fields["notes"].strip(),
    )
    if fields["kind"] == "destroyed":
        assert (row.by_whom, row.proof) == (v.clean(fields["by_whom"]), fields["proof"].strip())
    else:
        assert (row.removed_to, row.confirmed_how) == (
            v.clean(fields["removed_to"]),
            fields["confirmed_how"].strip(),
        )


@pytest.fixture
def not_complied(db, officer, profile, new_case):
    """``not_complied()``: a case whose notice's deadline passed without compliance."""

    def _case():
        case = new_case(days=10, served=True)
        outcome = OutcomeInput("not_complied", now() - timedelta(minutes=1))
        return record_outcome(db, officer, case.id, outcome, profile)

    return _case


@example(
    fields={
        "kind": "seizure",
        "due_on": None,
        "what": "x",
        "done_on": None,
        "result": "x",
        "step": 2**31,  # once an overflow on PostgreSQL: now "no next step #..."
    }
)
@FUZZ_FEW
@given(
    fields=records(
        {
            "kind": st.sampled_from(["court_action", "seizure", "immediate_action"]),
            "due_on": st.integers(-30, 30).map(lambda n: to_local(now(), _P).date() + timedelta(n)),
            "what": good_text,
            "done_on": st.integers(0, 5).map(lambda n: to_local(now(), _P).date() - timedelta(n)),
            "result": good_text,
            "step": st.just("own"),
        },
        {
            "kind": hostile_text,
            "due_on": hostile_day,
            "what": hostile_text,
            "done_on": hostile_day,
            "result": hostile_text,
            "step": hostile_id,
        },
    )
)
def test_a_next_step_and_its_completion_are_refused_or_read_back(
    db, officer, profile, not_complied, fields
):
    case = not_complied()
    inp = StepInput(fields["kind"], fields["due_on"], fields["what"])
    view = only_refusals(lambda: add_step(db, officer, case.id, inp, profile))
    steps = _one(db, ViciousStep, case.id)
    if view is None:
        assert steps == []
        step_id = fields["step"] if fields["step"] != "own" else None
        if step_id is None:
            return
    else:
        (row,) = steps
        assert (row.kind, row.due_on, row.what) == (
            fields["kind"],
            fields["due_on"],
            fields["what"].strip(),
        )
        step_id = row.id if fields["step"] == "own" else fields["step"]
    done = only_refusals(
        lambda: complete_step(db, officer, step_id, fields["done_on"], fields["result"], profile),
        NotFoundError,
    )
    taken = []
    if v.row_id_fits(step_id):  # an id no INTEGER holds has nothing to look up
        with db.read() as s:
            stmt = select(ViciousStepDone).where(ViciousStepDone.step_id == step_id)
            taken = s.scalars(stmt).all()
    if done is None:
        assert taken == [] or fields["step"] != "own"
        return
    (row,) = taken
    assert (row.done_on, row.result) == (fields["done_on"], fields["result"].strip())


@FUZZ_FEW
@given(
    fields=records(
        {
            "kind": st.sampled_from(["withdrawn", "overturned"]),
            "decided_on": st.integers(0, 5).map(
                lambda n: to_local(now(), _P).date() - timedelta(n)
            ),
            "authority": good_text,
            "reason": good_text,
            "case": st.just("own"),
        },
        {
            "kind": hostile_text,
            "decided_on": hostile_day,
            "authority": hostile_text,
            "reason": hostile_text,
            "case": hostile_id,
        },
    )
)
def test_the_end_of_a_declaration_is_refused_or_read_back(
    db, supervisor, profile, new_case, fields
):
    case = new_case(days=6)
    case_id = case.id if fields["case"] == "own" else fields["case"]
    inp = EndingInput(fields["kind"], fields["decided_on"], fields["authority"], fields["reason"])
    view = only_refusals(
        lambda: end_declaration(db, supervisor, case_id, inp, profile), NotFoundError
    )
    if view is None:
        assert _one(db, ViciousEnding, case.id) == []
        return
    row = _one(db, ViciousEnding, view.id)[-1]
    assert (row.kind, row.decided_on, row.authority, row.reason) == (
        fields["kind"],
        fields["decided_on"],
        v.clean(fields["authority"]),
        fields["reason"].strip(),
    )
