"""Today is loaded while it is on screen (issue 14).

At a city's size Today's load takes a tenth of a second of a core. A clerk who
goes straight to another page must not wait behind it, and a record saved on
another page must not run it again behind that page: the load is stopped when
the clerk leaves Today and done again when Today is shown.
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QApplication
from support import local

import ui.today.page as today_module
from ui.app import build_main_window
from ui.today.page import TodayWidget


@pytest.fixture
def loads(monkeypatch):
    """Today's loads as they run: each call's day; ``hold`` keeps the next call waiting."""
    real = today_module.today_items
    seen: dict[str, object] = {"calls": 0, "hold": None}

    def counted(db, day, profile):
        seen["calls"] = int(seen["calls"]) + 1  # type: ignore[call-overload]
        gate = seen["hold"]
        if isinstance(gate, threading.Event):
            seen["hold"] = None
            gate.wait(10)
        return real(db, day, profile)

    monkeypatch.setattr(today_module, "today_items", counted)
    return seen


@pytest.fixture
def shell(qtbot, qapp, sqlite_db, operator, today, errors, pound, loads):
    pound.impound(pound.animal("Rex", breed="Beagle"), local(2026, 11, 20, 10, 0))
    gate = loads["hold"] = threading.Event()
    w = build_main_window(sqlite_db, operator, today=lambda: today, errors=errors)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w, gate
    gate.set()
    w.ctx.shutdown()
    QApplication.processEvents()


def _today(w) -> TodayWidget:
    page = w.page("today")
    assert isinstance(page, TodayWidget)
    return page


def test_leaving_today_stops_its_load_and_coming_back_loads_it(qtbot, shell, rows_of):
    w, gate = shell
    page = _today(w)
    assert page.is_loading()  # held on its worker
    w.show_area("people")
    assert not page.is_loading()  # stopped: its answer, when it comes, is dropped
    gate.set()
    qtbot.waitUntil(lambda: w.ctx.tasks.pending_count() == 0, timeout=10_000)
    assert rows_of(page.view) == []  # nothing arrived behind the People page

    w.show_area("today")
    assert page.is_loading()
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=10_000)
    assert rows_of(page.view, 1) == [("Hold ends today",)]


def test_a_change_on_another_page_loads_today_once_on_return(qtbot, shell, loads, rows_of):
    w, gate = shell
    gate.set()
    page = _today(w)
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=10_000)
    assert loads["calls"] == 1
    w.show_area("people")
    w.ctx.bus.changed.emit("impoundment", 1)  # records saved on other pages
    w.ctx.bus.changed.emit("person", 1)
    qtbot.waitUntil(lambda: w.ctx.tasks.pending_count() == 0, timeout=10_000)
    assert loads["calls"] == 1  # not loaded behind the page on screen

    w.show_area("today")
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=10_000)
    assert loads["calls"] == 2
    assert rows_of(page.view, 1) == [("Hold ends today",)]
    w.show_area("people")
    w.show_area("today")  # nothing changed meanwhile: the rows on screen are current
    assert not page.is_loading() and loads["calls"] == 2


def test_a_change_while_today_is_shown_loads_it_at_once(qtbot, shell, loads):
    w, gate = shell
    gate.set()
    page = _today(w)
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=10_000)
    w.ctx.bus.changed.emit("impoundment", 1)
    assert page.is_loading()
    qtbot.waitUntil(lambda: not page.is_loading(), timeout=10_000)
    assert loads["calls"] == 2
