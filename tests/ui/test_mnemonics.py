"""No Alt+letter is used twice where the user can press it (issue 7, item 4).

Every area of the main window and every dialog the app opens is walked: for
each window, each combination it shows (an area, a tab, a wizard page), the
``&X`` letters of its visible buttons, buddied labels, tabs and menu bar are
collected, and a letter used twice does nothing useful: Qt only cycles the
focus between the two. Each menu is its own scope.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

import pytest
from accounts_support import enrol
from permits_support import permit_dialogs
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QGroupBox,
    QLabel,
    QMenu,
    QMenuBar,
    QTabWidget,
    QWidget,
    QWizard,
)

from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import Actor, now
from fieldops.services.dispositions import record_escape
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from fieldops.services.people import PersonInput, create_person
from ui.app import build_context
from ui.common.animal_picker import AnimalPickerDialog
from ui.common.person_picker import PersonPickerDialog
from ui.common.place_history import AddressHistoryDialog
from ui.errors import BugDialog
from ui.impounds.correction_dialog import CorrectionDialog
from ui.impounds.disposition_dialog import TITLES, DispositionDialog
from ui.impounds.intake_dialog import IntakeDialog
from ui.impounds.payment_dialog import PaymentDialog
from ui.impounds.record_dialog import ImpoundmentDialog
from ui.impounds.release_wizard import ReleaseWizardDialog
from ui.people.animal_dialog import AnimalDialog
from ui.people.person_dialog import PersonDialog
from ui.people.vaccination_dialog import VaccinationDialog
from ui.vicious.action_dialogs import (
    EndingDialog,
    NoticeDialog,
    OutcomeDialog,
    StepDialog,
    StepDoneDialog,
)
from ui.vicious.case_dialog import CaseDialog
from ui.vicious.declaration_dialog import DeclarationDialog

_MNEMONIC = re.compile(r"&(?!&)(\w)")


def mnemonic(text: str) -> str | None:
    found = _MNEMONIC.search(text.replace("&&", ""))
    return found.group(1).lower() if found else None


def _texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(letter, where) for everything with a mnemonic the user can reach in ``root`` now."""
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root) or w.window() is not root:
            continue
        if isinstance(w, QAbstractButton) or (isinstance(w, QLabel) and w.buddy() is not None):
            text = w.text()
        elif isinstance(w, QGroupBox):
            text = w.title()
        else:
            text = ""
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                if w.isTabVisible(i) and (letter := mnemonic(w.tabText(i))):
                    yield letter, f"tab {w.tabText(i)!r}"
        if isinstance(w, QMenuBar):
            for action in w.actions():
                if action.isVisible() and (letter := mnemonic(action.text())):
                    yield letter, f"menu {action.text()!r}"
        if text and (letter := mnemonic(text)):
            yield letter, f"{type(w).__name__} {text!r}"


def duplicates(root: QWidget, scope: str) -> list[str]:
    seen = list(_texts(root))
    counts = Counter(letter for letter, _ in seen)
    return [
        f"{scope}: Alt+{letter.upper()} on " + ", ".join(w for x, w in seen if x == letter)
        for letter, n in counts.items()
        if n > 1
    ]


def tab_states(root: QWidget) -> Iterator[str]:
    """Show each page of each tab widget in turn (the others at their first page)."""
    yield "as opened"
    for tabs in root.findChildren(QTabWidget):
        if not tabs.isVisibleTo(root):
            continue
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            yield f"tab {tabs.tabText(i)!r}"
        tabs.setCurrentIndex(0)


def menu_duplicates(root: QWidget, scope: str) -> list[str]:
    out = []
    for menu in root.findChildren(QMenu):
        letters = [(mnemonic(a.text()), a.text()) for a in menu.actions() if a.isVisible()]
        counts = Counter(x for x, _ in letters if x)
        out += [
            f"{scope}, menu {menu.title()!r}: Alt+{x.upper()} on "
            + ", ".join(t for y, t in letters if y == x)
            for x, n in counts.items()
            if n > 1
        ]
    return out


def walk(root: QWidget, scope: str) -> list[str]:
    root.show()
    QApplication.processEvents()
    found = menu_duplicates(root, scope)
    if isinstance(root, QWizard):
        for page_id in root.pageIds():
            while root.currentId() != page_id:
                root.next()
                QApplication.processEvents()
            found += duplicates(root, f"{scope}, page {root.currentPage().title()!r}")
    else:
        for state in tab_states(root):
            QApplication.processEvents()
            found += duplicates(root, f"{scope}, {state}")
    return found


def close(dialog: QWidget) -> None:
    deletes = dialog.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.close()
    if not deletes:
        dialog.deleteLater()


def quarantine_dialogs(ctx, db, rex, profile):
    """The bite-quarantine module's dialogs (issue 9), on a clinic quarantine and a referral."""
    from fieldops.services import quarantine as qs
    from ui.quarantine.bite_dialog import BiteDialog
    from ui.quarantine.correction_dialog import CorrectionDialog
    from ui.quarantine.event_dialogs import EVENTS, EventDialog, ExamDialog
    from ui.quarantine.record_dialog import QuarantineDialog
    from ui.quarantine.referral_dialog import BiteReportDialog
    from ui.quarantine.schedule_dialog import WeekScheduleDialog

    sam = enrol(db, Actor("sam", "supervisor"))  # bite reports: not an operator's (issue 12)
    clinic = qs.create_clinic(db, sam, qs.ClinicInput("Eastside"))
    bitten = now() - timedelta(days=2)
    base = {
        "place": "Park",
        "victim_name": "Jo",
        "reported_by": "Jo",
        "reported_at": bitten,
        "officer": "Off. Lee",
        "ordered_at": bitten,
    }
    r = qs.report_bite(
        db,
        sam,
        qs.BiteInput(bitten_at=bitten, animal_id=rex.id, clinic_id=clinic.id, **base),
        profile,
    )
    other = qs.report_bite(
        db,
        sam,
        qs.BiteInput(
            bitten_at=bitten, species="other", animal_description="Bat", owner_unknown=True, **base
        ),
        profile,
    )
    view = qs.get_quarantine(db, r.quarantine_id, profile)
    return [
        ("bite report", BiteDialog(ctx)),
        ("quarantine", QuarantineDialog(ctx, view)),
        ("quarantine correction", CorrectionDialog(ctx, view)),
        ("exam", ExamDialog(ctx, view.id)),
        ("week", WeekScheduleDialog(ctx)),
        ("referral", BiteReportDialog(ctx, qs.get_bite(db, other.bite_report_id, profile))),
    ] + [(f"quarantine event {k}", EventDialog(ctx, view.id, k)) for k in EVENTS]


def licence_dialogs(ctx, sup, db, rex, profile):
    """The dog licence module's dialogs (issue 15), on a licence issued for Rex."""
    from datetime import date

    from fieldops.services.licences.issue import LicenceInput, issue_licence
    from ui.licences.change_dialogs import KINDS, LicenceChangeDialog
    from ui.licences.issue_dialog import IssueLicenceDialog
    from ui.licences.record_dialog import LicenceDialog

    sam = enrol(db, Actor("sam", "supervisor"))
    view = issue_licence(
        db,
        sam,
        LicenceInput(
            animal_id=rex.id,
            licence_year=2026,
            tag_number="26-1",
            altered=True,
            applied_on=date(2026, 11, 2),
            rabies_vaccinated_on=date(2026, 1, 2),
        ),
        profile,
    )
    return [
        ("licence (new)", IssueLicenceDialog(ctx)),
        ("licence (at the pound)", IssueLicenceDialog(ctx, animal_id=rex.id)),
        ("licence", LicenceDialog(sup, view)),
    ] + [(f"licence {k}", LicenceChangeDialog(sup, view, k)) for k in KINDS]


@pytest.fixture
def records(sqlite_db, operator, supervisor, today):
    db = sqlite_db
    ana = create_person(
        db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison")
    )
    rex = create_animal(
        db, operator, AnimalInput(species="dog", name="Rex", owner_id=ana.id), today=today
    )
    tom = create_animal(db, operator, AnimalInput(species="cat", name="Tom"), today=today)
    profile = Profile.default()
    held = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=now() - timedelta(days=20),
            animal_id=rex.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm St",
        ),
        profile,
    )
    closed = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=now() - timedelta(days=20),
            animal_id=tom.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm St",
        ),
        profile,
    )
    record_escape(db, operator, closed.id, profile, at=now() - timedelta(days=1), notes="gate")
    closed = get_impoundment(db, closed.id, profile, now())
    return ana, rex, held, closed, profile


def test_no_mnemonic_is_used_twice_in_one_place(
    qtbot, window, records, sqlite_db, supervisor, errors
):
    ana, rex, held, closed, profile = records
    ctx = window.ctx
    from vicious_cases import declared

    case = declared(sqlite_db, supervisor, profile, rex.id)
    found: list[str] = []
    for area in window.areas:
        window.show_area(area.key)
        QApplication.processEvents()
        for state in tab_states(window):
            found += duplicates(window, f"main window, {area.title}, {state}")
    found += menu_duplicates(window, "main window")

    sup = build_context(sqlite_db, supervisor, errors=errors)
    dialogs = [
        ("person (new)", PersonDialog(ctx)),
        ("person", PersonDialog(ctx, ana)),
        ("animal", AnimalDialog(ctx, rex)),
        ("vaccination", VaccinationDialog(ctx, rex)),
        ("person picker", PersonPickerDialog(ctx)),
        ("animal picker", AnimalPickerDialog(ctx)),
        ("intake", IntakeDialog(ctx)),
        ("impoundment", ImpoundmentDialog(ctx, held)),
        ("impoundment, closed, supervisor", ImpoundmentDialog(sup, closed)),
        ("payment", PaymentDialog(ctx, held, held.fees)),
        ("correction", CorrectionDialog(sup, closed)),
        ("bug", BugDialog("message", "details")),
        ("address history", AddressHistoryDialog(ctx, None, "12 Elm St")),
        ("vicious declaration", DeclarationDialog(ctx)),
        ("vicious case, supervisor", CaseDialog(sup, case)),
        ("vicious notice", NoticeDialog(ctx, case)),
        ("vicious outcome", OutcomeDialog(ctx, case)),
        ("vicious next step", StepDialog(ctx, case)),
        ("vicious step taken", StepDoneDialog(ctx, case)),
        ("vicious ending", EndingDialog(sup, case)),
    ] + [(TITLES[kind], DispositionDialog(ctx, held, kind)) for kind in TITLES]
    dialogs += quarantine_dialogs(ctx, sqlite_db, rex, profile)
    dialogs += licence_dialogs(ctx, sup, sqlite_db, rex, profile)
    dialogs += permit_dialogs(ctx, sup, sqlite_db, ana, profile)
    from calls_support import call_dialogs

    dialogs += call_dialogs(ctx, sup, sqlite_db, supervisor, ana.id)
    for scope, dialog in dialogs:
        found += walk(dialog, scope)
        close(dialog)
    wizard = ReleaseWizardDialog(ctx, held)
    wizard.who.recipient.set_person(ana.id, ana.full_name)
    found += walk(wizard, "release wizard")
    close(wizard)
    qtbot.waitUntil(
        lambda: ctx.tasks.pending_count() == 0 and sup.tasks.pending_count() == 0, timeout=10_000
    )
    sup.shutdown()
    assert found == [], "\n".join(found)


def test_administration_as_an_administrator_uses_each_mnemonic_once(
    qtbot, qapp, sqlite_db, admin, today, errors
):
    # The operator's window above shows no staff accounts; an administrator's does.
    from ui.app import build_main_window

    w = build_main_window(sqlite_db, admin, today=lambda: today, errors=errors)
    qtbot.addWidget(w)
    w.show()
    w.show_area("admin")
    QApplication.processEvents()
    found = duplicates(w, "main window, Administration, as administrator")
    found += menu_duplicates(w, "main window")
    w.ctx.shutdown()
    QApplication.processEvents()
    assert found == []
