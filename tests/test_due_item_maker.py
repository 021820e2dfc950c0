"""``DueItem.maker()`` builds the value the constructor builds (Today builds thousands of items
with it): every field, the defaults, equality, hashing, immutability, the refusals."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime

import pytest

from fieldops.modules import CountedDueItem, DueItem
from fieldops.services.permits.module import PermitDueItem
from fieldops.services.pound import ImpoundDueItem
from fieldops.services.vicious.module import ViciousDueItem

BASE = {
    "module": "impound",
    "kind": "impoundment",
    "record_id": 7,
    "due": date(2026, 11, 30),
    "category": "impound.past_hold",
    "category_label": "Held past the hold without disposition",
    "text": "#7 Rex (dog): hold ended 20 Nov, 10 days ago, no disposition",
}

CASES = [
    (DueItem, {}),
    (DueItem, {"overdue": True, "sort_key": (3, "x", 7), "officer": "olly"}),
    (DueItem, {"due": datetime(2026, 11, 30, 15, 0, tzinfo=UTC)}),
    (ImpoundDueItem, {"animal": "#7 Rex (dog)", "last_claim_day": date(2026, 11, 20)}),
    (ImpoundDueItem, {}),
    (ViciousDueItem, {"animal": "Case #7 Rex (dog)", "owner": "Ann", "officer": "Off. Lee"}),
    (PermitDueItem, {"holder": "Bea Olson", "address": "1 Main St"}),
    (CountedDueItem, {"count": 4123}),
]


@pytest.mark.parametrize(("cls", "extra"), CASES)
def test_the_maker_builds_what_the_constructor_builds(cls, extra):
    values = {**BASE, **extra}
    made, built = cls.maker()(**values), cls(**values)
    assert type(made) is cls
    assert made == built and hash(made) == hash(built)
    assert dataclasses.asdict(made) == dataclasses.asdict(built)
    assert made.as_json() == built.as_json()
    assert made.due_day() == built.due_day()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]


def test_the_maker_refuses_what_the_constructor_refuses():
    with pytest.raises(TypeError):
        DueItem.maker()(**BASE, animal="#7 Rex")  # a field of another kind of item
    without_text = {k: v for k, v in BASE.items() if k != "text"}
    with pytest.raises(TypeError):
        DueItem.maker()(**without_text)
    with pytest.raises(TypeError):
        ImpoundDueItem.maker()(**without_text, animal="#7 Rex")


def test_each_class_has_its_own_maker():
    """A subclass's maker is not its parent's: each writes its own fields."""
    assert DueItem.maker() is DueItem.maker()
    assert ImpoundDueItem.maker() is not DueItem.maker()
    item = ImpoundDueItem.maker()(**BASE, animal="#7 Rex")
    assert type(item) is ImpoundDueItem and item.last_claim_day is None


def test_a_class_that_checks_its_fields_has_no_maker():
    """A maker writes the fields without ``__post_init__``: a class whose items check
    themselves there must be built by its constructor, not silently unchecked."""

    @dataclasses.dataclass(frozen=True)
    class Checked(DueItem):
        def __post_init__(self) -> None:
            if not self.text:
                raise ValueError("an item says what is due")

    with pytest.raises(TypeError):
        Checked.maker()
