"""Vicious-animal screen fixtures: a context fixed at Fri 27 Nov 2026 3:00 PM in the city (a
Friday afternoon, in the real clock's past, so the services accept it), and cases written
through the services."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from support import local

from ui.app import build_context, configure_application
from ui.errors import BUG

TODAY = date(2026, 11, 27)
NOW = local(2026, 11, 27, 15, 0)


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    screens here are used by one."""
    return officer


@pytest.fixture
def today() -> date:
    return TODAY


@pytest.fixture
def profile():
    from fieldops.rules import Profile

    return Profile.default()


def _context(qapp, db, actor, errors):
    configure_application(qapp)
    ctx = build_context(db, actor, today=lambda: TODAY, errors=errors)
    ctx.now = lambda: NOW
    return ctx


@pytest.fixture
def ctx(qapp, sqlite_db, operator, errors):
    context = _context(qapp, sqlite_db, operator, errors)
    yield context
    context.shutdown()
    QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"


@pytest.fixture
def supervisor_ctx(qapp, sqlite_db, supervisor, errors):
    context = _context(qapp, sqlite_db, supervisor, errors)
    yield context
    context.shutdown()
    QApplication.processEvents()
    assert not [r for r in errors.reports if r.kind == BUG]


@pytest.fixture
def host(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget
