"""Issue 15: from the release wizard, "Issue licence now" opens the licence form
prefilled; once the licence is issued the requirement checks again and the dog goes
home. The licence bought in November is late: the form shows the late fee."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from support import local

from fieldops.services.licences.views import get_licence
from ui.impounds import opening

LICENCE = "Dog shown to be licensed, or a receipt for a licence"
UNMET, MET = "✘", "✔"


@pytest.fixture
def open_record(ctx, host, wait_dialog, wait_idle):
    def open_(impoundment_id: int):
        opening.open_impoundment(ctx, impoundment_id, host)
        record = wait_dialog("ImpoundmentDialog")
        wait_idle()
        return record

    return open_


@pytest.fixture
def settle(qtbot, wait_idle):
    def wait(wizard) -> None:
        qtbot.waitUntil(lambda: wizard.requirements.is_checked(), timeout=10_000)
        wait_idle()

    return wait


def checklist(wizard) -> dict[str, tuple[str, str]]:
    return {label: (mark, note) for mark, label, note in wizard.requirements.checklist.rows()}


def test_an_unlicensed_dog_goes_home_with_a_licence_issued_in_the_wizard(
    qtbot, open_record, settle, pound, wait_idle, wait_dialog
):
    p = pound
    rex = p.animal("Rex", owner=p.ana, breed="Beagle", altered=True)
    p.vaccinate(rex)
    held = p.impound(rex, local(2026, 11, 25, 10, 0))
    record = open_record(held.id)
    wizard = record.open_release()
    wizard.next()
    settle(wizard)
    page = wizard.requirements
    assert checklist(wizard)[LICENCE][0] == UNMET
    assert page.issue_licence_button.isVisibleTo(wizard)
    qtbot.mouseClick(page.issue_licence_button, Qt.MouseButton.LeftButton)
    form = wait_dialog("IssueLicenceDialog")
    wait_idle()
    assert form.dog.animal_id() == rex.id and form.owner.person_id() == p.ana.id
    assert form.impoundment_id == held.id
    qtbot.keyClicks(form.tag, "26-0420")
    qtbot.waitUntil(lambda: "Total" in form.quote.text(), timeout=10_000)
    wait_idle()
    quote = form.last_preview.quote
    assert quote.late and quote.late_fee > 0  # due by 1 April; bought in the autumn
    assert f"late fee ${quote.late_fee:,.2f}" in form.quote.text()
    assert f"Total ${quote.total:,.2f}" in form.quote.text()
    issued = []
    form.saved.connect(issued.append)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(issued), timeout=10_000)
    settle(wizard)
    assert checklist(wizard)[LICENCE] == (MET, "Licensed: 26-0420 (2026)")
    assert not page.issue_licence_button.isVisibleTo(wizard)
    p.pay_all(held, local(2026, 11, 30, 9, 0), True, p.ana)
    page.check_now()
    settle(wizard)
    assert wizard.finish_button().isEnabled()
    qtbot.mouseClick(wizard.finish_button(), Qt.MouseButton.LeftButton)
    wait_idle()
    assert wizard.released is not None
    lic = get_licence(p.db, issued[0].id)
    assert (lic.issued_place, lic.impoundment_id, lic.total) == ("pound", held.id, quote.total)
    record.close()
