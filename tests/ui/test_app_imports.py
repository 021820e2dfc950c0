"""The window's start asks PySide6's question about each imported module cheaply (issue 14)."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import ui.app
from ui.app import lighten_pyside_import_hook


@pytest.fixture
def feature() -> Iterator[types.ModuleType]:
    """PySide6's feature module, its own test put back afterwards."""
    module = importlib.import_module("shibokensupport.feature")
    own = module._mod_uses_pyside
    yield module
    setattr(module, "_mod_uses_pyside", own)  # noqa: B010


def test_the_start_answers_as_pyside6_does_without_reading_every_module(
    feature: types.ModuleType, tmp_path: Path
) -> None:
    own = feature._mod_uses_pyside
    lighten_pyside_import_hook()
    assert feature._mod_uses_pyside is not own
    # Modules that use Qt, modules that do not, a compiled one and one built in.
    names = ("ui.app", "ui.main_window", "fieldops.db.engine", "sqlalchemy.orm", "json")
    modules = [importlib.import_module(name) for name in names]
    modules += [sys.modules["_sqlite3"], sys, sys.modules["PySide6.QtCore"]]
    assert [feature._mod_uses_pyside(m) for m in modules] == [own(m) for m in modules]
    assert [feature._mod_uses_pyside(m) for m in modules[:4]] == [True, True, False, False]
    gone = types.ModuleType("gone")
    gone.__file__ = str(tmp_path / "gone.py")  # its file removed since: no source, no
    assert feature._mod_uses_pyside(gone) is own(gone) is False


def test_the_window_start_installs_it(qapp: object, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(ui.app, "lighten_pyside_import_hook", lambda: calls.append("hook"))

    class Stop(Exception):
        pass

    def stop(_app: object) -> None:
        raise Stop

    monkeypatch.setattr(ui.app, "configure_application", stop)
    with pytest.raises(Stop):
        ui.app.run(None)
    assert calls == ["hook"]
