"""The permit application forms at the counter: Enter in a one-line field moves on and
never submits (an application cannot be withdrawn, and blocks the real one); an
application for no hens is a mistake beside the field; the form takes any number of hens
and lets the rules refuse more than a profile allows, a refusal that can be recorded."""

from __future__ import annotations

import pytest
from counter_keys import idle, rows, scan, show_active
from PySide6.QtCore import Qt

from fieldops.db.models import Permit, PermitApplication
from ui.permits.chicken_dialog import ChickenPermitDialog
from ui.permits.fancier_dialog import FancierPermitDialog


@pytest.fixture
def shown(qtbot):
    return show_active(qtbot)


@pytest.mark.parametrize("form", [ChickenPermitDialog, FancierPermitDialog])
def test_enter_in_the_address_submits_no_application(qtbot, ctx, host, shown, holder, form):
    dialog = shown(form(ctx, parent=host))
    dialog.holder.set_person(holder.id, holder.full_name)
    scan(qtbot, dialog.address, "21 Maple Dr")
    idle(qtbot, ctx)
    assert rows(ctx, Permit) == 0 and rows(ctx, PermitApplication) == 0
    assert dialog.isVisible() and dialog.address.text() == "21 Maple Dr"


def test_an_application_for_no_hens_is_refused_beside_the_field(qtbot, ctx, host, shown, holder):
    dialog = shown(ChickenPermitDialog(ctx, parent=host))
    dialog.holder.set_person(holder.id, holder.full_name)
    qtbot.keyClicks(dialog.address, "21 Maple Dr")
    dialog.setback.setValue(60)
    assert dialog.hens.value() == 0
    assert "Still to complete" in dialog.check.text() and "hens" in dialog.check.text()
    assert not dialog.refuse_button.isEnabled()  # a mistake to correct, not a refusal
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(qtbot, ctx)
    assert "at least 1" in dialog.form_fields.error_text("hens")
    assert rows(ctx, Permit) == 0 and dialog.isVisible()
    dialog.hens.setValue(3)
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    assert saved[0].status == "applied" and saved[0].application.hens == 3


def test_more_hens_than_dodgeville_allows_are_typed_as_typed_and_the_refusal_recorded(
    qtbot, dodgeville_ctx, host, shown, holder
):
    # Capped at 5, "12" became 1: the form showed an application that meets the rules and
    # the refusal the clerk had to record could never be.
    ctx = dodgeville_ctx
    dialog = shown(ChickenPermitDialog(ctx, parent=host))
    dialog.holder.set_person(holder.id, holder.full_name)
    qtbot.keyClicks(dialog.address, "21 Maple Dr")
    dialog.setback.setValue(60)
    dialog.hens.setFocus()
    dialog.hens.selectAll()
    qtbot.keyClicks(dialog.hens, "12")
    assert dialog.hens.value() == 12
    assert "At most 5 hens" in dialog.check.text() and dialog.refuse_button.isEnabled()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    idle(qtbot, ctx)
    assert "At most 5 hens" in dialog.form_fields.error_text("hens")
    assert rows(ctx, Permit) == 0
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.refuse_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    assert saved[0].status == "refused"
    assert [p.code for p in saved[0].application.problems] == ["too_many_hens"]
    assert saved[0].application.hens == 12
