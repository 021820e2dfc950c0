"""A module's contributions named now and imported at their first use (fieldops/later.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fieldops import later, modules

SOURCE = """
LOADED = True
WORDS = {"intake": "Taken in", "release": "Released"}
STEPS = ("first", "second")
EXTRA = "third"

def double(x, *, times=2):
    return x * times
"""


@pytest.fixture
def named(tmp_path: Path) -> Iterator[str]:
    """A module of its own (never imported yet), on the path for the test."""
    name = "later_probe_module"
    (tmp_path / f"{name}.py").write_text(SOURCE, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield name
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_each_behaves_as_what_it_names_and_imports_it_only_when_first_used(named: str) -> None:
    call = later.later_call(f"{named}:double")
    words = later.LaterMapping(f"{named}:WORDS")
    steps: later.LaterSequence[str] = later.LaterSequence(
        f"{named}:STEPS", items=(f"{named}:EXTRA",)
    )
    assert named not in sys.modules  # named, not imported
    assert call(21) == 42 and call("ab", times=3) == "ababab"
    assert named in sys.modules
    assert dict(words) == {"intake": "Taken in", "release": "Released"}
    assert words["release"] == "Released" and len(words) == 2 and "intake" in words
    assert list(steps) == ["first", "second", "third"]
    assert steps[1] == "second" and steps[-1] == "third" and len(steps) == 3
    assert tuple(steps[:2]) == ("first", "second")


def test_a_name_that_is_not_there_is_said_at_first_use(named: str) -> None:
    with pytest.raises(AttributeError):
        later.LaterMapping(f"{named}:NOWHERE")["x"]
    with pytest.raises(ValueError):
        later.find(named)  # no ":NAME"


def test_every_installed_module_names_contributions_that_exist() -> None:
    for m in modules.installed_modules():
        for value in (m.release_charges, m.activity, m.incidents, m.cautions):
            if isinstance(value, later.LaterFunction):
                assert callable(later.find(value.where)), (m.key, value.where)
        assert all(hasattr(kind, "label") for kind in m.event_kinds.values()), m.key
        assert all(isinstance(r, modules.ReportKind) for r in m.reports), m.key
    names = [r.name for r in modules.report_kinds()]
    assert {"impound-register", "quarantine-log", "vicious-cases"} <= set(names)
