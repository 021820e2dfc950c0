"""Reports page fixtures: a context fixed at Fri 27 Nov 2026 3:00 PM in the city, over
the demo data anchored on that day (written through the services)."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtWidgets import QApplication
from support import local

from fieldops.demo import fill
from ui.app import build_context, configure_application
from ui.errors import BUG

TODAY = date(2026, 11, 27)
NOW = local(2026, 11, 27, 15, 0)


@pytest.fixture
def today() -> date:
    return TODAY


@pytest.fixture
def demo(sqlite_db, supervisor):
    fill(sqlite_db, supervisor, seed=3, people=40, anchor=TODAY)
    return sqlite_db


@pytest.fixture
def ctx(qapp, sqlite_db, supervisor, errors):
    """A supervisor's context; the test fails if the UI reported a bug."""
    configure_application(qapp)
    context = build_context(sqlite_db, supervisor, today=lambda: TODAY, errors=errors)
    context.now = lambda: NOW
    yield context
    context.shutdown()
    QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"
