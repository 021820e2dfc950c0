"""Permit screen fixtures: a context fixed at Fri 27 Nov 2026 3:00 PM (in the real clock's
past, so the services accept it), the tab shown on its own (the licences area gives it its
place), and people written through the services."""

from __future__ import annotations

from dataclasses import replace
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
    """Permits are worked by an officer here: the counter's work and the reviews."""
    return officer


@pytest.fixture
def today() -> date:
    return TODAY


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
def dodgeville_ctx(ctx):
    from fieldops.rules import Profile

    return replace(ctx, profile=Profile.named("dodgeville"))


@pytest.fixture
def host(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def holder(ctx):
    from fieldops.services.people import PersonInput, create_person

    return create_person(
        ctx.db, ctx.actor, PersonInput(full_name="Quinn O'Brien & <Sons>", address="21 Maple Dr")
    )


@pytest.fixture
def read_pdf_text():
    from io import BytesIO

    from pypdf import PdfReader

    def read(pdf: bytes) -> str:
        return " ".join(
            " ".join((p.extract_text() or "").split()) for p in PdfReader(BytesIO(pdf)).pages
        )

    return read
