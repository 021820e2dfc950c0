"""The chicken form under the village's profile asks ch. 12's distance from a neighbouring
residence and the state registration's date; the city's form asks neither."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import func, select

from fieldops.db.models import Permit
from fieldops.rules import Profile
from ui.permits.chicken_dialog import ChickenPermitDialog


@pytest.fixture
def village_ctx(ctx):
    return replace(ctx, profile=Profile.named("village"))


def _dialog(qtbot, ctx, host) -> ChickenPermitDialog:
    dialog = ChickenPermitDialog(ctx, parent=host)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_city_form_asks_neither(qtbot, ctx, host):
    dialog = _dialog(qtbot, ctx, host)
    assert not dialog.offers("residence_setback_feet")
    assert not dialog.offers("state_registered_on")
    assert dialog.form().residence_setback_feet is None
    assert dialog.form().state_registered_on is None


def test_the_village_form_asks_both_and_refuses_beside_the_field(qtbot, village_ctx, host, holder):
    ctx = village_ctx
    dialog = _dialog(qtbot, ctx, host)
    assert dialog.offers("residence_setback_feet")
    assert dialog.offers("state_registered_on")
    dialog.holder.set_person(holder.id, holder.full_name)
    qtbot.keyClicks(dialog.address, "4 Elm St")
    dialog.hens.setValue(4)
    dialog.setback.setValue(10)
    dialog.state_registered_on.set_value(date(2025, 1, 10))
    dialog.residence.setValue(20)  # under (d)'s 25 feet
    assert "25 feet" in dialog.check.text() and dialog.refuse_button.isEnabled()
    dialog.residence.setValue(30)
    assert dialog.check.text() == "The application meets the rules."
    dialog.state_registered_on.set_value(date(2022, 1, 10))  # over 3 years before
    assert "renewed every 3 years" in dialog.check.text()
    dialog.state_registered_on.set_value(None)
    dialog.residence.setValue(20)  # still refused while another answer is missing
    assert "25 feet" in dialog.check.text()
    dialog.residence.setValue(30)
    assert "Still to complete" in dialog.check.text() and "registration" in dialog.check.text()
    # the registration's date is "Not known" until given: never a silent today
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
    assert dialog.form_fields.error_text("state_registered_on")
    assert dialog.isVisible() and dialog.address.text() == "4 Elm St"
    with ctx.db.read() as s:
        assert not s.scalar(select(func.count()).select_from(Permit))
    dialog.state_registered_on.set_value(date(2025, 1, 10))
    saved = []
    dialog.saved.connect(saved.append)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(saved), timeout=10_000)
    assert saved[0].status == "applied"
