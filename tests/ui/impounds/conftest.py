"""Pound screen fixtures: a context fixed at Fri 27 Nov 2026 3:00 PM in the city, and
records written through the services.

The fixed moment is in the past of the real clock (the services refuse
future times), so every status, countdown and fee on screen is the same on
every run.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from types import SimpleNamespace

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from support import local

from fieldops.services.animals import AnimalInput, VaccinationInput, add_vaccination, create_animal
from fieldops.services.dispositions import ReleaseRequest, release
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person
from ui.app import build_context, configure_application
from ui.errors import BUG

TODAY = date(2026, 11, 27)  # a Friday, the day after Thanksgiving
NOW = local(2026, 11, 27, 15, 0)


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
    """An operator's context; the test fails if the UI reported a bug."""
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
    """A window for dialogs to belong to."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    return widget


@pytest.fixture
def pound(sqlite_db, operator, today):
    """People, animals and impoundments, made through the services."""
    db, actor = sqlite_db, operator
    ns = SimpleNamespace(db=db)
    ns.ana = create_person(
        db,
        actor,
        PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison", postal_code="53703"),
    )
    ns.bo = create_person(
        db, actor, PersonInput(full_name="Bo Adler", address="9 Oak Ave", city="Madison")
    )
    ns.nobody = create_person(db, actor, PersonInput(full_name="Cy Drifter"))  # no address

    def animal(name: str, species: str = "dog", owner=None, **kw):
        return create_animal(
            db,
            actor,
            AnimalInput(species=species, name=name, owner_id=owner.id if owner else None, **kw),
            today=today,
        )

    def impound(a, at, **kw):
        data = {
            "officer": "Off. Dana Lee",
            "reason": "at_large",
            "kennel": "K-1",
            "found_place": "Elm & 3rd",
        }
        data.update(kw)
        return intake(db, actor, IntakeInput(impounded_at=at, animal_id=a.id, **data), ns.profile)

    def pay_all(view, at, to_owner, payer):
        fees = quote(db, view.id, at, to_owner, ns.profile)
        lines = tuple(LineInput(f.kind, f.amount) for f in fees.lines if f.amount > 0)
        record_payment(
            db,
            actor,
            view.id,
            PaymentInput(lines, "cash", f"R-{view.id}", payer_id=payer.id, paid_at=at),
            ns.profile,
        )

    from fieldops.rules import Profile

    ns.profile = Profile.default()
    ns.animal, ns.impound, ns.pay_all = animal, impound, pay_all
    ns.vaccinate = lambda a: add_vaccination(
        db, actor, a.id, VaccinationInput(date(2026, 6, 1), date(2027, 6, 1), "RV-1"), today=today
    )
    ns.release = lambda view, req: release(db, actor, view.id, req, ns.profile)
    ns.ReleaseRequest = ReleaseRequest
    return ns


@pytest.fixture
def wait_for(qtbot) -> Callable[[Callable[[], bool]], None]:
    return lambda cond: qtbot.waitUntil(cond, timeout=10_000)
