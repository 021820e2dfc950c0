"""Quarantine screen fixtures: a context on today's real date (the services refuse future
times, and every quarantine here is dated relative to now), records made through the services."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from quarantine_support import day, local_today

from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, VaccinationInput, add_vaccination, create_animal
from fieldops.services.people import PersonInput, create_person
from ui.app import build_context, configure_application
from ui.errors import BUG


def _context(qapp, db, actor, errors):
    configure_application(qapp)
    return build_context(db, actor, today=local_today, errors=errors)


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    screens here are used by one."""
    return officer


@pytest.fixture
def ctx(qapp, sqlite_db, operator, errors):
    context = _context(qapp, sqlite_db, operator, errors)
    yield context
    context.shutdown()
    QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"


@pytest.fixture
def host(qtbot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def bites(sqlite_db, operator, supervisor):
    """An owner with a vaccinated dog and an unvaccinated cat, and two licensed clinics."""
    db = sqlite_db
    ana = create_person(
        db, operator, PersonInput(full_name="O'Brien & <Sons>", address="12 Elm St", city="Madison")
    )
    rex = create_animal(
        db,
        operator,
        AnimalInput(species="dog", name="Rex", breed="Beagle", owner_id=ana.id),
        today=local_today(),
    )
    add_vaccination(
        db,
        operator,
        rex.id,
        VaccinationInput(day(300), day(-400), "RV-77", "Dr Vet"),
        today=local_today(),
    )
    tom = create_animal(
        db, operator, AnimalInput(species="cat", name="Tom", owner_id=ana.id), today=local_today()
    )
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))
    pound = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    return SimpleNamespace(db=db, ana=ana, rex=rex, tom=tom, clinic=clinic, pound=pound)
