"""Hypothesis fuzzes the pound's other inputs (issue 13): the dispositions other than a
transfer, their correction, an intake's correction, the report request, and an id no
INTEGER column holds. Only a ValidationError (or another refusal in words, named where
it is allowed) or success comes out; what is accepted reads back unchanged, on SQLite
and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import pytest
from fuzz_strategies import FUZZ, hostile_id
from hypothesis import example, given

from fieldops.db.models import Animal, Impoundment, Person, Quarantine
from fieldops.errors import NotFoundError
from fieldops.services.context import fetch
from fieldops.services.impound_rows import load_impoundment

OUT_OF_RANGE = [0, -1, 2**31, 2**31 + 7, 2**63, 2**70, True, None, "1"]


def test_an_id_no_integer_column_holds_is_not_found_before_any_query(db):
    for model in (Animal, Person, Impoundment, Quarantine):
        for row_id in OUT_OF_RANGE:
            with db.read() as s, pytest.raises(NotFoundError):
                fetch(s, model, row_id)


def test_the_largest_integer_id_is_looked_up_and_not_found(db, rex):
    with db.read() as s:
        with pytest.raises(NotFoundError):
            fetch(s, Animal, 2**31 - 1)
        assert fetch(s, Animal, rex.id).id == rex.id


@FUZZ
@given(row_id=hostile_id)
@example(row_id=2**31)
@example(row_id=2**70)
def test_loading_an_impoundment_by_any_id_finds_it_or_says_not_found(db, operator, rex, row_id):
    with db.read() as s:
        try:
            imp = load_impoundment(s, row_id)
        except NotFoundError:
            return
    assert imp.id == row_id
