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
    if ui.app.PYSIDE_OWN:  # a window started earlier in this process installed ours
        setattr(module, "_mod_uses_pyside", ui.app.PYSIDE_OWN[0])  # noqa: B010
    yield module
    setattr(module, "_mod_uses_pyside", own)  # noqa: B010


def test_the_start_answers_as_pyside6_does_without_reading_every_module(
    feature: types.ModuleType,
) -> None:
    own = feature._mod_uses_pyside
    assert own is not ui.app._uses_pyside
    lighten_pyside_import_hook()
    assert feature._mod_uses_pyside is ui.app._uses_pyside
    # Every module of the app and of the libraries its start loads after PySide6 (a test
    # tool naming PySide6 only in its text is not one the start imports).
    importlib.import_module("ui.today.page")
    importlib.import_module("ui.people.page")
    modules = [
        m
        for name, m in list(sys.modules.items())
        if name.partition(".")[0] in ("ui", "fieldops", "sqlalchemy", "sqlite3", "json")
    ]
    answers = [feature._mod_uses_pyside(m) for m in modules]
    differ = [m.__name__ for m, a in zip(modules, answers, strict=True) if a != own(m)]
    assert differ == []
    by_name = dict(zip([m.__name__ for m in modules], answers, strict=True))
    assert by_name["ui.main_window"] and by_name["ui.today.page"]
    assert not by_name["fieldops.db.engine"] and not by_name["sqlalchemy.orm"]


def test_no_module_of_the_app_selects_a_pyside6_feature() -> None:
    """The cheaper question above is PySide6's own only while no module selects one."""
    root = Path(__file__).resolve().parents[2]
    selecting = [
        path
        for folder in ("ui", "fieldops")
        for path in (root / folder).rglob("*.py")
        if "from __feature__ import" in path.read_text(encoding="utf-8")
    ]
    assert selecting == []


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
