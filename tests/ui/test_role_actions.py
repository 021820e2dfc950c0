"""Every dialog offers only what the signed-in role may do (issue 12).

Each dialog and page is built as each role, on records a supervisor made. For every
action it offers, the expectation comes from the permission table: the control is enabled
exactly when the record's state allows it and ``permitted(role, permission)``; a denied
control says, in its tooltip, which roles the table gives the task to. The services
refuse anyway (tests/services/test_role_matrix.py): this is what the user sees.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from accounts_support import enrol
from PySide6.QtWidgets import QApplication
from vicious_cases import declared

from fieldops.permissions import ROLES, Permission, permitted, role_label, roles_with
from fieldops.rules import Profile
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import Actor, now
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.people import PersonInput, create_person
from ui.app import build_context, configure_application
from ui.errors import BUG, ErrorRouter

# (what the control is, the control, the permission it needs, whether the record allows it)
Offer = tuple[str, Any, Permission, bool]


@pytest.fixture
def records(sqlite_db, supervisor, today):
    db, sam, profile = sqlite_db, supervisor, Profile.default()
    ana = create_person(db, sam, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    rex = create_animal(
        db, sam, AnimalInput(species="dog", name="Rex", owner_id=ana.id), today=today
    )
    tom = create_animal(db, sam, AnimalInput(species="cat", name="Tom"), today=today)
    held = intake(
        db,
        sam,
        IntakeInput(
            impounded_at=now() - timedelta(days=3),
            animal_id=tom.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm St",
        ),
        profile,
    )
    clinic = qs.create_clinic(db, sam, qs.ClinicInput("Eastside"))
    bitten = now() - timedelta(days=1)
    base = {
        "place": "Park",
        "victim_name": "Jo",
        "victim_contact": "555-0100",
        "reported_by": "Jo",
        "reported_at": bitten,
        "officer": "Off. Lee",
        "ordered_at": bitten,
    }
    bite = qs.report_bite(
        db,
        sam,
        qs.BiteInput(bitten_at=bitten, animal_id=rex.id, clinic_id=clinic.id, **base),
        profile,
    )
    bat = qs.report_bite(
        db,
        sam,
        qs.BiteInput(
            bitten_at=bitten, species="other", animal_description="Bat", owner_unknown=True, **base
        ),
        profile,
    )
    return {
        "db": db,
        "profile": profile,
        "ana": ana,
        "rex": rex,
        "held": held,
        "quarantine": qs.get_quarantine(db, bite.quarantine_id, profile),
        "bat": qs.get_bite(db, bat.bite_report_id, profile),
        "case": declared(db, sam, profile, rex.id),
    }


def quarantine_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.quarantine.record_dialog import QuarantineDialog

    d = QuarantineDialog(ctx, r["quarantine"])
    v = d.view
    offers: list[Offer] = [
        ("exam", d.exam_button, Permission.QUARANTINES, v.is_open),
        ("action menu", d.action_button, Permission.QUARANTINES, True),
        ("correct", d.correct_button, Permission.CORRECTIONS, True),
        ("show contact", d.contact.show_button, Permission.BITE_REPORTS, True),
    ]
    offers += [
        (f"event {k}", act, Permission.QUARANTINES, d._allowed(v, k))
        for k, act in d.menu_actions.items()
    ]
    return d, offers


def referral_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.quarantine.referral_dialog import BiteReportDialog

    d = BiteReportDialog(ctx, r["bat"])
    return d, [
        ("refer", d.refer_button, Permission.BITE_REPORTS, True),
        ("show contact", d.contact.show_button, Permission.BITE_REPORTS, True),
    ]


def case_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.vicious.case_dialog import CaseDialog

    d = CaseDialog(ctx, r["case"])
    v = d.view()
    return d, [
        ("serve notice", d.notice_button, Permission.NOTICES, v.can_serve),
        ("outcome", d.outcome_button, Permission.VICIOUS_CASES, v.can_record_outcome),
        ("next step", d.step_button, Permission.VICIOUS_CASES, v.can_add_step),
        (
            "step taken",
            d.step_done_button,
            Permission.VICIOUS_CASES,
            any(s.done_on is None for s in v.steps),
        ),
        ("withdraw", d.end_button, Permission.OVERRIDES, v.can_end),
    ]


def impound_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.impounds.record_dialog import ImpoundmentDialog

    d = ImpoundmentDialog(ctx, r["held"])
    offers: list[Offer] = [
        ("release", d.release_button, Permission.RELEASES, True),
        ("other disposition", d.other_button, Permission.RELEASES, True),
        ("correct intake", d.correct_intake_button, Permission.INTAKE, True),
        ("payment", d.fees.record_button, Permission.PAYMENTS, True),
        ("kennel move", d.summary.move_button, Permission.INTAKE, True),
    ]
    offers += [
        (f"disposition {k}", a, Permission.RELEASES, True) for k, a in d.other_actions.items()
    ]
    return d, offers


def person_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.people.person_dialog import PersonDialog

    d = PersonDialog(ctx, r["ana"])
    return d, [
        ("save", d.save_button, Permission.RECORDS, True),
        ("new animal", d.new_animal_button, Permission.RECORDS, True),
    ]


def animal_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.people.animal_dialog import AnimalDialog

    d = AnimalDialog(ctx, r["rex"])
    return d, [
        ("save", d.save_button, Permission.RECORDS, True),
        ("add vaccination", d.add_vaccination_button, Permission.RECORDS, True),
    ]


def vaccination_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.people.vaccination_dialog import VaccinationDialog

    d = VaccinationDialog(ctx, r["rex"])
    return d, [("save", d.save_button, Permission.RECORDS, True)]


def people_page_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.people.page import PeopleAndAnimalsWidget

    d = PeopleAndAnimalsWidget(ctx)
    return d, [
        ("new person", d.new_person_button, Permission.RECORDS, True),
        ("new animal", d.new_animal_button, Permission.RECORDS, True),
        ("new animal (shortcut)", d.new_animal_action, Permission.RECORDS, True),
    ]


def clinics_offers(ctx, r) -> tuple[Any, list[Offer]]:
    from ui.quarantine.clinics import ClinicsWidget

    d = ClinicsWidget(ctx)
    return d, [
        ("add clinic", d.add_button, Permission.CLINICS, True),
        ("change clinic", d.change_button, Permission.CLINICS, True),
    ]


DIALOGS: dict[str, Callable[[Any, dict], tuple[Any, list[Offer]]]] = {
    "quarantine": quarantine_offers,
    "bite referral": referral_offers,
    "vicious case": case_offers,
    "impoundment": impound_offers,
    "person": person_offers,
    "animal": animal_offers,
    "vaccination": vaccination_offers,
    "people page": people_page_offers,
    "clinics": clinics_offers,
}


def dispose(qtbot, widget) -> None:
    """Close and delete the window now, while its context still runs: a deleteLater left
    pending would run in some later test's event loop, after this context's task runner
    has shut down, and take the process down there."""
    import shiboken6
    from PySide6.QtCore import QCoreApplication, QEvent

    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    qtbot.waitUntil(lambda: not shiboken6.isValid(widget), timeout=5_000)


@pytest.mark.parametrize("dialog", DIALOGS)
@pytest.mark.parametrize("role", ROLES)
def test_each_action_is_offered_exactly_to_the_roles_the_table_allows(
    qtbot, qapp, sqlite_db, records, role, dialog
):
    configure_application(qapp)
    errors = ErrorRouter(interactive=False)
    actor = enrol(sqlite_db, Actor(f"{role}1", role, full_name=f"A {role_label(role)}"))
    ctx = build_context(sqlite_db, actor, errors=errors)
    try:
        widget, offers = DIALOGS[dialog](ctx, records)
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        # The record's state allows something here, so the role is what decides.
        assert any(state for _, _, _, state in offers), dialog
        wrong = []
        for what, control, permission, state in offers:
            expected = state and permitted(role, permission)
            if control.isEnabled() != expected:
                wrong.append(f"{what}: enabled={control.isEnabled()}, expected {expected}")
            if not permitted(role, permission):
                tip = control.toolTip()
                if not all(role_label(r) in tip for r in roles_with(permission)):
                    wrong.append(f"{what}: the tooltip {tip!r} does not say whose task it is")
        assert wrong == [], f"{dialog} as {role}:\n" + "\n".join(wrong)
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        dispose(qtbot, widget)
    finally:
        ctx.shutdown()
        QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"


@pytest.mark.parametrize("dialog", ["person", "animal", "vaccination"])
@pytest.mark.parametrize("role", [r for r in ROLES if not permitted(r, Permission.RECORDS)])
def test_ctrl_s_where_save_is_offered_to_no_one_says_whose_task_and_stays_disabled(
    qtbot, qapp, sqlite_db, records, role, dialog
):
    """Ctrl+S still reaches a disabled Save: it is refused in words, and Save is not
    re-enabled by the refusal (nothing is changed: the service refuses too)."""
    from PySide6.QtCore import Qt

    configure_application(qapp)
    errors = ErrorRouter(interactive=False)
    actor = enrol(sqlite_db, Actor(f"{role}1", role, full_name="Someone"))
    ctx = build_context(sqlite_db, actor, errors=errors)
    try:
        widget, _ = DIALOGS[dialog](ctx, records)
        widget.show()
        qtbot.waitExposed(widget)
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        widget.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is widget, timeout=5_000)
        target = widget.focusWidget() or widget
        qtbot.keyClick(target, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        assert not widget.save_button.isEnabled()
        said = widget.banner.text()
        assert said and all(role_label(r) in said for r in roles_with(Permission.RECORDS))
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        dispose(qtbot, widget)
    finally:
        ctx.shutdown()
        QApplication.processEvents()
    bugs = [r for r in errors.reports if r.kind == BUG]
    assert not bugs, f"the UI reported a bug: {bugs[0].details}"
