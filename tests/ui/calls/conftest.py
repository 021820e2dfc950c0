"""Field calls screen fixtures: a supervisor's context (calls, the pound's intake and
cautions) on the real clock, with an owner and her dog in the registry."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QWidget

from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.people import PersonInput, create_person
from ui.app import build_context, configure_application
from ui.errors import BUG


@pytest.fixture
def ctx(qapp, sqlite_db, supervisor, errors):
    configure_application(qapp)
    context = build_context(sqlite_db, supervisor, errors=errors)
    yield context
    context.shutdown()
    QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"


@pytest.fixture
def wait_idle(qtbot, ctx):
    def wait() -> None:
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)

    return wait


@pytest.fixture
def host(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def ana(sqlite_db, supervisor, today):
    person = create_person(
        sqlite_db, supervisor, PersonInput(full_name="Ana O'Brien", address="12 Elm St")
    )
    create_animal(
        sqlite_db,
        supervisor,
        AnimalInput(species="dog", name="Rex", owner_id=person.id),
        today=today,
    )
    return person
