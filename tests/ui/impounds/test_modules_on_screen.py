"""A module plugged in by registration shows on the screens without their code knowing it.

The fake module (tests/fake_module.py) blocks the release in the wizard, lists
its overdue item first on Today, and its record opens from Today through
``ui.modules``.
"""

from __future__ import annotations

import fake_module as fake
import pytest
from PySide6.QtCore import Qt
from support import local

from fieldops.services.impounds import get_impoundment
from ui import modules as ui_modules
from ui.impounds.release_wizard import ReleaseWizardDialog
from ui.today.page import TodayWidget


@pytest.fixture
def reclaim(pound, ctx):
    """Everything the pound asks for a reclaim of Rex at the context's moment is on record."""
    rex = pound.animal("Rex", owner=pound.ana, breed="Beagle")
    pound.vaccinate(rex)
    view = pound.impound(rex, local(2026, 11, 25, 10, 0))
    pound.pay_all(view, ctx.now(), True, pound.ana)
    return get_impoundment(pound.db, view.id, pound.profile, ctx.now())


def _wizard(qtbot, context, view, host, wait_idle):
    wizard = ReleaseWizardDialog(context, view, host)
    qtbot.addWidget(wizard)
    wizard.open()
    wizard.next()
    page = wizard.requirements
    qtbot.waitUntil(page.is_checked, timeout=10_000)
    qtbot.keyClicks(page.licence_receipt, "L-2026-0077")
    page.check_now()
    qtbot.waitUntil(page.is_checked, timeout=10_000)
    wait_idle()
    return wizard


def test_a_modules_block_keeps_the_release_button_disabled(
    qtbot, ctx, host, reclaim, wait_idle, install
):
    wizard = _wizard(qtbot, ctx, reclaim, host, wait_idle)
    assert wizard.finish_button().isEnabled()  # the pound's own requirements are all met
    wizard.close()
    install(fake.LEASH)
    wizard = _wizard(qtbot, ctx, reclaim, host, wait_idle)
    rows = {label: (mark, note) for mark, label, note in wizard.requirements.checklist.rows()}
    assert rows[fake.LABEL] == ("✘", "No current leash permit is on record.")
    assert not wizard.finish_button().isEnabled()
    assert "1 requirement" in wizard.requirements.unmet_label.text()
    assert wizard.requirements.checklist.override_field(fake.CODE) is None  # not a supervisor


def test_a_supervisor_may_override_a_modules_block(
    qtbot, supervisor_ctx, host, reclaim, wait_idle, install
):
    install(fake.LEASH)
    wizard = _wizard(qtbot, supervisor_ctx, reclaim, host, wait_idle)
    page = wizard.requirements
    field = page.checklist.override_field(fake.CODE)
    assert field is not None and not wizard.finish_button().isEnabled()
    qtbot.keyClicks(field, "Permit renewed by phone")
    qtbot.waitUntil(
        lambda: page.is_checked() and wizard.finish_button().isEnabled(), timeout=10_000
    )


def test_a_modules_due_item_shows_first_on_today_and_opens_its_record(
    qtbot, ctx, pound, wait_idle, install, rows_of
):
    view = pound.impound(pound.animal("Luna"), local(2026, 11, 20, 10, 0))  # hold ends today
    opened = []
    install(fake.LEASH)
    with ui_modules.extra({(fake.KEY, fake.KIND): lambda c, i, parent: opened.append((c, i))}):
        page = TodayWidget(ctx)
        qtbot.addWidget(page)
        page.show()
        wait_idle()
        rows = rows_of(page.view)
        assert [r[:3] for r in rows] == [
            (f"Overdue: {fake.CATEGORY_LABEL}", str(fake.RECORD_ID), "Wed 25 Nov 2026"),
            ("Hold ends today", str(view.id), "Fri 27 Nov 2026"),
        ]
        assert [r[4] for r in rows] == ["Leash permits", "Pound"]
        assert page.summary.text() == f"{fake.CATEGORY_LABEL}: 1 · Hold ends today: 1"
        page.view.setFocus()
        page.view.selectRow(0)
        qtbot.keyClick(page.view, Qt.Key.Key_Return)
        assert opened == [(ctx, fake.RECORD_ID)]
        qtbot.mouseClick(page.open_button, Qt.MouseButton.LeftButton)
        assert opened == [(ctx, fake.RECORD_ID)] * 2


def test_a_record_no_module_opens_is_said_not_raised(qtbot, ctx, wait_idle, install):
    install(fake.LEASH)  # its opener is not registered
    page = TodayWidget(ctx)
    qtbot.addWidget(page)
    wait_idle()
    qtbot.mouseClick(page.open_button, Qt.MouseButton.LeftButton)
    assert "cannot open this permit record" in page.summary.text()


def test_the_pound_and_the_registry_register_their_openers(
    ctx, host, pound, wait_dialog, wait_idle
):
    assert {("impound", "impoundment"), ("registry", "person"), ("registry", "animal")} <= set(
        ui_modules.openers()
    )
    view = pound.impound(pound.animal("Luna"), local(2026, 11, 20, 10, 0))
    assert ui_modules.open_record(ctx, "impound", "impoundment", view.id, host)
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    assert record.impoundment_id() == view.id
    record.close()
    assert not ui_modules.open_record(ctx, "nothing", "here", 1, host)
